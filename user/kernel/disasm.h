/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel text decoded with capstone, and what pftrace asks of every
 * instruction: is it a software prefetch, where may control go next, and
 * does it load a pointer through itself (a list walk's pos = pos->next)?
 * Each architecture answers from the encoding, not from capstone's text:
 *   x86-64  prefetcht0/t1/t2/nta are 0F 18 /1, /2, /3, /0 and
 *           prefetch/prefetchw 0F 0D /0, /1 (bytes and mnemonic agree);
 *   arm64   prfm (immediate, literal, register) and prfum, whose prfop
 *           names the kind: prefetch() is pldl1keep, prefetchw()
 *           pstl1keep, and the LL/SC atomics put pstl1strm before ldxr.
 * capstone 4 stops at arm64 instructions it does not know (LSE atomics,
 * CAS, LDAPR, retaa, MTE: thousands in a 6.12 kernel), so arm64 decodes
 * with SKIPDATA: such a word is kept as ".inst 0x..." and the scan goes on.
 */
#ifndef PFT_DISASM_H
#define PFT_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum isa { ISA_X86_64, ISA_ARM64 };

/* the kernel pftrace runs on is built for the machine pftrace is built for */
#if defined(__aarch64__)
#define ISA_NATIVE ISA_ARM64
#else
#define ISA_NATIVE ISA_X86_64
#endif

/* where control goes after an instruction, as a path through a function sees it */
enum insn_flow {
	FLOW_NEXT,      /* the next instruction (calls included: they return) */
	FLOW_BRANCH,    /* a conditional direct branch: target or next */
	FLOW_JUMP,      /* an unconditional direct branch: target only */
	FLOW_END,       /* return, trap, indirect jump: out of the function's paths */
};

struct insn {
	unsigned long addr;
	uint16_t size;
	uint8_t bytes[16];
	char mnemonic[32];
	char operands[96];
	bool prefetch;
	char prefetch_kind[16];    /* "prefetcht0", "pldl1keep", ...: "" when not one */
	bool before_exclusive;     /* arm64: the next instruction is a load-exclusive */
	enum insn_flow flow;
	unsigned long target;      /* FLOW_BRANCH, FLOW_JUMP: where; else 0 */
	bool chases_pointer;       /* loads a 64-bit register from memory at itself */
};

/* Decode LEN bytes at ADDR as ISA; *out is malloc'ed; returns the count or -1. */
int disasm_isa(enum isa isa, const uint8_t *code, size_t len, unsigned long addr,
	       struct insn **out);
/* The same, for the running kernel's ISA. */
int disasm(const uint8_t *code, size_t len, unsigned long addr, struct insn **out);
/* Only the prefetch instructions among them, as disasm_isa() reads them. */
int disasm_prefetches_isa(enum isa isa, const uint8_t *code, size_t len, unsigned long addr,
			  struct insn **out);
int disasm_prefetches(const uint8_t *code, size_t len, unsigned long addr, struct insn **out);
/* Quick pre-filter: could these bytes hold a prefetch at all? */
bool may_hold_prefetch_isa(enum isa isa, const uint8_t *code, size_t len);
bool may_hold_prefetch(const uint8_t *code, size_t len);

/* x86-64: the prefetch opcodes (after prefixes): 0F 18 /0-3, 0F 0D /0-1. */
bool bytes_are_prefetch(const uint8_t *b, size_t n);

/* arm64, by the 32-bit word: each fills IN's fields from WORD */
void arm64_classify(uint32_t word, struct insn *in);
/* prfm or prfum; *op gets the 5-bit prfop */
bool arm64_is_prefetch(uint32_t word, unsigned int *op);
/* LOAD fetches a pointer that NEXT turns into the register loaded through */
bool arm64_chases_through(uint32_t load, uint32_t next);
/* ldxr, ldaxr (any size), ldxp, ldaxp */
bool arm64_is_load_exclusive(uint32_t word);

#endif
