// SPDX-License-Identifier: GPL-2.0
/*
 * The walk loop finder (--latency's instructions per node) on code
 * assembled from this source with GNU as:
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
	int n = disasm(walk_code, sizeof(walk_code), 0xffffffff81000000UL, &insns);

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
	int n = disasm(count_loop, sizeof(count_loop), 0xffffffff81000000UL, &insns);

	assert_int_equal(n, 3);
	assert_int_equal(find_walk_loop(insns, n, &loop), -1);
	free(insns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_walk_loop),
		cmocka_unit_test(test_no_pointer_chase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
