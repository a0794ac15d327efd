// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "annotate.h"
#include "collect.h"
#include "cpu.h"
#include "ktext.h"
#include "target.h"

int counts_reader_init(struct counts_reader *c, unsigned int sample_every)
{
	c->ncpus = libbpf_num_possible_cpus();
	c->sample_every = sample_every;
	c->percpu_buf = c->ncpus > 0 ? calloc((size_t)c->ncpus, sizeof(struct chain_counters)) :
			NULL;
	c->agreed_buf = c->ncpus > 0 ? calloc((size_t)c->ncpus * PFT_AGREED_SLOTS,
					      sizeof(*c->agreed_buf)) : NULL;
	return c->percpu_buf && c->agreed_buf ? 0 : -ENOMEM;
}

void counts_reader_free(struct counts_reader *c)
{
	free(c->percpu_buf);
	free(c->agreed_buf);
	c->percpu_buf = NULL;
	c->agreed_buf = NULL;
}

/*
 * The target's agreed_walks, every key's per-CPU values in turn, into
 * c->agreed_buf: one batch lookup (5.6+), or key by key where the
 * kernel refuses that.
 */
static int read_agreed(const struct counts_reader *c, const struct target *t)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 keys[PFT_AGREED_SLOTS], next = 0, count = PFT_AGREED_SLOTS, k;
	int fd = bpf_map__fd(t->bpf.agreed_walks);

	if (fd < 0)
		return -ENOENT;
	if ((!bpf_map_lookup_batch(fd, NULL, &next, keys, c->agreed_buf, &count, &opts) ||
	     errno == ENOENT) && count == PFT_AGREED_SLOTS) {
		/* an array's keys come in order: check it, rather than trust it */
		for (k = 0; k < count && keys[k] == k; k++)
			;
		if (k == count)
			return 0;
	}
	for (k = 0; k < PFT_AGREED_SLOTS; k++)
		if (bpf_map_lookup_elem(fd, &k, c->agreed_buf + (size_t)k * c->ncpus))
			return -errno;
	return 0;
}

int counts_read(const struct counts_reader *c, const struct target *t, struct chain_stats *out)
{
	struct chain_counters counters;
	int fd = bpf_map__fd(t->bpf.chain_counters), err;
	__u32 zero = 0;

	memset(out, 0, sizeof(*out));
	if (fd < 0 || bpf_map_lookup_elem(fd, &zero, c->percpu_buf))
		return -errno;
	chain_counters_sum(&counters, c->percpu_buf, c->ncpus, sizeof(struct chain_counters));
	err = read_agreed(c, t);
	if (err)
		return err;
	chain_counters_add_agreed(&counters, c->agreed_buf, c->ncpus);
	chain_stats_from_counters(out, &counters, c->sample_every);
	return 0;
}

void fill_target_report(struct target_report *tr, const struct target *t,
			const struct chain_stats *stats, const struct duty_summary *duty)
{
	memset(tr, 0, sizeof(*tr));
	tr->requested = t->requested;
	tr->traced = t->recipe->traced;
	tr->recipe = t->recipe->name;
	tr->table = t->recipe->table;
	tr->method = attach_method_name(t->method);
	tr->loads = t->direct_loads ? "direct" : "probe";
	tr->adds = t->plain_adds ? "plain" : "atomic";
	tr->plan_note = t->plan_note;
	tr->detail = t->detail;
	tr->sample_every = t->opts->sample_every;
	if (target_cycled(t))
		tr->duty = *duty;
	tr->iterator = t->recipe->iterator;
	tr->chain_end = t->recipe->chain_end;
	tr->table_slots = target_table_slots(t);
	tr->stats = *stats;
	if (t->recipe->counts)
		tr->nrecipe_counts = t->recipe->counts(t, tr->recipe_counts);
	report_finish_target(tr);
}

void fill_overhead(struct target_report *tr, const struct session *s, const struct target *t)
{
	tr->overhead_known = s->bpf_stats_fd >= 0;
	if (tr->overhead_known)
		target_overhead(t, &tr->run_time_ns, &tr->runs, &tr->recursion_misses);
}

void set_machine(struct run_report *r)
{
	static struct utsname u;
	static char model[160];
	struct cpu_id id;

	uname(&u);
	cpu_id_read(&id);
	cpu_id_describe(&id, model, sizeof(model));
	r->hostname = u.nodename;
	r->arch = u.machine;
	r->cpu_model = model;
	r->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

/* Every kernel function, from the one full read of kallsyms: after the run, when nothing is traced. */
static void read_funcs(struct session *s)
{
	if (!s->funcs && (s->nfuncs = ksyms_funcs(s->kf.ksyms, &s->funcs)) < 0)
		s->nfuncs = 0;
}

void collect_samples(struct session *s)
{
	const struct kfunc *fns[PFT_MAX_TARGETS];
	char err[PFT_ERRLEN];
	struct ktext *kt;
	int i;

	if (!s->sampler)
		return;
	sampler_finish(s->sampler, &s->samples);
	sampler_free(s->sampler);
	s->sampler = NULL;
	s->sampled = true;
	read_funcs(s);
	for (i = 0; i < s->ntargets; i++)
		fns[i] = s->targets[i].fn = kfunc_named(s->funcs, s->nfuncs,
							s->targets[i].t.recipe->traced);
	sample_result_trim(&s->samples, fns, s->ntargets);
	kt = ktext_open(KTEXT_AUTO, s->opts->vmlinux, s->kf.ksyms, err, sizeof(err));
	for (i = 0; i < s->ntargets; i++) {
		struct session_target *st = &s->targets[i];

		if (!st->fn)
			snprintf(st->profile.error, sizeof(st->profile.error),
				 "%s not in /proc/kallsyms", st->t.recipe->traced);
		else if (!kt)
			snprintf(st->profile.error, sizeof(st->profile.error), "%s", err);
		else
			profile_function(st->fn, kt, &s->samples, &st->profile);
	}
	ktext_close(kt);
}

/* The walk loop of the traced function's code: its instructions per node. */
static void find_loop(struct session *s, struct session_target *st)
{
	const struct kfunc *f;
	struct ktext *kt;
	char err[PFT_ERRLEN];
	int rc;

	read_funcs(s);
	f = kfunc_named(s->funcs, s->nfuncs, st->t.recipe->traced);
	kt = f ? ktext_open(KTEXT_AUTO, s->opts->vmlinux, s->kf.ksyms, err, sizeof(err)) : NULL;
	if (!f)
		snprintf(st->loop_why, PFT_ERRLEN, "%s not in /proc/kallsyms", st->t.recipe->traced);
	else if (!kt)
		snprintf(st->loop_why, PFT_ERRLEN, "%s", err);
	else if ((rc = walk_loop_of(f, kt, &st->loop)))
		snprintf(st->loop_why, PFT_ERRLEN, "%s", rc == -ENOENT ?
			 "no loop that chases a pointer in its code" : "its code is unreadable");
	ktext_close(kt);
}

/*
 * --latency: the counts, and the walk loop of the traced function's
 * code (its instructions per node), which under QEMU -icount is what
 * the cost per node must come to.
 */
static void collect_latency(struct session *s, struct session_target *st,
			    struct target_report *tr)
{
	const struct target *t = &st->t;

	if (lat_read(t, &s->lat, &st->lat))
		return;
	if (t->method != ATTACH_FEXIT)
		st->lat.overhead_known = false;
	tr->latency = &st->lat;
	tr->latency_unit_why = s->lat.unit_why;
	tr->latency_overhead_why = t->method == ATTACH_FEXIT ? s->lat.overhead_why :
				   "not calibrated: the calibration pair is fentry/fexit, this target kprobes";
	tr->loop_why = st->loop_why;
	find_loop(s, st);
	if (!st->loop_why[0]) {
		tr->loop_min = st->loop.min_path;
		tr->loop_max = st->loop.max_path;
		tr->loop_body = st->loop.body;
	}
}

/* One target's part of the run's report. */
static void collect_target(struct session *s, struct session_target *st,
			   const struct duty_summary *duty, struct target_report *tr)
{
	const struct trace_opts *o = s->opts;
	struct chain_stats fin;

	counts_read(&s->counts, &st->t, &fin);
	fill_target_report(tr, &st->t, &fin, duty);
	fill_overhead(tr, s, &st->t);
	if (s->sampled)
		tr->profile = &st->profile;
	if (o->latency)
		collect_latency(s, st, tr);
	if (o->by && !filter_read_by(&s->filter, &st->t, o->sample_every, s->counts.ncpus, &st->by))
		tr->by = &st->by;
	if (st->snap.shape.by_len)
		tr->snapshot = &st->snap;
	else if (st->snap_err[0])
		tr->snapshot_error = st->snap_err;
}

static void join_command(char *buf, size_t len, char **argv)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; argv && *argv && used < len; argv++)
		used += snprintf(buf + used, len - used, "%s%s", used ? " " : "", *argv);
}

void collect(struct session *s, struct run_report *rep)
{
	const struct trace_opts *o = s->opts;
	struct duty_summary duty;
	struct rusage ru;
	int i;

	duty_cycle_summarize(&s->duty, s->end - s->start, s->end, &duty);
	rep->command = o->cmdline;
	rep->kernel_release = s->kf.release;
	rep->btf_path = s->kf.btf_path;
	strftime(rep->started, sizeof(rep->started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&s->wall_start));
	rep->duration_s = s->end - s->start;
	rep->end_reason = s->end_reason;
	if (o->command) {
		join_command(s->child_cmd, sizeof(s->child_cmd), o->command);
		rep->child_command = s->child_cmd;
		rep->child_exit = s->run.exit_status;
	}
	for (i = 0; i < s->ntargets; i++)
		collect_target(s, &s->targets[i], &duty, &rep->targets[rep->ntargets++]);
	filter_describe(&s->filter, &s->run_filter);
	rep->filter = &s->run_filter;
	rep->samples = s->sampled ? &s->samples : NULL;
	rep->sampling_off = o->no_samples ? NULL : s->sampling_off;
	rep->bpf_stats = s->bpf_stats_fd >= 0 ? "" : s->stats_why;
	set_machine(rep);
	rep->startup_ms = s->startup_ms;
	rep->phases = s->startup.phases;
	rep->nphases = s->startup.nphases;
	if (!getrusage(RUSAGE_SELF, &ru))
		rep->peak_rss_kb = ru.ru_maxrss;
	rep->cpu_s = s->cpu_s;
}
