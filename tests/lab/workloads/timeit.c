// SPDX-License-Identifier: GPL-2.0
/*
 * timeit [-o FILE] COMMAND...: run COMMAND, then print (or write to
 * FILE) its elapsed CLOCK_MONOTONIC time in nanoseconds. busybox has no
 * clock finer than /proc/uptime's 10 ms; under QEMU -icount this clock
 * follows guest instructions, which makes benchmark runs repeatable.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	long long t0, t1;
	int status = 0, first = 1;
	pid_t pid;
	FILE *f;

	if (argc > 2 && !strcmp(argv[1], "-o")) {
		out = argv[2];
		first = 3;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: timeit [-o FILE] COMMAND...\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid == 0) {
		execvp(argv[first], &argv[first]);
		perror(argv[first]);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	t1 = now_ns();
	f = out ? fopen(out, "w") : stdout;
	if (!f) {
		perror(out);
		return 1;
	}
	fprintf(f, "%lld\n", t1 - t0);
	if (out)
		fclose(f);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
