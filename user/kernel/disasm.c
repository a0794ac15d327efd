// SPDX-License-Identifier: GPL-2.0
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

bool may_hold_prefetch(const uint8_t *code, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++)
		if (code[i] == 0x0f && (code[i + 1] == 0x18 || code[i + 1] == 0x0d))
			return true;
	return false;
}

int disasm(const uint8_t *code, size_t len, unsigned long addr, struct insn **out)
{
	csh handle;
	cs_insn *ci = NULL;
	size_t n, i;
	struct insn *v;

	*out = NULL;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK)
		return -1;
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
		strncpy(v[i].mnemonic, ci[i].mnemonic, sizeof(v[i].mnemonic) - 1);
		strncpy(v[i].operands, ci[i].op_str, sizeof(v[i].operands) - 1);
		/* the opcode and capstone's reading must agree */
		v[i].prefetch = bytes_are_prefetch(v[i].bytes, v[i].size) &&
				!strncmp(v[i].mnemonic, "prefetch", 8);
	}
	cs_free(ci, n);
	cs_close(&handle);
	*out = v;
	return (int)n;
}
