/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command pftrace runs while it traces or samples (`-- COMMAND`), and
 * the signals that end a run. SIGINT, SIGTERM and SIGCHLD are blocked and
 * taken synchronously with sigtimedwait(): a Ctrl-C at any point ends in
 * the same orderly stop, and none can slip between a check and a sleep.
 * Used by the trace session and by `pftrace sites`.
 */
#ifndef PFT_WORKLOAD_H
#define PFT_WORKLOAD_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

struct workload {
	sigset_t signals, orig_mask;
	pid_t pid;                /* 0: none running */
	int exit_status;          /* its status, or 128 + signal */
	/*
	 * Called with the child's pid after the fork and before its exec,
	 * which waits for it (--only-command follows the pid from there):
	 * 0, or -errno and the command is not run.
	 */
	int (*admit)(pid_t pid, void *arg);
	void *admit_arg;
};

/* Block the run's signals; the original mask is kept for the command. */
void workload_init(struct workload *w);
/*
 * Run ARGV with the original signal mask. An exec failure comes back
 * through a close-on-exec pipe: -errno and "cannot run 'X': reason".
 */
int workload_start(struct workload *w, char **argv, char *err, size_t errlen);
/*
 * Wait until DEADLINE (monotonic seconds, INFINITY for none), a signal,
 * or the command's end. Returns why the run ends ("SIGINT", "SIGTERM",
 * "command exited"), or NULL at the deadline.
 */
const char *workload_wait(struct workload *w, double deadline);
#define WORKLOAD_TERM_GRACE_MS 2000

/* SIGTERM to a command still running, SIGKILL after the grace, and reap it. */
void workload_stop(struct workload *w);
/* Monotonic seconds; and nanoseconds, bpf_ktime_get_ns()'s clock. */
double monotonic_s(void);
unsigned long long monotonic_ns(void);

#endif
