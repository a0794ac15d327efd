// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "caps.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

bool cap_effective(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };

	if (cap < 0 || cap >= 64 || syscall(SYS_capget, &hdr, data))
		return false;
	return data[cap / 32].effective & (1u << (cap % 32));
}

bool caps_can_trace(char *missing, size_t len)
{
	bool bpf = cap_effective(CAP_BPF), perfmon = cap_effective(CAP_PERFMON);

	if ((bpf && perfmon) || cap_effective(CAP_SYS_ADMIN)) {
		if (len)
			missing[0] = '\0';
		return true;
	}
	snprintf(missing, len, "%s%s%s", bpf ? "" : "CAP_BPF", !bpf && !perfmon ? ", " : "",
		 perfmon ? "" : "CAP_PERFMON");
	return false;
}

const char *perf_denied_why(int err)
{
	char buf[16] = "";
	int saved_errno = errno;  /* callers pass errno and strerror(errno) together */
	FILE *f;

	if (err < 0)
		err = -err;
	if (err != EACCES && err != EPERM)
		return "";
	f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	errno = saved_errno;
	/* Debian's (and Android's) level 3 checks CAP_SYS_ADMIN, not CAP_PERFMON */
	if (atoi(buf) >= 3 && !cap_effective(CAP_SYS_ADMIN))
		return " (kernel.perf_event_paranoid is 3, which keeps perf events for "
		       "CAP_SYS_ADMIN; set it to 2 to let CAP_PERFMON open them)";
	if (!cap_effective(CAP_PERFMON) && !cap_effective(CAP_SYS_ADMIN))
		return " (needs CAP_PERFMON)";
	return "";
}
