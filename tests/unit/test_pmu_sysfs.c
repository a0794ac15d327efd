// SPDX-License-Identifier: GPL-2.0
/*
 * -e by the names the kernel lists in sysfs, on a tree laid out as
 * Debian 6.12 arm64 shows QEMU's PMU (armv8_pmuv3, type 10, format
 * event config:0-15, long config1:0), plus a split field.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmocka_prelude.h"
#include "pmu_sysfs.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	snprintf(root, sizeof(root), "/tmp/pft-pmu.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("armv8_pmuv3/type", "10\n");
	put("armv8_pmuv3/events/cpu_cycles", "event=0x0011\n");
	put("armv8_pmuv3/events/stall_backend", "event=0x0024\n");
	put("armv8_pmuv3/format/event", "config:0-15\n");
	put("armv8_pmuv3/format/long", "config1:0\n");
	put("armv8_pmuv3/events/long_cycles", "event=0x0011,long\n");
	put("split/type", "42\n");
	put("split/format/event", "config:0-7,32-35\n");
	put("split/events/wide", "event=0x512\n");
	put("software/type", "1\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

static void test_bare_and_pmu_names(void **state)
{
	struct pmu_event ev;

	assert_int_equal(pmu_sysfs_event_at(root, "stall_backend", &ev), 0);
	assert_int_equal(ev.type, 10);
	assert_int_equal(ev.config[0], 0x24);
	assert_string_equal(ev.pmu, "armv8_pmuv3");
	assert_int_equal(pmu_sysfs_event_at(root, "armv8_pmuv3/cpu_cycles/", &ev), 0);
	assert_int_equal(ev.config[0], 0x11);
	assert_int_equal(pmu_sysfs_event_at(root, "armv8_pmuv3/long_cycles", &ev), 0);
	assert_int_equal(ev.config[0], 0x11);
	assert_int_equal(ev.config[1], 1);
}

static void test_split_field(void **state)
{
	struct pmu_event ev;

	/* 0x512: the low 8 bits at 0-7, the next 4 at 32-35 */
	assert_int_equal(pmu_sysfs_event_at(root, "split/wide/", &ev), 0);
	assert_int_equal(ev.type, 42);
	assert_int_equal(ev.config[0], 0x12ULL | (0x5ULL << 32));
}

static void test_refusals(void **state)
{
	struct pmu_event ev;

	assert_int_equal(pmu_sysfs_event_at(root, "no_such_event", &ev), -ENOENT);
	assert_int_equal(pmu_sysfs_event_at(root, "../armv8_pmuv3/events/cpu_cycles", &ev), -EINVAL);
	assert_int_equal(pmu_sysfs_event_at(root, "armv8_pmuv3/../../etc", &ev), -EINVAL);
	assert_int_equal(pmu_sysfs_event_at(root, "armv8_pmuv3/", &ev), -EINVAL);
	assert_int_equal(pmu_sysfs_event_at(root, "", &ev), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bare_and_pmu_names),
		cmocka_unit_test(test_split_field),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
