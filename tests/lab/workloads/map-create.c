// SPDX-License-Identifier: GPL-2.0
/*
 * map-create: ask the kernel for one BPF map, and say whether it made
 * it: the lab's oracle for whether the kernel refuses a map of that size
 * here (RLIMIT_MEMLOCK before 5.11, the memory cgroup from then on).
 *
 *   map-create array|hash ENTRIES KEY_SIZE VALUE_SIZE
 *
 * RLIMIT_MEMLOCK is raised first where the process may (CAP_SYS_RESOURCE),
 * as libbpf raises it before it creates a map. Prints "created" and
 * exits 0, or "refused: REASON" and exits 1.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	union bpf_attr attr;
	long fd;

	if (argc != 5 || (strcmp(argv[1], "array") && strcmp(argv[1], "hash"))) {
		fprintf(stderr, "usage: map-create array|hash ENTRIES KEY_SIZE VALUE_SIZE\n");
		return 2;
	}
	setrlimit(RLIMIT_MEMLOCK, &unlimited);
	memset(&attr, 0, sizeof(attr));
	attr.map_type = strcmp(argv[1], "array") ? BPF_MAP_TYPE_HASH : BPF_MAP_TYPE_ARRAY;
	attr.max_entries = (__u32)strtoul(argv[2], NULL, 10);
	attr.key_size = (__u32)strtoul(argv[3], NULL, 10);
	attr.value_size = (__u32)strtoul(argv[4], NULL, 10);
	fd = syscall(__NR_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd < 0) {
		printf("refused: %s\n", strerror(errno));
		return 1;
	}
	printf("created\n");
	close((int)fd);
	return 0;
}
