/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capabilities pftrace needs, feature by feature. Root is not
 * required: CAP_BPF + CAP_PERFMON load and attach the programs (5.8+),
 * CAP_SYSLOG shows kallsyms addresses, CAP_SYS_RAWIO opens /proc/kcore
 * (else text is read through BPF), CAP_SYS_ADMIN enables BPF run-time
 * statistics (else the overhead goes unmeasured).
 */
#ifndef PFT_CAPS_H
#define PFT_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/capability.h>

/* Is capability CAP in this process's effective set? */
bool cap_effective(int cap);
/*
 * Can this process load and attach tracing programs: CAP_BPF and
 * CAP_PERFMON, or CAP_SYS_ADMIN (which also covers kernels before 5.8)?
 * If not, the missing names ("CAP_BPF, CAP_PERFMON") go into buf.
 */
bool caps_can_trace(char *missing, size_t len);

/*
 * Why perf_event_open() (kprobes, samples) refused with ERR, when the
 * reason is a capability: " (...)" to append to the message, else "".
 */
const char *perf_denied_why(int err);

#endif
