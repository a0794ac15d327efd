// SPDX-License-Identifier: GPL-2.0
/*
 * The walk loop finder (--latency's instructions per node) on x86-64
 * code assembled from this source with GNU as:
 *
 *	f:	test rax, rax; je out
 *	head:	cmp dword ptr [rax], edi;      jne next    ; ssid
 *		cmp dword ptr [rax + 4], esi;  jne next    ; tsid
 *		cmp word ptr [rax + 8], dx;    je found    ; tclass
 *	next:	mov rax, qword ptr [rax + 16]              ; pos = pos->next
 *		test rax, rax;                 jne head
 *	out:	xor eax, eax; ret
 *	found:	ret
 *
 * Once round: 5 instructions when the first compare fails, 7 when the
 * second does, 9 when the third does; 9 in the body.
 */
#include <stdlib.h>
#include "cmocka_prelude.h"
#include "walk_loop.h"

static const uint8_t walk_code[] = {
	0x48, 0x85, 0xc0, 0x74, 0x18, 0x39, 0x38, 0x75, 0x0b, 0x39, 0x70, 0x04,
	0x75, 0x06, 0x66, 0x39, 0x50, 0x08, 0x74, 0x0c, 0x48, 0x8b, 0x40, 0x10,
	0x48, 0x85, 0xc0, 0x75, 0xe8, 0x31, 0xc0, 0xc3, 0xc3,
};

static void test_chain_walk_loop(void **state)
{
	struct insn *insns = NULL;
	struct walk_loop loop;
	int n = disasm_isa(ISA_X86_64, walk_code, sizeof(walk_code), 0xffffffff81000000UL, &insns);

	assert_true(n > 10);
	assert_int_equal(find_walk_loop(insns, n, &loop), 0);
	assert_int_equal(loop.head, 0xffffffff81000005UL);
	assert_int_equal(loop.body, 9);
	assert_int_equal(loop.min_path, 5);
	assert_int_equal(loop.max_path, 9);
	free(insns);
}

static void test_no_pointer_chase(void **state)
{
	/* a counting loop: dec ecx; jne back; ret - no pos = pos->next */
	static const uint8_t count_loop[] = { 0xff, 0xc9, 0x75, 0xfc, 0xc3 };
	struct insn *insns = NULL;
	struct walk_loop loop;
	int n = disasm_isa(ISA_X86_64, count_loop, sizeof(count_loop), 0xffffffff81000000UL, &insns);

	assert_int_equal(n, 3);
	assert_int_equal(find_walk_loop(insns, n, &loop), -1);
	free(insns);
}

/*
 * The same walk for arm64 (aarch64-linux-gnu-as):
 *
 *	f:	cbz x0, out
 *	head:	ldr w3, [x0];        cmp w3, w1; b.ne next   ; ssid
 *		ldr w3, [x0, #4];    cmp w3, w2; b.ne next   ; tsid
 *		ldrh w3, [x0, #8];   cmp w3, w4; b.eq found  ; tclass
 *	next:	ldr x0, [x0, #16]                            ; pos = pos->next
 *		cbnz x0, head
 *	out:	mov w0, #0; ret
 *	found:	ret
 *
 * Once round: 5 instructions when the first compare fails, 8 when the
 * second does, 11 when the third does; 11 in the body.
 */
static const uint8_t arm64_walk_code[] = {
	0x80, 0x01, 0x00, 0xb4, 0x03, 0x00, 0x40, 0xb9, 0x7f, 0x00, 0x01, 0x6b,
	0xe1, 0x00, 0x00, 0x54, 0x03, 0x04, 0x40, 0xb9, 0x7f, 0x00, 0x02, 0x6b,
	0x81, 0x00, 0x00, 0x54, 0x03, 0x10, 0x40, 0x79, 0x7f, 0x00, 0x04, 0x6b,
	0xa0, 0x00, 0x00, 0x54, 0x00, 0x08, 0x40, 0xf9, 0xc0, 0xfe, 0xff, 0xb5,
	0x00, 0x00, 0x80, 0x52, 0xc0, 0x03, 0x5f, 0xd6, 0xc0, 0x03, 0x5f, 0xd6,
};

static void test_arm64_chain_walk_loop(void **state)
{
	struct insn *insns = NULL;
	struct walk_loop loop;
	int n = disasm_isa(ISA_ARM64, arm64_walk_code, sizeof(arm64_walk_code),
			   0xffff800080010000UL, &insns);

	assert_int_equal(n, 15);
	assert_int_equal(find_walk_loop(insns, n, &loop), 0);
	assert_int_equal(loop.head, 0xffff800080010004UL);
	assert_int_equal(loop.body, 11);
	assert_int_equal(loop.min_path, 5);
	assert_int_equal(loop.max_path, 11);
	free(insns);
}

static void test_arm64_no_pointer_chase(void **state)
{
	/* sub x1, x1, #1; cbnz x1, back; ret - a counting loop */
	static const uint8_t count_loop[] = { 0x21, 0x04, 0x00, 0xd1, 0xe1, 0xff, 0xff, 0xb5,
					      0xc0, 0x03, 0x5f, 0xd6 };
	struct insn *insns = NULL;
	struct walk_loop loop;
	int n = disasm_isa(ISA_ARM64, count_loop, sizeof(count_loop), 0xffff800080010000UL, &insns);

	assert_int_equal(n, 3);
	assert_int_equal(find_walk_loop(insns, n, &loop), -1);
	free(insns);
}

/*
 * Debian 6.12's arm64 avc_lookup as linked (linux-image-6.12.117+deb13-
 * cloud-arm64's Image), the walk of the 6.12 arm64 lab. The list node
 * sits 0x28 into avc_node, so the step loads next and subtracts:
 *
 *	0x5c  head: cbz x0, miss
 *	0x60  ldr w3, [x0]; cmp w4, w3; b.eq 0xa0      ; ssid
 *	0x6c  next: ldr x3, [x0, #40]; sub x0, x3, #0x28; cbnz x3, head
 *	...   miss: ...; ret
 *	0xa0  ldrh w3, [x0, #8]; cmp w3, w2; b.ne next  ; tclass, after the ret
 *	0xac  ldr w3, [x0, #4]; cmp w1, w3; b.ne next   ; tsid
 *	0xb8  ret
 *
 * Once round: 7 instructions when ssid differs, 10 when tclass does, 13
 * when tsid does; the last two paths leave the body and come back.
 */
static const uint8_t arm64_avc_lookup_6_12[] = {
	0x1f, 0x20, 0x03, 0xd5, 0x1f, 0x20, 0x03, 0xd5, 0xe4, 0x03, 0x00, 0x2a,
	0x42, 0x3c, 0x00, 0x12, 0x85, 0x9f, 0x00, 0xf0, 0xa5, 0x00, 0x00, 0x91,
	0xe0, 0x03, 0x05, 0xaa, 0x26, 0x00, 0x80, 0x52, 0x83, 0xd0, 0x38, 0xd5,
	0x00, 0x00, 0x03, 0x8b, 0x08, 0x7c, 0x5f, 0x88, 0x08, 0x01, 0x06, 0x0b,
	0x08, 0x7c, 0x07, 0x88, 0xa7, 0xff, 0xff, 0x35, 0x83, 0x08, 0x01, 0x4a,
	0xa0, 0xbe, 0x00, 0xb0, 0x63, 0x10, 0x02, 0x4a, 0x00, 0x20, 0x20, 0x91,
	0x63, 0x20, 0x7d, 0xd3, 0x00, 0x00, 0x03, 0x8b, 0x03, 0x04, 0x40, 0xf9,
	0x60, 0xa0, 0x00, 0xd1, 0x03, 0x01, 0x00, 0xb4, 0xe0, 0x00, 0x00, 0xb4,
	0x03, 0x00, 0x40, 0xb9, 0x9f, 0x00, 0x03, 0x6b, 0xc0, 0x01, 0x00, 0x54,
	0x03, 0x14, 0x40, 0xf9, 0x60, 0xa0, 0x00, 0xd1, 0x43, 0xff, 0xff, 0xb5,
	0x21, 0x00, 0x80, 0x52, 0xa5, 0x10, 0x00, 0x91, 0x80, 0xd0, 0x38, 0xd5,
	0xa0, 0x00, 0x00, 0x8b, 0x03, 0x7c, 0x5f, 0x88, 0x63, 0x00, 0x01, 0x0b,
	0x03, 0x7c, 0x02, 0x88, 0xa2, 0xff, 0xff, 0x35, 0x00, 0x00, 0x80, 0xd2,
	0xc0, 0x03, 0x5f, 0xd6, 0x03, 0x10, 0x40, 0x79, 0x7f, 0x00, 0x02, 0x6b,
	0x21, 0xfe, 0xff, 0x54, 0x03, 0x04, 0x40, 0xb9, 0x3f, 0x00, 0x03, 0x6b,
	0xc1, 0xfd, 0xff, 0x54, 0xc0, 0x03, 0x5f, 0xd6,
};

static void test_arm64_avc_lookup_out_of_line_compares(void **state)
{
	struct insn *insns = NULL;
	struct walk_loop loop;
	int n = disasm_isa(ISA_ARM64, arm64_avc_lookup_6_12, sizeof(arm64_avc_lookup_6_12),
			   0xffff800080b2ecf0UL, &insns);

	assert_int_equal(n, 47);
	assert_int_equal(find_walk_loop(insns, n, &loop), 0);
	assert_int_equal(loop.head, 0xffff800080b2ecf0UL + 0x5c);
	assert_int_equal(loop.body, 7);
	assert_int_equal(loop.min_path, 7);
	assert_int_equal(loop.max_path, 13);
	free(insns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_walk_loop),
		cmocka_unit_test(test_no_pointer_chase),
		cmocka_unit_test(test_arm64_chain_walk_loop),
		cmocka_unit_test(test_arm64_no_pointer_chase),
		cmocka_unit_test(test_arm64_avc_lookup_out_of_line_compares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
