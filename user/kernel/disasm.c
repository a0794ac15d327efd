// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <capstone/capstone.h>

#include "disasm.h"

static bool is_legacy_prefix(uint8_t b)
{
	return b == 0x66 || b == 0x67 || b == 0x2e || b == 0x36 || b == 0x3e ||
	       b == 0x26 || b == 0x64 || b == 0x65 || b == 0xf2 || b == 0xf3;
}

bool bytes_are_prefetch(const uint8_t *b, size_t n)
{
	size_t i = 0;
	unsigned int reg, mod;

	while (i < n && is_legacy_prefix(b[i]))
		i++;
	if (i < n && (b[i] & 0xf0) == 0x40)   /* REX */
		i++;
	if (i + 3 > n || b[i] != 0x0f)          /* 0F, the opcode, ModRM */
		return false;
	reg = (b[i + 2] >> 3) & 7;             /* ModRM.reg picks the hint */
	mod = b[i + 2] >> 6;
	if (mod == 3)                           /* a register operand: a NOP form */
		return false;
	if (b[i + 1] == 0x18)
		return reg <= 3;
	if (b[i + 1] == 0x0d)
		return reg <= 1;
	return false;
}

static bool x86_may_hold_prefetch(const uint8_t *code, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++)
		if (code[i] == 0x0f && (code[i + 1] == 0x18 || code[i + 1] == 0x0d))
			return true;
	return false;
}

static bool arm64_may_hold_prefetch(const uint8_t *code, size_t len)
{
	unsigned int op;
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t w;

		memcpy(&w, code + i, 4);         /* arm64 kernels are little-endian */
		if (arm64_is_prefetch(w, &op))
			return true;
	}
	return false;
}

bool may_hold_prefetch_isa(enum isa isa, const uint8_t *code, size_t len)
{
	return isa == ISA_ARM64 ? arm64_may_hold_prefetch(code, len) :
				  x86_may_hold_prefetch(code, len);
}

bool may_hold_prefetch(const uint8_t *code, size_t len)
{
	return may_hold_prefetch_isa(ISA_NATIVE, code, len);
}

/* mov REG, qword ptr [REG ...]: pos = pos->next, the walk's own step */
static bool x86_chases_pointer(const struct insn *in)
{
	const char *comma = strchr(in->operands, ',');
	size_t len;

	if (strcmp(in->mnemonic, "mov") || !comma)
		return false;
	len = (size_t)(comma - in->operands);
	return len >= 2 && len < 8 && in->operands[0] == 'r' &&
	       !strncmp(comma, ", qword ptr [", 13) &&
	       !strncmp(comma + 13, in->operands, len) &&
	       (comma[13 + len] == ']' || comma[13 + len] == ' ');
}

/* x86-64 from capstone's reading: jumps are j*, their target "0x..." */
static void x86_classify(struct insn *in)
{
	bool uncond = !strcmp(in->mnemonic, "jmp");
	char *end;

	/* the opcode and capstone's reading must agree */
	in->prefetch = bytes_are_prefetch(in->bytes, in->size) &&
		       !strncmp(in->mnemonic, "prefetch", 8);
	if (in->prefetch)
		snprintf(in->prefetch_kind, sizeof(in->prefetch_kind), "%s", in->mnemonic);
	in->chases_pointer = x86_chases_pointer(in);
	if (!strncmp(in->mnemonic, "ret", 3) || !strcmp(in->mnemonic, "ud2")) {
		in->flow = FLOW_END;
	} else if (in->mnemonic[0] == 'j') {
		if (!strncmp(in->operands, "0x", 2)) {
			in->target = strtoul(in->operands, &end, 16);
			if (*end)
				in->target = 0;
		}
		/* an indirect jmp leaves every path; a jcc always has a target */
		in->flow = uncond ? (in->target ? FLOW_JUMP : FLOW_END) : FLOW_BRANCH;
	}
}

static int open_isa(enum isa isa, csh *handle)
{
	cs_err err = isa == ISA_ARM64 ? cs_open(CS_ARCH_ARM64, CS_MODE_ARM, handle) :
					 cs_open(CS_ARCH_X86, CS_MODE_64, handle);

	if (err != CS_ERR_OK)
		return -1;
	/* arm64: a word capstone 4 does not know becomes data, 4 bytes, and the scan goes on */
	if (isa == ISA_ARM64)
		cs_option(*handle, CS_OPT_SKIPDATA, CS_OPT_ON);
	return 0;
}

/* capstone's reading of one instruction, and the ISA's answers about it */
static void fill_insn(enum isa isa, const cs_insn *ci, struct insn *v)
{
	memset(v, 0, sizeof(*v));
	v->addr = (unsigned long)ci->address;
	v->size = ci->size;
	memcpy(v->bytes, ci->bytes, ci->size < 16 ? ci->size : 16);
	snprintf(v->mnemonic, sizeof(v->mnemonic), "%s", ci->mnemonic);
	snprintf(v->operands, sizeof(v->operands), "%s", ci->op_str);
	if (isa == ISA_ARM64 && v->size == 4) {
		uint32_t w;

		memcpy(&w, v->bytes, 4);
		if (ci->id == 0) {      /* skipped data: objdump's spelling */
			snprintf(v->mnemonic, sizeof(v->mnemonic), ".inst");
			snprintf(v->operands, sizeof(v->operands), "0x%08x", w);
		}
		arm64_classify(w, v);
	} else if (isa == ISA_X86_64) {
		x86_classify(v);
	}
}

/* arm64: what the word after V says of it */
static void arm64_pair(struct insn *v, uint32_t next)
{
	uint32_t w;

	memcpy(&w, v->bytes, 4);
	v->before_exclusive = arm64_is_load_exclusive(next);
	v->chases_pointer |= arm64_chases_through(w, next);
}

int disasm_isa(enum isa isa, const uint8_t *code, size_t len, unsigned long addr,
	       struct insn **out)
{
	csh handle;
	cs_insn *ci = NULL;
	size_t n, i;
	struct insn *v;

	*out = NULL;
	if (open_isa(isa, &handle))
		return -1;
	n = cs_disasm(handle, code, len, addr, 0, &ci);
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		cs_free(ci, n);
		cs_close(&handle);
		return -1;
	}
	for (i = 0; i < n; i++) {
		fill_insn(isa, &ci[i], &v[i]);
		if (isa == ISA_ARM64 && i > 0 && v[i - 1].size == 4 && v[i].size == 4) {
			uint32_t w;

			memcpy(&w, v[i].bytes, 4);
			arm64_pair(&v[i - 1], w);
		}
	}
	cs_free(ci, n);
	cs_close(&handle);
	*out = v;
	return (int)n;
}

/*
 * arm64's words decode alone: only the prefetches go through capstone,
 * each with the word after it. A whole 6.12 census (15,244 sites in
 * 7,753 functions) decoded every instruction of those functions before.
 */
static int arm64_prefetches(const uint8_t *code, size_t len, unsigned long addr, struct insn **out)
{
	size_t i, n = 0, k = 0;
	unsigned int op;
	struct insn *v;
	csh handle;

	*out = NULL;
	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t w;

		memcpy(&w, code + i, 4);
		n += arm64_is_prefetch(w, &op);
	}
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v || open_isa(ISA_ARM64, &handle)) {
		free(v);
		return -1;
	}
	for (i = 0; i + 4 <= len && k < n; i += 4) {
		cs_insn *ci = NULL;
		uint32_t w, next;

		memcpy(&w, code + i, 4);
		if (!arm64_is_prefetch(w, &op) || cs_disasm(handle, code + i, 4, addr + i, 1, &ci) != 1)
			continue;
		fill_insn(ISA_ARM64, ci, &v[k]);
		cs_free(ci, 1);
		if (i + 8 <= len) {
			memcpy(&next, code + i + 4, 4);
			arm64_pair(&v[k], next);
		}
		k++;
	}
	cs_close(&handle);
	*out = v;
	return (int)k;
}

int disasm_prefetches_isa(enum isa isa, const uint8_t *code, size_t len, unsigned long addr,
			  struct insn **out)
{
	struct insn *v;
	int n, i, k = 0;

	if (isa == ISA_ARM64)
		return arm64_prefetches(code, len, addr, out);
	/* x86's lengths vary: every instruction is decoded to find them */
	n = disasm_isa(isa, code, len, addr, &v);
	for (i = 0; i < n; i++)
		if (v[i].prefetch)
			v[k++] = v[i];
	*out = v;
	return n < 0 ? n : k;
}

int disasm(const uint8_t *code, size_t len, unsigned long addr, struct insn **out)
{
	return disasm_isa(ISA_NATIVE, code, len, addr, out);
}

int disasm_prefetches(const uint8_t *code, size_t len, unsigned long addr, struct insn **out)
{
	return disasm_prefetches_isa(ISA_NATIVE, code, len, addr, out);
}
