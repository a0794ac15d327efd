// SPDX-License-Identifier: GPL-2.0
/*
 * --sample N's slices. A switch costs much the same CPU whatever the
 * slice around it: ftrace revisits every patchable function of the
 * kernel on each attach and detach, and patches text. Where walks are
 * cheap against that, as in a no-op make, short slices made --sample
 * cost more than tracing in full. So slices start short, which keeps a
 * short trace's sample spread over it, and lengthen as the measured
 * costs ask.
 */
#include <math.h>
#include "duty.h"

double duty_next_slice_s(double switch_cpu_s, double walk_cpu_s, double walked_s,
			 double min_s, double max_s)
{
	double rate = walked_s > 0 ? walk_cpu_s / walked_s : 0;   /* CPU-s per s attached */
	double want;

	/* a cost unknown is a cost too high to pay often */
	if (!isfinite(switch_cpu_s))
		return max_s;
	if (switch_cpu_s <= 0)
		return min_s;
	if (!(rate > 0) || !isfinite(rate))
		return max_s;
	want = DUTY_WALK_PER_SWITCH * switch_cpu_s / rate;
	if (!isfinite(want))
		return max_s;
	return fmin(fmax(want, min_s), max_s);
}

double duty_next_attach(double attach_began, double ended_s, double next_s,
			unsigned int one_in, double now)
{
	double period = next_s * one_in;
	double next = attach_began + ended_s + (one_in - 1) * fmax(ended_s, next_s);

	if (!(period > 0) || !isfinite(next))
		return now;
	while (next < now)
		next += period;
	return next;
}
