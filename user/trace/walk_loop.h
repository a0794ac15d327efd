/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The chain-walk loop of a traced function, found in its machine code:
 * the loop whose body follows a pointer from the register it loads into
 * (x86's mov REG, [REG + off], arm64's ldr xN, [xN, #off]: the walk's
 * pos = pos->next), and the shortest and longest path once round it, in
 * instructions. Under QEMU -icount a guest instruction takes one
 * nanosecond, so --latency's cost per node must lie between the two.
 */
#ifndef PFT_WALK_LOOP_H
#define PFT_WALK_LOOP_H

#include "disasm.h"
#include "kernel.h"
#include "ktext.h"

struct walk_loop {
	unsigned long head;        /* the loop's first instruction */
	int body;                  /* instructions from the head to the last back edge */
	int min_path, max_path;    /* instructions once round, shortest and longest */
};

/* From decoded instructions: 0, or -1 when no loop chases a pointer. */
int find_walk_loop(const struct insn *insns, int n, struct walk_loop *out);
/* Read and decode F through KT, then find_walk_loop(). */
int walk_loop_of(const struct kfunc *f, struct ktext *kt, struct walk_loop *out);

#endif
