/* SPDX-License-Identifier: GPL-2.0 */
/* --sample N: how long an attached slice lasts when --slice does not say. */
#ifndef PFT_DUTY_H
#define PFT_DUTY_H

/*
 * A slice's walks must cost at least this many times the switch after
 * it (a detach and the next attach). The bound --sample N aims at is
 * 1.5/N of tracing in full: N slices' walking over 16, plus half a
 * slice's more, which one switch per period may take; twice the switch
 * keeps it there. The walking is measured as BPF run time, without the
 * trampoline's part, so the slices come out longer than the bound needs,
 * never shorter.
 */
#define DUTY_WALK_PER_SWITCH 2.0

/*
 * The next slice's length, in seconds: long enough that its walks, at
 * the rate measured so far (WALK_CPU_S of BPF run time over WALKED_S
 * attached), cost DUTY_WALK_PER_SWITCH times SWITCH_CPU_S, within
 * [MIN_S, MAX_S]. A workload that walked nothing gets MAX_S: switching
 * would cost more than all its walks.
 */
double duty_next_slice_s(double switch_cpu_s, double walk_cpu_s, double walked_s,
			 double min_s, double max_s);

#endif
