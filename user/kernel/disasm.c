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

int disasm_isa(enum isa isa, const uint8_t *code, size_t len, unsigned long addr,
	       struct insn **out)
{
	csh handle;
	cs_insn *ci = NULL;
	size_t n, i;
	struct insn *v;
	cs_err err = isa == ISA_ARM64 ? cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &handle) :
					 cs_open(CS_ARCH_X86, CS_MODE_64, &handle);

	*out = NULL;
	if (err != CS_ERR_OK)
		return -1;
	/* arm64: a word capstone 4 does not know becomes data, 4 bytes, and the scan goes on */
	if (isa == ISA_ARM64)
		cs_option(handle, CS_OPT_SKIPDATA, CS_OPT_ON);
	n = cs_disasm(handle, code, len, addr, 0, &ci);
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		cs_free(ci, n);
		cs_close(&handle);
		return -1;
	}
	for (i = 0; i < n; i++) {
		v[i].addr = (unsigned long)ci[i].address;
		v[i].size = ci[i].size;
		memcpy(v[i].bytes, ci[i].bytes, ci[i].size < 16 ? ci[i].size : 16);
		snprintf(v[i].mnemonic, sizeof(v[i].mnemonic), "%s", ci[i].mnemonic);
		snprintf(v[i].operands, sizeof(v[i].operands), "%s", ci[i].op_str);
		if (isa == ISA_ARM64 && v[i].size == 4) {
			uint32_t w;

			memcpy(&w, v[i].bytes, 4);
			if (ci[i].id == 0) {    /* skipped data: objdump's spelling */
				snprintf(v[i].mnemonic, sizeof(v[i].mnemonic), ".inst");
				snprintf(v[i].operands, sizeof(v[i].operands), "0x%08x", w);
			}
			arm64_classify(w, &v[i]);
			if (i > 0 && v[i - 1].size == 4) {
				uint32_t prev;

				memcpy(&prev, v[i - 1].bytes, 4);
				v[i - 1].before_exclusive = arm64_is_load_exclusive(w);
				v[i - 1].chases_pointer |= arm64_chases_through(prev, w);
			}
		} else if (isa == ISA_X86_64) {
			x86_classify(&v[i]);
		}
	}
	cs_free(ci, n);
	cs_close(&handle);
	*out = v;
	return (int)n;
}

int disasm(const uint8_t *code, size_t len, unsigned long addr, struct insn **out)
{
	return disasm_isa(ISA_NATIVE, code, len, addr, out);
}
