// SPDX-License-Identifier: GPL-2.0
/*
 * --sample N's slice length. A switch costs much the same CPU whatever
 * the slice around it: ftrace revisits every patchable function of the
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
	if (!(rate > 0) || !isfinite(rate) || !isfinite(switch_cpu_s))
		return max_s;
	want = DUTY_WALK_PER_SWITCH * fmax(switch_cpu_s, 0) / rate;
	if (!isfinite(want))
		return max_s;
	return fmin(fmax(want, min_s), max_s);
}
