// SPDX-License-Identifier: GPL-2.0
/*
 * --sample N's slices. Where inside an attach or a detach the programs
 * go live or quiet differs by kernel (in the lab 6.12 quiets them as a
 * detach begins, 6.1 near its end), and a detach returns only after an
 * RCU-tasks grace period (ftrace's unregister: 50-400 ms in the lab),
 * one target after another. So the programs walk only while
 * walk_pause lets them: from the resume once every target is attached
 * to the pause before the first detach, and never past the slice's end,
 * which the programs read on the monotonic clock themselves. A pftrace
 * stopped inside a slice (SIGSTOP, a debugger, a starved CPU) pauses
 * them seconds late; the programs have stopped walking at the slice's
 * end meanwhile. The time attached is the time between, exactly, and the
 * counts scaled by the run's duration over it are estimates of the
 * whole run's. A target waiting for its detach meanwhile costs only its
 * trampoline.
 *
 * fexit targets only: a kretprobe registered afresh for every slice
 * missed most returns in the lab, so kprobe targets stay attached, and
 * their plan says so.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "duty.h"
#include "duty_cycle.h"
#include "target.h"
#include "trace_opts.h"
#include "workload.h"

void duty_cycle_init(struct duty_cycle *d, const struct trace_opts *o, bool run_time_known)
{
	memset(d, 0, sizeof(*d));
	d->one_in = o->duty_one_in;
	d->first_slice_s = o->slice_s;
	d->slice_set = o->slice_set;
	d->run_time_known = run_time_known;
}

static bool cycling(const struct duty_cycle *d)
{
	return d->one_in > 1;
}

void duty_cycle_add(struct duty_cycle *d, struct target *t)
{
	if (!cycling(d))
		return;
	if (target_cycled(t))
		d->cycled[d->ncycled++] = t;
	else
		fprintf(stderr, "pftrace: --sample: %s is traced by kprobes, which stay attached "
			"(a kretprobe attached afresh each slice misses returns); its counts are "
			"whole\n", t->recipe->traced);
}

/* this thread's CPU: attach and detach run their kernel work on it */
static double thread_cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* BPF run time of the cycled targets' programs so far (0 without BPF_ENABLE_STATS) */
static __u64 cycled_run_time_ns(const struct duty_cycle *d)
{
	__u64 total = 0;
	int i;

	for (i = 0; i < d->ncycled; i++)
		total += target_run_time_ns(d->cycled[i]);
	return total;
}

/*
 * The slices' length follows the measured costs, unless --slice fixes
 * it, BPF run time is not measured (BPF_ENABLE_STATS refused: no walking
 * cost to set against the switch), or the programs stay attached, where
 * a switch is a pause and costs nothing.
 */
static bool slice_chosen(const struct duty_cycle *d)
{
	return !d->slice_set && d->run_time_known && !d->stays_attached;
}

/*
 * Pause the walks of every cycled target (UNTIL_NS PFT_WALK_PAUSED), or
 * resume them until UNTIL_NS: a store each, or a write to an array map
 * that does not fail but for a broken object. False when one failed: a
 * resume that did not happen must not count as walking time, so the run
 * ends there (a failed pause is followed by the detach, which stops the
 * walks as well, and the slice's end has stopped them already).
 */
static bool walk_cycled_until(struct duty_cycle *d, __u64 until_ns)
{
	bool pausing = until_ns == PFT_WALK_PAUSED;
	bool ok = true;
	int i, rc;

	for (i = 0; i < d->ncycled; i++) {
		rc = target_walk_until(d->cycled[i], until_ns);
		if (rc) {
			fprintf(stderr, "pftrace: --sample: cannot %s %s's walks: %s\n",
				pausing ? "pause" : "resume", d->cycled[i]->recipe->traced,
				strerror(-rc));
			ok = false;
		}
	}
	return ok;
}

/*
 * The walks resume: a slice's walking time and cost start here, and its
 * end is set where the programs read it (at least 1 ns on: an end of 0
 * or PFT_WALK_PAUSED would say something else).
 */
static bool resume(struct duty_cycle *d)
{
	__u64 now_ns = monotonic_ns();
	__u64 slice_ns = (__u64)fmax(d->slice_s * 1e9, 1);

	if (!walk_cycled_until(d, now_ns + slice_ns))
		return false;
	d->on_since = now_ns / 1e9;
	d->walks_until = d->on_since + slice_ns / 1e9;
	d->run_ns_at_resume = cycled_run_time_ns(d);
	d->attached = true;
	d->slices++;
	return true;
}

bool duty_cycle_begin(struct duty_cycle *d, const struct kernel_facts *kf, double *next)
{
	*next = INFINITY;
	if (!cycling(d))
		return true;
	d->stays_attached = d->ncycled && !kernel_reattaches_fexit(kf);
	if (d->stays_attached)
		fprintf(stderr, "pftrace: --sample: kernel %s cannot attach a detached fexit "
			"program again (before 5.19): the programs stay attached, their walks "
			"paused between slices, and every call still pays the trampoline\n",
			kf->release);
	/* with nothing to cycle, no slices to keep time for */
	if (!d->ncycled)
		return true;
	/* everything is attached, paused: the first slice starts here */
	d->slice_s = d->first_slice_s;
	if (!resume(d))
		return false;
	d->attach_began = d->on_since;
	*next = d->on_since + d->slice_s;
	return true;
}

/* the current slice's walking time up to NOW: never past its end */
static double slice_walked_s(const struct duty_cycle *d, double now)
{
	return fmax(fmin(now, d->walks_until) - d->on_since, 0);
}

/* attached so far, up to NOW */
static double attached_s(const struct duty_cycle *d, double now)
{
	return d->attached_s + (d->attached ? slice_walked_s(d, now) : 0);
}

/*
 * The slice ends: the walks pause, if the slice's end has not paused
 * them already, and the time attached and their cost stop here.
 */
static void slice_end(struct duty_cycle *d)
{
	__u64 run_ns;

	walk_cycled_until(d, PFT_WALK_PAUSED);
	d->attached_s += slice_walked_s(d, monotonic_s());
	run_ns = cycled_run_time_ns(d);
	/* a program whose figures could not be read leaves the sum lower */
	if (run_ns > d->run_ns_at_resume)
		d->walk_cpu_s += (double)(run_ns - d->run_ns_at_resume) / 1e9;
	d->attached = false;
}

void duty_cycle_detach(struct duty_cycle *d)
{
	double t0 = monotonic_s(), cpu0 = thread_cpu_s(), took;
	int i;

	if (d->stays_attached)
		return;
	for (i = 0; i < d->ncycled; i++)
		target_detach(d->cycled[i]);
	took = monotonic_s() - t0;
	d->detach_cpu_s += thread_cpu_s() - cpu0;
	d->detaching_s += took;
	d->detaches++;
}

/* pftrace's CPU for one switch, a detach and an attach, the means so far;
 * before any re-attach the detach stands for both */
static double switch_cpu_s(const struct duty_cycle *d)
{
	double detach = d->detaches ? d->detach_cpu_s / d->detaches : 0;
	double attach = d->attaches ? d->attach_cpu_s / d->attaches : detach;

	return detach + attach;
}

/* Attach the cycled targets again, timed; false when one failed. */
static bool reattach(struct duty_cycle *d)
{
	double t0 = monotonic_s(), cpu0 = thread_cpu_s();
	char err[PFT_ERRLEN];
	int i;

	if (d->stays_attached)
		return true;
	for (i = 0; i < d->ncycled; i++) {
		if (target_attach(d->cycled[i], err, sizeof(err))) {
			fprintf(stderr, "pftrace: --sample: %s; stopped\n", err);
			return false;
		}
	}
	d->attach_cpu_s += thread_cpu_s() - cpu0;
	d->attaching_s += monotonic_s() - t0;
	d->attaches++;
	return true;
}

bool duty_cycle_switch(struct duty_cycle *d, double *next)
{
	double ended;

	if (d->attached) {
		slice_end(d);
		duty_cycle_detach(d);
		ended = d->slice_s;
		/* the slice the costs measured so far ask for (model/duty.h) */
		if (slice_chosen(d))
			d->slice_s = duty_next_slice_s(switch_cpu_s(d), d->walk_cpu_s, d->attached_s,
						       d->first_slice_s,
						       DUTY_MAX_CHOSEN_SLICE_MS / 1000.0);
		*next = duty_next_attach(d->attach_began, ended, d->slice_s, d->one_in,
					 monotonic_s());
		return true;
	}
	d->attach_began = monotonic_s();
	if (!reattach(d) || !resume(d))
		return false;
	/* a slice is of walking time: it starts once every target is attached */
	*next = d->on_since + d->slice_s;
	return true;
}

bool duty_cycle_end(struct duty_cycle *d)
{
	if (!cycling(d) || !d->attached)
		return false;
	slice_end(d);
	return true;
}

/* What the reports say of the duty cycle over SPAN_S, ATTACHED of it attached. */
static void summarize(const struct duty_cycle *d, double span_s, double attached,
		      bool whole_run, struct duty_summary *out)
{
	memset(out, 0, sizeof(*out));
	if (!cycling(d))
		return;
	out->one_in = d->one_in;
	out->slice_chosen = slice_chosen(d);
	out->stays_attached = d->stays_attached;
	out->slice_ms = 1000 * d->slice_s;   /* in force at the end: --slice's, or the last chosen */
	out->slices = d->slices;
	out->switching_s = d->attaching_s + d->detaching_s;
	out->attach_ms = d->attaches ? 1000 * d->attaching_s / d->attaches : 0;
	out->detach_ms = d->detaches ? 1000 * d->detaching_s / d->detaches : 0;
	out->switch_cpu_ms = 1000 * switch_cpu_s(d);
	/*
	 * A run that ended within microseconds of its start: call it one
	 * slice. An -i interval between slices walked nothing, and says so.
	 */
	out->attached_s = attached > 1e-6 || !whole_run ? fmax(attached, 0) :
			  fmin(span_s, d->first_slice_s);
	/* the walks' cost at the rate of the slices ended so far: the whole
	 * run's for the run, an -i interval's share for the interval */
	out->walk_cpu_s = d->attached_s > 1e-6 ? d->walk_cpu_s / d->attached_s * out->attached_s : 0;
	out->scale = out->attached_s > 0 && span_s > 0 ? span_s / out->attached_s : 1;
	if (out->scale < 1)
		out->scale = 1;
}

void duty_cycle_summarize(const struct duty_cycle *d, double span_s, double now,
			  struct duty_summary *out)
{
	summarize(d, span_s, attached_s(d, now), true, out);
}

void duty_cycle_interval(struct duty_cycle *d, double span_s, double now,
			 struct duty_summary *out)
{
	double attached = attached_s(d, now);

	summarize(d, span_s, attached - d->attached_at_tick, false, out);
	d->attached_at_tick = attached;
}
