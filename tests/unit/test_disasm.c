// SPDX-License-Identifier: GPL-2.0
/*
 * The decoders' answers on code assembled with GNU as, for both ISAs on
 * either build. arm64 (aarch64-linux-gnu-as -march=armv8.5-a+memtag),
 * with objdump's reading of each word:
 *
 *	 0  f8210002  ldadd  x1, x2, [x0]       LSE: capstone 4 stops here
 *	 1  c8a17c02  cas    x1, x2, [x0]
 *	 2  f8bfc003  ldapr  x3, [x0]
 *	 3  f9800000  prfm   pldl1keep, [x0]           prefetch()
 *	 4  9adf1041  irg    x1, x2             MTE
 *	 5  f9800011  prfm   pstl1strm, [x0]           LL/SC: before ldxr
 *	 6  c85f7c01  ldxr   x1, [x0]
 *	 7  f9802010  prfm   pstl1keep, [x0, #64]      prefetchw()
 *	 8  f89f8002  prfum  pldl2keep, [x0, #-8]
 *	 9  f8a17801  prfm   pldl1strm, [x0, x1, lsl #3]
 *	10  f9800051  prfm   pstl1strm, [x2]           before ldaxp
 *	11  c87f9043  ldaxp  x3, x4, [x2]
 *	12  f9800011  prfm   pstl1strm, [x0]           before no exclusive
 *	13  91000400  add    x0, x0, #0x1
 *	14  d65f0bff  retaa
 */
#include <stdlib.h>
#include <string.h>
#include "cmocka_prelude.h"
#include "disasm.h"

static const uint8_t arm64_mix[] = {
	0x02, 0x00, 0x21, 0xf8, 0x02, 0x7c, 0xa1, 0xc8, 0x03, 0xc0, 0xbf, 0xf8,
	0x00, 0x00, 0x80, 0xf9, 0x41, 0x10, 0xdf, 0x9a, 0x11, 0x00, 0x80, 0xf9,
	0x01, 0x7c, 0x5f, 0xc8, 0x10, 0x20, 0x80, 0xf9, 0x02, 0x80, 0x9f, 0xf8,
	0x01, 0x78, 0xa1, 0xf8, 0x51, 0x00, 0x80, 0xf9, 0x43, 0x90, 0x7f, 0xc8,
	0x11, 0x00, 0x80, 0xf9, 0x00, 0x04, 0x00, 0x91, 0xff, 0x0b, 0x5f, 0xd6,
};

static void test_arm64_decodes_past_unknown_words(void **state)
{
	struct insn *v = NULL;
	int n = disasm_isa(ISA_ARM64, arm64_mix, sizeof(arm64_mix), 0xffff800080010000UL, &v);
	int i;

	/* every word is there, at its own address, known to capstone or not */
	assert_int_equal(n, 15);
	for (i = 0; i < n; i++) {
		assert_int_equal(v[i].addr, 0xffff800080010000UL + 4 * (unsigned long)i);
		assert_int_equal(v[i].size, 4);
	}
	assert_string_equal(v[3].mnemonic, "prfm");
	assert_int_equal(v[14].flow, FLOW_END);       /* retaa, by its encoding */
	assert_false(v[2].chases_pointer);            /* ldapr x3, [x0]: another register */
	free(v);
}

static void test_arm64_prefetch_kinds(void **state)
{
	static const struct { int at; const char *kind; bool before_exclusive; } want[] = {
		{ 3, "pldl1keep", false }, { 5, "pstl1strm", true }, { 7, "pstl1keep", false },
		{ 8, "pldl2keep", false }, { 9, "pldl1strm", false }, { 10, "pstl1strm", true },
		{ 12, "pstl1strm", false },
	};
	struct insn *v = NULL;
	int n = disasm_isa(ISA_ARM64, arm64_mix, sizeof(arm64_mix), 0xffff800080010000UL, &v);
	size_t k;
	int i, prefetches = 0;

	assert_int_equal(n, 15);
	for (i = 0; i < n; i++)
		prefetches += v[i].prefetch;
	assert_int_equal(prefetches, 7);
	for (k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		assert_true(v[want[k].at].prefetch);
		assert_string_equal(v[want[k].at].prefetch_kind, want[k].kind);
		assert_int_equal(v[want[k].at].before_exclusive, want[k].before_exclusive);
	}
	assert_true(may_hold_prefetch_isa(ISA_ARM64, arm64_mix, sizeof(arm64_mix)));
	assert_false(may_hold_prefetch_isa(ISA_ARM64, arm64_mix, 12));   /* the three before */
	free(v);
}

/* the census's shortcut reads the prefetches exactly as a whole decode does */
static void test_prefetches_alone(void **state)
{
	static const uint8_t x86[] = { 0x0f, 0x18, 0x08, 0x90, 0x0f, 0x0d, 0x0f, 0xc3 };
	struct { enum isa isa; const uint8_t *code; size_t len; int want; } cases[] = {
		{ ISA_ARM64, arm64_mix, sizeof(arm64_mix), 7 },
		{ ISA_X86_64, x86, sizeof(x86), 2 },
	};
	size_t c;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct insn *all = NULL, *only = NULL;
		int n = disasm_isa(cases[c].isa, cases[c].code, cases[c].len, 0x1000, &all);
		int k = disasm_prefetches_isa(cases[c].isa, cases[c].code, cases[c].len, 0x1000, &only);
		int i, j = 0;

		assert_int_equal(k, cases[c].want);
		for (i = 0; i < n; i++) {
			if (!all[i].prefetch)
				continue;
			assert_true(j < k);
			assert_int_equal(only[j].addr, all[i].addr);
			assert_string_equal(only[j].prefetch_kind, all[i].prefetch_kind);
			assert_string_equal(only[j].mnemonic, all[i].mnemonic);
			assert_string_equal(only[j].operands, all[i].operands);
			assert_int_equal(only[j].before_exclusive, all[i].before_exclusive);
			j++;
		}
		assert_int_equal(j, k);
		free(all);
		free(only);
	}
}

static void test_arm64_branches(void **state)
{
	struct insn in;
	static const struct { uint32_t w; enum insn_flow flow; unsigned long target; } cases[] = {
		{ 0x14000004, FLOW_JUMP, 0x1010 },     /* b .+16 */
		{ 0x17fffffc, FLOW_JUMP, 0x0ff0 },     /* b .-16 */
		{ 0x94000004, FLOW_NEXT, 0 },          /* bl: a call returns */
		{ 0x54000081, FLOW_BRANCH, 0x1010 },   /* b.ne .+16 */
		{ 0xb5ffffe1, FLOW_BRANCH, 0x0ffc },   /* cbnz x1, .-4 */
		{ 0x37080081, FLOW_BRANCH, 0x1010 },   /* tbnz w1, #1, .+16 */
		{ 0xd63f0020, FLOW_NEXT, 0 },          /* blr x1 */
		{ 0xd61f0020, FLOW_END, 0 },           /* br x1 */
		{ 0xd65f03c0, FLOW_END, 0 },           /* ret */
		{ 0xd4200000, FLOW_END, 0 },           /* brk #0 */
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		memset(&in, 0, sizeof(in));
		in.addr = 0x1000;
		arm64_classify(cases[k].w, &in);
		assert_int_equal(in.flow, cases[k].flow);
		assert_int_equal(in.target, cases[k].target);
	}
}

static void test_x86_prefetches(void **state)
{
	/* prefetcht0 [rax]; prefetchw [rdi]; nop dword ptr [rax] (0F 1F); ret */
	static const uint8_t code[] = { 0x0f, 0x18, 0x08, 0x0f, 0x0d, 0x0f, 0x0f, 0x1f, 0x00, 0xc3 };
	struct insn *v = NULL;
	int n = disasm_isa(ISA_X86_64, code, sizeof(code), 0xffffffff81000000UL, &v);

	assert_int_equal(n, 4);
	assert_true(v[0].prefetch);
	assert_string_equal(v[0].prefetch_kind, "prefetcht0");
	assert_true(v[1].prefetch);
	assert_string_equal(v[1].prefetch_kind, "prefetchw");
	assert_false(v[2].prefetch);
	assert_int_equal(v[3].flow, FLOW_END);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm64_decodes_past_unknown_words),
		cmocka_unit_test(test_arm64_prefetch_kinds),
		cmocka_unit_test(test_prefetches_alone),
		cmocka_unit_test(test_arm64_branches),
		cmocka_unit_test(test_x86_prefetches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
