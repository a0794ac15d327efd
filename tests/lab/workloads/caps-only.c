// SPDX-License-Identifier: GPL-2.0
/*
 * caps-only: run a command as user nobody holding only the capabilities
 * named, the way a service unit with User= and AmbientCapabilities= would.
 *
 *   caps-only CAP[,CAP...] -- COMMAND [ARG...]
 *
 * CAP is bpf, perfmon or syslog. Every other capability leaves the
 * bounding, permitted and effective sets, so neither the command nor
 * anything it runs can get one back. RLIMIT_MEMLOCK is raised first, as
 * a unit's LimitMEMLOCK=infinity would: kernels before 5.11 charge BPF
 * maps to it, and raising it later would need CAP_SYS_RESOURCE.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif
#define NOBODY 65534

static void die(const char *what)
{
	fprintf(stderr, "caps-only: %s: %s\n", what, strerror(errno));
	exit(126);
}

static int cap_number(const char *name)
{
	if (!strcmp(name, "bpf"))
		return CAP_BPF;
	if (!strcmp(name, "perfmon"))
		return CAP_PERFMON;
	if (!strcmp(name, "syslog"))
		return CAP_SYSLOG;
	fprintf(stderr, "caps-only: unknown capability '%s' (bpf, perfmon, syslog)\n", name);
	exit(2);
}

int main(int argc, char **argv)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	unsigned long long keep = 0;
	char *list, *name;
	int cap;

	if (argc < 4 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: caps-only CAP[,CAP...] -- COMMAND [ARG...]\n");
		return 2;
	}
	list = strdup(argv[1]);
	for (name = strtok(list, ","); name; name = strtok(NULL, ","))
		keep |= 1ull << cap_number(name);

	/* a sandbox without CAP_SYS_RESOURCE keeps its own limit */
	if (setrlimit(RLIMIT_MEMLOCK, &unlimited))
		fprintf(stderr, "caps-only: RLIMIT_MEMLOCK stays: %s\n", strerror(errno));
	for (cap = 0; cap <= 63; cap++)
		if (!(keep & (1ull << cap)) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			die("PR_CAPBSET_DROP");
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setresgid(NOBODY, NOBODY, NOBODY) || setresuid(NOBODY, NOBODY, NOBODY))
		die("becoming nobody");
	data[0].permitted = data[0].effective = data[0].inheritable = (__u32)keep;
	data[1].permitted = data[1].effective = data[1].inheritable = (__u32)(keep >> 32);
	if (syscall(SYS_capset, &hdr, data))
		die("capset");
	/* ambient: the capabilities survive the exec of an unprivileged file */
	for (cap = 0; cap <= 63; cap++)
		if ((keep & (1ull << cap)) && prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0))
			die("PR_CAP_AMBIENT_RAISE");
	execvp(argv[3], argv + 3);
	die(argv[3]);
}
