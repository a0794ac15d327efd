/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 decoding with capstone, and the question pftrace asks of every
 * instruction: is it a software prefetch? prefetcht0/t1/t2/nta are
 * 0F 18 /1, /2, /3, /0 and prefetch/prefetchw 0F 0D /0, /1; both the
 * bytes and capstone's mnemonic must say so.
 */
#ifndef PFT_DISASM_H
#define PFT_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct insn {
	unsigned long addr;
	uint16_t size;
	uint8_t bytes[16];
	char mnemonic[32];
	char operands[96];
	bool prefetch;
};

/* Decode LEN bytes at ADDR; *out is malloc'ed; returns the count or -1. */
int disasm(const uint8_t *code, size_t len, unsigned long addr, struct insn **out);
/* The prefetch opcodes (after prefixes): 0F 18 /0-3, 0F 0D /0-1. */
bool bytes_are_prefetch(const uint8_t *b, size_t n);
/* Quick pre-filter: could these bytes hold a prefetch at all? */
bool may_hold_prefetch(const uint8_t *code, size_t len);

#endif
