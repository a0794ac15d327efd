// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workload.h"

unsigned long long monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

double monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void workload_init(struct workload *w)
{
	memset(w, 0, sizeof(*w));
	sigemptyset(&w->signals);
	sigaddset(&w->signals, SIGINT);
	sigaddset(&w->signals, SIGTERM);
	sigaddset(&w->signals, SIGCHLD);
	sigprocmask(SIG_BLOCK, &w->signals, &w->orig_mask);
}

int workload_start(struct workload *w, char **argv, char *err, size_t errlen)
{
	int pfd[2], gate[2] = { -1, -1 }, child_errno = 0, rc;
	ssize_t n;
	char go = 0;

	if (pipe2(pfd, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -errno;
	}
	if (w->admit && pipe2(gate, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	w->pid = fork();
	if (w->pid < 0) {
		w->pid = 0;
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		if (gate[0] >= 0) {
			close(gate[0]);
			close(gate[1]);
		}
		return -errno;
	}
	if (w->pid == 0) {
		sigprocmask(SIG_SETMASK, &w->orig_mask, NULL);
		close(pfd[0]);
		if (gate[0] >= 0) {
			close(gate[1]);
			/* no go (the parent closed the gate): not admitted, not run */
			if (read(gate[0], &go, 1) != 1 || go != 1)
				_exit(127);
			close(gate[0]);
		}
		execvp(argv[0], argv);
		child_errno = errno;
		if (write(pfd[1], &child_errno, sizeof(child_errno)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	if (gate[0] >= 0) {
		close(gate[0]);
		rc = w->admit(w->pid, w->admit_arg);
		go = rc ? 0 : 1;
		if (write(gate[1], &go, 1) != 1 && !rc)
			rc = -EPIPE;
		close(gate[1]);
		if (rc) {
			close(pfd[0]);
			kill(w->pid, SIGKILL);
			waitpid(w->pid, NULL, 0);
			w->pid = 0;
			snprintf(err, errlen, "cannot follow '%s': %s", argv[0], strerror(-rc));
			return rc;
		}
	}
	n = read(pfd[0], &child_errno, sizeof(child_errno));
	close(pfd[0]);
	if (n == sizeof(child_errno)) {
		waitpid(w->pid, NULL, 0);
		w->pid = 0;
		snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror(child_errno));
		return -child_errno;
	}
	return 0;
}

static int exit_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

const char *workload_wait(struct workload *w, double deadline)
{
	for (;;) {
		double left = deadline - monotonic_s();
		struct timespec ts;
		siginfo_t info;
		int sig, status;

		if (left <= 0)
			return NULL;
		left = isinf(left) ? 3600 : left;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		sig = sigtimedwait(&w->signals, &info, &ts);
		if (sig == SIGINT || sig == SIGTERM)
			return sig == SIGINT ? "SIGINT" : "SIGTERM";
		if (sig == SIGCHLD && w->pid > 0 && waitpid(w->pid, &status, WNOHANG) == w->pid) {
			w->exit_status = exit_status(status);
			w->pid = 0;
			return "command exited";
		}
	}
}

void workload_stop(struct workload *w)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int status, i;

	if (w->pid <= 0)
		return;
	kill(w->pid, SIGTERM);
	/* a command that ignores SIGTERM must not keep pftrace (and its programs) */
	for (i = 0; i < WORKLOAD_TERM_GRACE_MS / 10; i++) {
		if (waitpid(w->pid, &status, WNOHANG) == w->pid)
			goto reaped;
		nanosleep(&tick, NULL);
	}
	kill(w->pid, SIGKILL);
	if (waitpid(w->pid, &status, 0) != w->pid) {
		w->pid = 0;
		return;
	}
reaped:
	w->exit_status = exit_status(status);
	w->pid = 0;
}
