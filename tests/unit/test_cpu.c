// SPDX-License-Identifier: GPL-2.0
/* The machine line from /proc/cpuinfo: x86's model name, arm64's MIDR fields. */
#include <stdio.h>
#include <string.h>
#include "cmocka_prelude.h"
#include "cpu.h"

static void describe(const char *cpuinfo, struct cpu_id *id, char *buf, size_t len)
{
	FILE *f = fmemopen((void *)cpuinfo, strlen(cpuinfo), "r");

	assert_non_null(f);
	cpu_id_parse(f, id);
	fclose(f);
	cpu_id_describe(id, buf, len);
}

static void test_x86_model_name(void **state)
{
	struct cpu_id id;
	char line[160];

	describe("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: QEMU TCG CPU version 2.5+\n"
		 "flags\t\t: fpu\n\nprocessor\t: 1\nmodel name\t: another\n", &id, line, sizeof(line));
	assert_string_equal(line, "QEMU TCG CPU version 2.5+");
	assert_false(cpu_id_emulated(&id));
}

static void test_arm64_qemu_max(void **state)
{
	/* Debian 6.12 arm64 under qemu-system-aarch64 -cpu max: no model name */
	struct cpu_id id;
	char line[160];

	describe("processor\t: 0\nBogoMIPS\t: 125.00\nFeatures\t: fp asimd atomics\n"
		 "CPU implementer\t: 0x00\nCPU architecture: 8\nCPU variant\t: 0x0\n"
		 "CPU part\t: 0x051\nCPU revision\t: 0\n\n", &id, line, sizeof(line));
	assert_string_equal(line, "an emulated CPU (implementer 0x00, part 0x051)");
	assert_true(cpu_id_emulated(&id));
}

static void test_arm64_named_and_unnamed(void **state)
{
	struct cpu_id id;
	char line[160];

	describe("processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n\n", &id, line,
		 sizeof(line));
	assert_string_equal(line, "ARM Neoverse-N1 (implementer 0x41, part 0xd0c)");
	assert_false(cpu_id_emulated(&id));
	describe("processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xfff\n\n", &id, line,
		 sizeof(line));
	assert_string_equal(line, "implementer 0x41, part 0xfff");
	describe("", &id, line, sizeof(line));
	assert_string_equal(line, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_model_name),
		cmocka_unit_test(test_arm64_qemu_max),
		cmocka_unit_test(test_arm64_named_and_unnamed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
