// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

static int state = -1;        /* -1: not decided, 0: off, 1: on */
static bool shown;
static double last;

void progress_quiet(void)
{
	state = 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool progress_on(void)
{
	if (state < 0)
		state = isatty(STDOUT_FILENO) && isatty(STDERR_FILENO);
	return state;
}

void progress(const char *fmt, ...)
{
	char line[160];
	va_list ap;
	double t;

	if (!progress_on())
		return;
	t = now_s();
	if (shown && t - last < 0.1)
		return;
	last = t;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* carriage return, the text, and clear what a longer line left */
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
	shown = true;
}

void progress_done(void)
{
	if (!shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	shown = false;
}
