// SPDX-License-Identifier: GPL-2.0
/*
 * libbpf's messages: on stderr with -v, else none; and, either way, the
 * one message that names a map the kernel refused, which nothing else
 * in libbpf's API reports. With it, whether RLIMIT_MEMLOCK bounds BPF.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kernel.h"

/* the map libbpf last failed to create, and why: its log is what names it */
static char refused_map[64];
static int refused_map_err;

/*
 * libbpf 1.1's words for a map the kernel refused (bpf_object__create_maps):
 * "libbpf: map '%s': failed to create: %s(%d)\n"
 */
static void note_refused_map(const char *fmt, va_list ap)
{
	char line[256], name[64];
	int err;

	if (!strstr(fmt, "': failed to create: "))
		return;
	vsnprintf(line, sizeof(line), fmt, ap);
	if (sscanf(line, "libbpf: map '%63[^']': failed to create: %*[^(](%d)", name, &err) != 2)
		return;
	snprintf(refused_map, sizeof(refused_map), "%s", name);
	refused_map_err = err;
}

static int libbpf_print_verbose(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list copy;

	va_copy(copy, ap);
	note_refused_map(fmt, copy);
	va_end(copy);
	return vfprintf(stderr, fmt, ap);
}

static int libbpf_print_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	note_refused_map(fmt, ap);
	return 0;
}

/*
 * Kernels before 5.11 charge BPF maps and programs to RLIMIT_MEMLOCK
 * (from 5.11 to the memory cgroup); bpf_ktime_get_coarse_ns came in the
 * same release, and is how libbpf itself tells them apart. True where
 * the limit applies to BPF and is not unlimited, with it in *LIMIT.
 */
bool kernel_memlock_limits_bpf(unsigned long long *limit)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return false;
	*limit = rl.rlim_cur;
	return libbpf_probe_bpf_helper(BPF_PROG_TYPE_SOCKET_FILTER, BPF_FUNC_ktime_get_coarse_ns,
				       NULL) == 0;
}

void libbpf_refused_map_clear(void)
{
	refused_map[0] = '\0';
	refused_map_err = 0;
}

const char *libbpf_refused_map(int *err)
{
	*err = refused_map_err;
	return refused_map[0] ? refused_map : NULL;
}

void setup_libbpf_logging(bool verbose)
{
	libbpf_set_print(verbose ? libbpf_print_verbose : libbpf_print_quiet);
}
