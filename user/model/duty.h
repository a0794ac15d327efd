/* SPDX-License-Identifier: GPL-2.0 */
/* --sample N: how long an attached slice lasts, and when the next one starts. */
#ifndef PFT_DUTY_H
#define PFT_DUTY_H

/*
 * A slice's walks must cost at least this many times the switch after
 * it (a detach and the next attach). The bound --sample N aims at is
 * 1.5/N of tracing in full: 1/N for the walking, and half a slice's
 * walking more for the one switch of each period; twice the switch
 * keeps it within that half. The walking is measured as BPF run time,
 * without the trampoline's part, and the switch as pftrace's own CPU,
 * without what it makes other CPUs do (IPIs, RCU-tasks kthreads): the
 * two errors pull opposite ways, and in the lab the first won (slices
 * came out longer than the bound needed).
 */
#define DUTY_WALK_PER_SWITCH 2.0
/* the longest slice pftrace chooses: a minute at --sample 16 holds four */
#define DUTY_MAX_CHOSEN_SLICE_MS 1000

/*
 * The next slice's length, in seconds: long enough that its walks, at
 * the rate measured so far (WALK_CPU_S of BPF run time over WALKED_S
 * attached), cost DUTY_WALK_PER_SWITCH times SWITCH_CPU_S, within
 * [MIN_S, MAX_S]. A switch that costs nothing gets MIN_S; a workload
 * that walked nothing, or costs not known, get MAX_S: switching would
 * cost more than the walks.
 */
double duty_next_slice_s(double switch_cpu_s, double walk_cpu_s, double walked_s,
			 double min_s, double max_s);

/*
 * When the next slice's attach begins: a slice of ENDED_S whose attach
 * began at ATTACH_BEGAN, then N - 1 of the longer of it and the next
 * slice (NEXT_S). Fixed slices make periods of N slices from attach to
 * attach, the attach inside its period; the longer of the two keeps
 * one in N both as slices lengthen and as they shorten. A stalled
 * pftrace (NOW past that) skips whole periods rather than crowd slices.
 */
double duty_next_attach(double attach_began, double ended_s, double next_s,
			unsigned int one_in, double now);

#endif
