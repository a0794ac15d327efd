// SPDX-License-Identifier: GPL-2.0
/*
 * A trace session, libbpf-tools shaped: prepare (the kernel's facts and
 * a plan for every target), attach (open, set read-only globals, load,
 * attach), wait (sleep, print an interval, repeat), stop (detach, and
 * the snapshots), collect the final counts, render. Nothing is attached
 * until every target has a plan, so one bad -f fails the start, not the
 * run. The other jobs live by name: target.c (a target's BPF object),
 * duty_cycle.c (--sample), startup.c, collect.c, interval.c, sampling.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "annotate.h"
#include "caps.h"
#include "collect.h"
#include "feature_probe.h"
#include "interval.h"
#include "ktext.h"
#include "output.h"
#include "progress.h"
#include "session.h"
#include "snapshot.h"
#include "target.h"

static double process_start_s;

void session_mark_process_start(void)
{
	process_start_s = monotonic_s();
}

static int plan_all(struct session *s, char *err, size_t errlen)
{
	const struct trace_opts *o = s->opts;
	const struct recipe *planned[PFT_MAX_TARGETS];
	int i, j, rc;

	for (i = 0; i < o->nfunctions; i++) {
		struct target *t = &s->targets[s->ntargets].t;

		rc = plan_target(t, o->functions[i], o, &s->kf, o->dry_run, err, errlen);
		if (rc)
			return rc;
		for (j = 0; j < s->ntargets; j++) {
			if (s->targets[j].t.recipe == t->recipe) {
				snprintf(err, errlen, "%s: traced already (as %s, by -f %s)",
					 o->functions[i], t->recipe->traced,
					 s->targets[j].t.requested);
				return -EEXIST;
			}
		}
		planned[s->ntargets++] = t->recipe;
	}
	/*
	 * The recipes' symbols and the traced functions' addresses, through
	 * BPF where the kernel can; every function (the sampler's trim,
	 * --latency's loop) is read after the run, when nothing is traced.
	 */
	if (load_recipe_ksyms(&s->kf, planned, s->ntargets, false)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

static void print_plan(const struct session *s, FILE *f, bool dry_run)
{
	int i;

	for (i = 0; i < s->ntargets; i++) {
		const struct target *t = &s->targets[i].t;

		if (t->plan_note[0])
			fprintf(f, "pftrace: %s\n", t->plan_note);
		if (dry_run || s->opts->common.verbose)
			fprintf(f, "pftrace: plan: %s -> %s via %s (recipe %s)\n", t->requested,
				t->recipe->traced, attach_method_name(t->method), t->recipe->name);
	}
}

/* What needs the system but no tracing: refused before anything loads. */
static int preflight(struct session *s, char *err, size_t errlen)
{
	const struct trace_opts *o = s->opts;
	char missing[128];

	if (!o->no_samples) {
		struct perf_event_attr attr;

		if (sample_event_parse(o->event, &attr, err, errlen) ||
		    sample_freq_check(o->sample_hz, err, errlen))
			return -EINVAL;
	}
	if (!caps_can_trace(missing, sizeof(missing))) {
		snprintf(err, errlen, "tracing needs CAP_BPF and CAP_PERFMON (or root); this "
			 "process lacks %s", missing);
		return -EPERM;
	}
	/* a wrong vmlinux is refused now, not after the run */
	if (o->vmlinux) {
		struct ktext *kt = ktext_open(KTEXT_VMLINUX, o->vmlinux, s->kf.ksyms, err, errlen);

		if (!kt)
			return -EINVAL;
		ktext_close(kt);
	}
	if (o->output_path && check_output_path(o->output_path, err, errlen))
		return -EINVAL;
	return filter_open(&s->filter, (pid_t)o->pid, o->cgroup, o->only_command, (enum pft_by)o->by,
			   err, errlen);
}

/* The kernel's facts and the plan: what --dry-run shows. 0 or exit 2. */
static int prepare(struct session *s)
{
	const struct trace_opts *o = s->opts;
	char err[PFT_ERRLEN];

	if (preflight(s, err, sizeof(err)) ||
	    kernel_facts_load(&s->kf, o->common.btf_path, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	startup_phase(&s->startup, "kernel BTF");
	if (plan_all(s, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	startup_phase(&s->startup, "plan and kallsyms");
	print_plan(s, stderr, o->dry_run);
	return 0;
}

/*
 * What every target shares: the per-CPU buffers, BPF run-time
 * accounting, --latency's unit and calibration, and the filter. 0, or
 * the exit status.
 */
static int attach_shared(struct session *s)
{
	const struct trace_opts *o = s->opts;
	char err[PFT_ERRLEN];
	int i;

	if (counts_reader_init(&s->counts, o->sample_every)) {
		fprintf(stderr, "pftrace: cannot size per-CPU buffers\n");
		return 1;
	}
	/*
	 * Run-time accounting costs two clock reads per program run, so it
	 * is switched on through a file descriptor that lives exactly as
	 * long as this session, never through the global sysctl.
	 */
	s->bpf_stats_fd = bpf_stats_open(s->stats_why, sizeof(s->stats_why));
	if (o->max_overhead_pct && s->bpf_stats_fd < 0) {
		fprintf(stderr, "pftrace: --max-overhead needs the kernel's BPF run-time "
			"statistics (%s)\n", s->stats_why);
		return 2;
	}
	duty_cycle_init(&s->duty, o, s->bpf_stats_fd >= 0);
	if (o->latency) {
		lat_session_start(&s->lat, s->counts.ncpus, -1);
		lat_calibrate(&s->lat, s->kf.btf_custom ? s->kf.btf_load_path : NULL);
		startup_phase(&s->startup, "latency calibration");
		for (i = 0; i < s->ntargets; i++)
			s->targets[i].t.lat = &s->lat;
	}
	if (filter_start(&s->filter, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	for (i = 0; i < s->ntargets; i++)
		s->targets[i].t.filter = &s->filter;
	if (o->only_command) {
		s->run.admit = filter_admit;
		s->run.admit_arg = &s->filter;
	}
	return 0;
}

/*
 * Sampling beside the walks, on the traced functions' code, set up
 * paused and resumed once attached. A failure turns sampling off, with
 * a reason, never the trace.
 */
static void start_sampling(struct session *s)
{
	const char *names[PFT_MAX_TARGETS];
	int i;

	for (i = 0; i < s->ntargets; i++)
		names[i] = s->targets[i].t.recipe->traced;
	s->sampler = sampler_start_traced(s->opts->event, (int)s->opts->sample_hz, s->kf.ksyms,
					  names, s->ntargets, s->sampling_off,
					  sizeof(s->sampling_off));
	startup_phase(&s->startup, "sampler (perf events, BPF, kernel functions)");
}

/* Open every target, then load and attach each: 0, or the exit status. */
static int attach_targets(struct session *s)
{
	char err[PFT_ERRLEN];
	int i, rc;

	for (i = 0; i < s->ntargets; i++) {
		rc = target_open(&s->targets[i].t, &s->kf, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "pftrace: %s\n", err);
			return rc;
		}
		startup_target_open(&s->startup, &s->targets[i].t);
	}
	/* what needed the BTF is done: libbpf parses its own copy to load */
	kernel_facts_drop_btf(&s->kf);
	for (i = 0; i < s->ntargets; i++) {
		rc = target_start(&s->targets[i].t, &s->kf, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "pftrace: %s\n", err);
			return rc;
		}
		startup_target_start(&s->startup, &s->targets[i].t);
	}
	return 0;
}

/*
 * Load and attach every target, with the sampler and the command. 0, or
 * the exit status; whatever started is undone by session_free().
 */
static int attach(struct session *s)
{
	const struct trace_opts *o = s->opts;
	char err[PFT_ERRLEN];
	int rc;

	/* from here a Ctrl-C, attach included, ends in the same orderly stop */
	workload_init(&s->run);
	rc = attach_shared(s);
	if (rc)
		return rc;
	/*
	 * The sampler starts before the walks are traced: its own work
	 * (kallsyms, perf_event_open, a BPF load) calls into SELinux and the
	 * VFS, and pftrace must not count its own lookups.
	 */
	if (!o->no_samples)
		start_sampling(s);
	rc = attach_targets(s);
	if (rc)
		return rc;
	s->startup_ms = (monotonic_s() - process_start_s) * 1000;
	if (o->command && workload_start(&s->run, o->command, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	/* after the command's exec, whose own lookups are no workload's */
	sampler_resume(s->sampler);
	return 0;
}

/* BPF run time of every target's programs so far (0 without BPF_ENABLE_STATS) */
static __u64 run_time_ns(const struct session *s)
{
	__u64 total = 0;
	int i;

	for (i = 0; i < s->ntargets; i++)
		total += target_run_time_ns(&s->targets[i].t);
	return total;
}

/*
 * --max-overhead: the share of one CPU over the last second, not the
 * run's average, so that a burst cannot hide behind a quiet start.
 */
static bool over_overhead_cap(struct session *s, double now)
{
	__u64 ns = run_time_ns(s);
	double pct = 100.0 * (double)(ns - s->cap_window_ns) / ((now - s->cap_window_start) * 1e9);

	if (pct > s->opts->max_overhead_pct) {
		fprintf(stderr, "pftrace: overhead %.2f%% of one CPU passed --max-overhead "
			"%g%%; stopped after %.1f s\n", pct, s->opts->max_overhead_pct, now - s->start);
		return true;
	}
	s->cap_window_ns = ns;
	s->cap_window_start = now;
	return false;
}

/* this process's CPU time so far, user and system */
static double self_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* The run's clock starts: wall time, monotonic time, pftrace's own CPU. */
static void start_clock(struct session *s)
{
	s->wall_start = time(NULL);
	s->start = monotonic_s();
	s->cpu_s = -self_cpu_s();
}

/* When each of the run's periodic jobs is next due (INFINITY: never). */
struct due {
	double deadline;      /* -d */
	double tick;          /* -i */
	double status;        /* a terminal's line, once a second */
	double duty;          /* --sample's next slice edge */
	double cap_check;     /* --max-overhead, once a second */
	double module_check;  /* a traced module still there, once a second */
};

/* The first of each; false when --sample's first slice could not begin. */
static bool start_due(struct session *s, struct due *d)
{
	const struct trace_opts *o = s->opts;
	int i;

	d->deadline = o->duration_s ? s->start + o->duration_s : INFINITY;
	d->tick = o->interval_s ? s->start + o->interval_s : INFINITY;
	/* a terminal sees the time left (or traced) once a second */
	d->status = progress_on() ? s->start : INFINITY;
	for (i = 0; i < s->ntargets; i++)
		duty_cycle_add(&s->duty, &s->targets[i].t);
	if (!duty_cycle_begin(&s->duty, &s->kf, &d->duty))
		return false;
	d->cap_check = INFINITY;
	d->module_check = INFINITY;
	for (i = 0; i < s->ntargets; i++)
		if (s->targets[i].t.recipe->module)
			d->module_check = s->start + 1;
	if (o->max_overhead_pct) {
		d->cap_check = s->start + 1;
		s->cap_window_start = s->start;
		s->cap_window_ns = run_time_ns(s);
	}
	return true;
}

static void show_status(const struct session *s, const struct due *d, double now)
{
	const char *plural = s->ntargets == 1 ? "" : "s";

	if (isinf(d->deadline))
		progress("tracing %d function%s: %.0f s (Ctrl-C ends)", s->ntargets, plural,
			 now - s->start);
	else
		progress("tracing %d function%s: %.0f s left", s->ntargets, plural,
			 ceil(d->deadline - now));
}

/*
 * A traced module removed: kprobes let it go (fexit programs pin it), and
 * then nothing is left to trace. The run ends there and keeps its counts.
 */
static const char *module_gone(struct session *s)
{
	int i;

	for (i = 0; i < s->ntargets; i++) {
		const char *m = s->targets[i].t.recipe->module;

		if (m && !kernel_module_live(m)) {
			snprintf(s->end_why, sizeof(s->end_why), "module %s removed", m);
			fprintf(stderr, "pftrace: module %s was removed: nothing left to trace; "
				"ending the run\n", m);
			return s->end_why;
		}
	}
	return NULL;
}

/*
 * The job due at NOW, if one is: true when one ran; *END says why the
 * run ends there, NULL when it goes on.
 */
static bool run_due(struct session *s, struct due *d, double now, const char **end)
{
	const struct trace_opts *o = s->opts;

	*end = NULL;
	if (now >= d->deadline) {
		*end = "duration";
	} else if (now >= d->status) {
		show_status(s, d, now);
		d->status += 1;
		return true;
	} else if (now >= d->tick) {
		progress_done();
		print_interval(s, o->interval_s);
		if (o->output_path && output_is_prometheus(o->output_path))
			write_interval_metrics(s);
		d->tick += o->interval_s;
		return true;
	} else if (now >= d->duty) {
		if (!duty_cycle_switch(&s->duty, &d->duty))
			*end = "attach failed";
	} else if (now >= d->cap_check) {
		if (over_overhead_cap(s, now)) {
			*end = "overhead cap";
			return true;
		}
		d->cap_check = now + 1;
	} else if (now >= d->module_check) {
		*end = module_gone(s);
		d->module_check = now + 1;
	} else {
		return false;
	}
	if (*end)
		progress_done();
	return true;
}

/* Until -d, a signal, the command's end or the overhead cap; -i reports meanwhile. */
static void wait_for_end(struct session *s)
{
	const char *end;
	struct due d;

	if (!s->opts->command && s->opts->common.format == FORMAT_TEXT)
		fprintf(stderr, "Tracing %d function%s... Hit Ctrl-C to end.\n", s->ntargets,
			s->ntargets == 1 ? "" : "s");
	start_clock(s);
	if (!start_due(s, &d)) {
		s->end_reason = "attach failed";
		return;
	}
	for (;;) {
		if (run_due(s, &d, monotonic_s(), &end)) {
			if (!end)
				continue;
			s->end_reason = end;
			return;
		}
		end = workload_wait(&s->run, fmin(fmin(fmin(fmin(fmin(d.deadline, d.tick),
								   d.cap_check), d.status), d.duty),
						  d.module_check));
		if (end) {
			s->end_reason = end;
			progress_done();
			return;
		}
	}
}

/*
 * The whole table, after the walks were detached, and the lookups the
 * trace counted by key. A snapshot that fails leaves the run intact and
 * says why, in the report and on stderr.
 */
static void take_snapshot(struct session *s, struct session_target *st)
{
	struct target *t = &st->t;
	char *err = st->snap_err;

	if (snapshot_take(t, &st->snap, err, PFT_ERRLEN)) {
		fprintf(stderr, "pftrace: %s\n", err);
		return;
	}
	if (!s->opts->snapshot_only &&
	    snapshot_read_counts(t, &st->snap, s->counts.ncpus, err, PFT_ERRLEN)) {
		snprintf(err, PFT_ERRLEN, "%s: cannot read the key counts", t->recipe->traced);
		fprintf(stderr, "pftrace: %s\n", err);
		table_snapshot_free(&st->snap);
	}
}

/*
 * Detach first: the counts read afterwards are final and consistent.
 * Snapshots come before the command is stopped, so that they find the
 * table as the traced lookups left it (a stopped command's sockets,
 * files and mounts would be gone).
 */
static void stop(struct session *s)
{
	/* the run ended inside a slice: it ends with the run, before the detach */
	bool in_slice = duty_cycle_end(&s->duty);
	int i;

	s->end = monotonic_s();
	interval_metrics_end(s);
	if (in_slice)
		duty_cycle_detach(&s->duty);
	for (i = 0; i < s->ntargets; i++)
		target_detach(&s->targets[i].t);
	if (s->opts->snapshot)
		for (i = 0; i < s->ntargets; i++)
			take_snapshot(s, &s->targets[i]);
	s->cpu_s += self_cpu_s();
	collect_samples(s);
	workload_stop(&s->run);
}

/* stdout and -o; the exit status: 0, 1 (a write failed) or 3 (self-check) */
static int render(const struct session *s, const struct run_report *rep)
{
	const struct trace_opts *o = s->opts;
	char err[PFT_ERRLEN];

	if (o->output_path && output_is_stdout(o->output_path)) {
		/* -o -: stdout carries the run file, and only that */
	} else if (o->interval_s && o->common.format == FORMAT_JSON) {
		struct json_object *root = render_json(rep);

		json_print_line(root, stdout);
		json_object_put(root);
	} else {
		report_print(rep, o->common.format);
	}
	if (o->output_path && report_write_file(rep, o->output_path, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 1;
	}
	return report_self_check_ok(rep) ? 0 : 3;
}

static struct session *session_new(const struct trace_opts *o)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->opts = o;
	s->bpf_stats_fd = -1;
	s->filter.tgids_fd = s->filter.cgroup_fd = -1;
	s->end_reason = "interrupted";
	startup_init(&s->startup, o->common.verbose, process_start_s);
	return s;
}

static void session_free(struct session *s)
{
	int i;

	workload_stop(&s->run);
	for (i = 0; i < s->ntargets; i++)
		target_free(&s->targets[i].t);
	counts_reader_free(&s->counts);
	sampler_free(s->sampler);
	sample_result_free(&s->samples);
	for (i = 0; i < s->ntargets; i++) {
		profile_free(&s->targets[i].profile);
		table_snapshot_free(&s->targets[i].snap);
		free(s->targets[i].by.rows);
	}
	lat_session_free(&s->lat);
	filter_close(&s->filter);
	if (s->bpf_stats_fd >= 0)
		close(s->bpf_stats_fd);
	kernel_facts_free(&s->kf);
	free(s);
}

/*
 * A trace session: prepare (facts, plan) -> attach -> wait -> stop
 * (detach) -> collect -> render. Every exit goes through session_free(),
 * which undoes whatever started.
 */
int run_trace(const struct trace_opts *o)
{
	struct session *s = session_new(o);
	struct run_report *rep = calloc(1, sizeof(*rep));
	int rc;

	if (!s || !rep) {
		fprintf(stderr, "pftrace: out of memory\n");
		free(s);
		free(rep);
		return 1;
	}
	setup_libbpf_logging(o->common.verbose);

	rc = prepare(s);
	if (!rc && !o->dry_run)
		rc = attach(s);
	if (!rc && !o->dry_run) {
		if (!o->snapshot_only)
			wait_for_end(s);
		else {
			start_clock(s);
			s->end_reason = "snapshot only";
		}
		stop(s);
		collect(s, rep);
		rc = render(s, rep);
	}
	free(rep);
	session_free(s);
	return rc;
}
