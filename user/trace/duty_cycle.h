/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --sample N: the fexit targets attached for one slice of time in N
 * (model/duty.h says how long, and when the next), so that the whole
 * cost, the trampoline's included, falls to about 1/N.
 */
#ifndef PFT_DUTY_CYCLE_H
#define PFT_DUTY_CYCLE_H

#include <stdbool.h>
#include <linux/types.h>
#include "report.h"
#include "targets.h"

struct duty_cycle {
	unsigned int one_in;            /* --sample N; 0 or 1: off */
	double first_slice_s;           /* --slice, or the first slice when pftrace chooses */
	bool slice_set;                 /* --slice given */
	bool run_time_known;            /* BPF_ENABLE_STATS: the walks' cost is measured */
	bool stays_attached;            /* the kernel cannot re-attach: pauses only */
	struct target *cycled[PFT_MAX_TARGETS];
	int ncycled;
	bool attached;
	double attach_began;            /* the current or last slice's attach began */
	double on_since;                /* the walks of the current slice began */
	double walks_until;             /* and end, at the latest (walk_pause) */
	double attached_s;              /* walking in all, the current slice left out */
	double attached_at_tick;        /* attached_s as of the last -i report */
	double attaching_s, detaching_s; /* inside attach and detach calls */
	unsigned int attaches, detaches;
	unsigned int slices;
	double slice_s;                 /* the slice walked, or the next: --slice or chosen */
	double attach_cpu_s, detach_cpu_s; /* pftrace's CPU inside them */
	double walk_cpu_s;              /* the cycled programs' BPF run time while walking */
	__u64 run_ns_at_resume;
};

/* Off, or --sample N as O asks; RUN_TIME_KNOWN: BPF run time is measured. */
void duty_cycle_init(struct duty_cycle *d, const struct trace_opts *o, bool run_time_known);
/* T takes part: cycled if it is an fexit target, else said to stay attached. */
void duty_cycle_add(struct duty_cycle *d, struct target *t);
/*
 * The first slice, once every target is attached (the cycled ones
 * paused). *NEXT: when the slice ends (INFINITY: nothing to cycle).
 * False when the walks could not resume: the run ends.
 */
bool duty_cycle_begin(struct duty_cycle *d, const struct kernel_facts *kf, double *next);
/* The next slice's edge, at *NEXT: a slice ends, or one begins. False: a re-attach failed. */
bool duty_cycle_switch(struct duty_cycle *d, double *next);
/* The run ends: true when it ended inside a slice, which ends with it (before the detach). */
bool duty_cycle_end(struct duty_cycle *d);
/* And the cycled targets detach, timed as every switch's detach. */
void duty_cycle_detach(struct duty_cycle *d);
/* What the reports say of the duty cycle over SPAN_S: the whole run's. */
void duty_cycle_summarize(const struct duty_cycle *d, double span_s, double now,
			  struct duty_summary *out);
/* An -i interval's share of it, over the SPAN_S since the last. */
void duty_cycle_interval(struct duty_cycle *d, double span_s, double now,
			 struct duty_summary *out);

#endif
