// SPDX-License-Identifier: GPL-2.0
/*
 * The run file. Counts are exact integers; hits + misses == lookups;
 * chain_walked sums to the completed walks and hit_position to the walk
 * hits. The README documents every key; schema says when that changes.
 */
#include <stdio.h>
#include <json-c/json.h>

#include "hist.h"
#include "stats.h"
#include "report.h"
#include "table_render.h"
#include "latency_render.h"

#define add(obj, key, val) json_object_object_add((obj), (key), (val))
#define u64(v) json_object_new_uint64(v)

static struct json_object *by_json(const struct by_report *b)
{
	struct json_object *o = json_object_new_object(), *rows = json_object_new_array();
	int i;

	add(o, "key", json_object_new_string(b->key));
	if (b->netns_of)
		add(o, "netns_of", json_object_new_string(b->netns_of));
	for (i = 0; i < b->nrows; i++) {
		const struct by_row *r = &b->rows[i];
		struct json_object *row = json_object_new_object();

		add(row, "name", json_object_new_string(r->name));
		add(row, "id", u64(r->id));
		add(row, "lookups", u64(r->lookups));
		add(row, "nodes", u64(r->nodes));
		add(row, "mean_walk", json_object_new_double(r->lookups ? (double)r->nodes / (double)r->lookups : 0));
		add(row, "misses", u64(r->misses));
		json_object_array_add(rows, row);
	}
	add(o, "rows", rows);
	add(o, "dropped", u64(b->dropped));
	add(o, "scaled", json_object_new_boolean(b->scaled));
	return o;
}

static struct json_object *filter_json(const struct run_filter *f, bool merged)
{
	struct json_object *o = json_object_new_object();

	add(o, "pid", f->pid ? json_object_new_int64(f->pid) : NULL);
	add(o, "cgroup", f->cgroup ? json_object_new_string(f->cgroup) : NULL);
	if (f->cgroup)
		add(o, "cgroup_id", u64(f->cgroup_id));
	add(o, "only_command", json_object_new_boolean(f->only_command));
	/* one run's forks: a merge of runs does not add them up */
	if (f->only_command && !merged) {
		add(o, "followed", u64(f->followed));
		add(o, "follow_dropped", u64(f->follow_dropped));
	}
	return o;
}

/* a count times the duty cycle's scale, rounded, and kept a valid run-file count */
static __u64 scale_count(__u64 v, double scale)
{
	double x = (double)v * scale + 0.5;

	return x >= (double)PFT_COUNT_MAX ? PFT_COUNT_MAX : (__u64)x;
}

/* --sample-calls: every count is of the walked calls; these scale them (calls is exact) */
static struct json_object *sampled_json(const struct chain_stats *s)
{
	struct json_object *sc_all = json_object_new_object();
	__u64 hits = s->lookups ? (__u64)((double)s->calls * (double)s->hits /
					  (double)s->lookups + 0.5) : 0;

	/* the split follows the walked sample */
	add(sc_all, "lookups", u64(s->calls));
	add(sc_all, "hits", u64(hits));
	add(sc_all, "misses", u64(s->calls - hits));
	return sc_all;
}

/* --sample: every count is of the attached slices; scale makes whole-run estimates */
static void add_duty_json(struct json_object *o, const struct target_report *t)
{
	struct json_object *d = json_object_new_object(), *sc_all = json_object_new_object();
	const struct duty_summary *duty = &t->duty;

	add(d, "one_in", json_object_new_int((int)duty->one_in));
	add(d, "slice_ms", json_object_new_double(duty->slice_ms));
	if (duty->slice_chosen)
		add(d, "slice_chosen", json_object_new_boolean(1));
	if (duty->stays_attached)
		add(d, "stays_attached", json_object_new_boolean(1));
	add(d, "slices", json_object_new_int((int)duty->slices));
	add(d, "attached_s", json_object_new_double(duty->attached_s));
	add(d, "switching_s", json_object_new_double(duty->switching_s));
	if (duty->attach_ms > 0)
		add(d, "attach_ms", json_object_new_double(duty->attach_ms));
	if (duty->detach_ms > 0)
		add(d, "detach_ms", json_object_new_double(duty->detach_ms));
	if (duty->switch_cpu_ms > 0)
		add(d, "switch_cpu_ms", json_object_new_double(duty->switch_cpu_ms));
	if (duty->walk_cpu_s > 0)
		add(d, "walk_cpu_s", json_object_new_double(duty->walk_cpu_s));
	add(d, "scale", json_object_new_double(duty->scale));
	add(o, "duty_cycle", d);
	add(sc_all, "lookups", u64(scale_count(t->stats.lookups, duty->scale)));
	add(sc_all, "hits", u64(scale_count(t->stats.hits, duty->scale)));
	add(sc_all, "misses", u64(scale_count(t->stats.misses, duty->scale)));
	add(o, "scaled", sc_all);
}

static struct json_object *overhead_json(const struct target_report *t, double duration_s)
{
	struct json_object *ov;

	if (!t->overhead_known)
		return NULL;
	ov = json_object_new_object();
	add(ov, "ns_per_call", json_object_new_double(overhead_ns_per_call(t)));
	add(ov, "cpu_pct", json_object_new_double(overhead_cpu_pct(t, duration_s)));
	add(ov, "run_time_ns", u64(t->run_time_ns));
	add(ov, "runs", u64(t->runs));
	add(ov, "recursion_misses", u64(t->recursion_misses));
	return ov;
}

static struct json_object *self_check_json(const struct target_report *t)
{
	struct json_object *sc = json_object_new_object();

	add(sc, "agree", u64(t->stats.self_agree));
	add(sc, "disagree", u64(t->stats.self_disagree));
	add(sc, "checked", u64(t->sum.checked));
	add(sc, "agree_pct", json_object_new_double(t->sum.agree_pct));
	add(sc, "ok", json_object_new_boolean(t->sum.self_check_ok));
	return sc;
}

/* What was traced and how: names, the plan, the table's layout. */
static void add_names_json(struct json_object *o, const struct target_report *t)
{
	add(o, "requested", json_object_new_string(t->requested));
	add(o, "traced", json_object_new_string(t->traced));
	add(o, "method", json_object_new_string(t->method));
	if (t->loads && t->loads[0])
		add(o, "loads", json_object_new_string(t->loads));
	if (t->adds && t->adds[0])
		add(o, "adds", json_object_new_string(t->adds));
	add(o, "recipe", json_object_new_string(t->recipe));
	add(o, "table", json_object_new_string(t->table));
	add(o, "plan", json_object_new_string(t->plan_note));
	add(o, "layout", json_object_new_string(t->detail));
	add(o, "table_slots", u64(t->table_slots));
	add(o, "iterator", json_object_new_string(t->iterator ? t->iterator : ""));
	add(o, "chain_end", json_object_new_string(t->chain_end == PFT_END_NULLS ? "nulls" : "null"));
	add(o, "sampled_1_in", json_object_new_int((int)t->sample_every));
}

/* The walks, for a target whose self-check passed: counts, histograms, the prefetch model. */
static void add_walks_json(struct json_object *o, const struct target_report *t)
{
	const struct chain_stats *s = &t->stats;
	const struct walk_summary *w = &t->sum;
	struct json_object *walk = json_object_new_object(), *pm = json_object_new_object();

	add(walk, "completed", u64(w->completed));
	add(walk, "hits", u64(s->walk_hits));
	add(walk, "misses", u64(s->walk_misses));
	add(walk, "empty_bucket_misses", u64(s->walk_empty));
	add(walk, "nodes", u64(s->nodes_walked));
	add(walk, "mean_nodes", json_object_new_double(w->mean_walked));
	add(walk, "max_nodes", json_object_new_int(w->max_walked));
	add(walk, "max_hit_position", json_object_new_int(w->max_hit_pos));
	add(o, "walk", walk);
	add(o, "chain_walked", hist_json(s->chain_walked_hist, PFT_HIST_SLOTS));
	add(o, "hit_position", hist_json(s->hit_pos_hist, PFT_HIST_SLOTS));
	add(o, "next_null_at_hit", u64(s->next_null_at_hit));
	add(pm, "issued", u64(w->prefetch.issued));
	add(pm, "null", u64(w->prefetch.null));
	add(pm, "nonnull_only", u64(w->prefetch.nonnull_only));
	add(pm, "none", u64(w->prefetch.none));
	add(pm, "exact", json_object_new_boolean(w->prefetch.exact));
	add(o, "prefetch_model", pm);
}

/* [{"name", "count", "what"}]: what the recipe counts beyond the walk */
static struct json_object *recipe_counts_json(const struct target_report *t)
{
	struct json_object *a = json_object_new_array(), *c;
	int i;

	for (i = 0; i < t->nrecipe_counts; i++) {
		c = json_object_new_object();
		add(c, "name", json_object_new_string(t->recipe_counts[i].name));
		add(c, "count", u64(t->recipe_counts[i].value));
		add(c, "what", json_object_new_string(t->recipe_counts[i].what));
		json_object_array_add(a, c);
	}
	return a;
}

static struct json_object *target_json(const struct target_report *t, double duration_s,
				       const struct sample_result *samples)
{
	const struct chain_stats *s = &t->stats;
	struct json_object *o = json_object_new_object();

	add_names_json(o, t);
	if (t->sample_every > 1)
		add(o, "scaled", sampled_json(s));
	if (t->duty.one_in > 1)
		add_duty_json(o, t);
	add(o, "calls", u64(s->calls));
	add(o, "lookups", u64(s->lookups));
	add(o, "hits", u64(s->hits));
	add(o, "misses", u64(s->misses));
	add(o, "lookups_per_s",
	    json_object_new_double(duration_s > 0 ? (double)s->lookups / duration_s : 0));
	add(o, "truncated", u64(s->truncated));
	add(o, "read_faults", u64(s->read_faults));
	add(o, "lost", u64(s->lost));
	if (t->nrecipe_counts)
		add(o, "recipe_counts", recipe_counts_json(t));
	add(o, "overhead", overhead_json(t, duration_s));
	add(o, "self_check", self_check_json(t));
	if (t->by)
		add(o, "by", by_json(t->by));
	if (t->snapshot)
		add(o, "snapshot", snapshot_json(t->snapshot));
	else if (t->snapshot_error)
		add(o, "snapshot_error", json_object_new_string(t->snapshot_error));
	/* numbers from a walk the kernel disowns are not data */
	if (!t->sum.self_check_ok)
		return o;
	add_walks_json(o, t);
	if (t->latency)
		add(o, "latency", latency_json(t));
	if (samples && t->profile)
		add(o, "samples", profile_json(t->profile, samples));
	return o;
}

struct json_object *render_target_json(const struct target_report *t, double duration_s)
{
	return target_json(t, duration_s, NULL);
}

void runfile_add_header(struct json_object *root, const char *command)
{
	add(root, "tool", json_object_new_string("pftrace"));
	add(root, "version", json_object_new_string(PFTRACE_VERSION));
	add(root, "schema", json_object_new_int(PFT_SCHEMA_VERSION));
	add(root, "command", json_object_new_string(command));
}

struct json_object *runfile_new_document(const char *command)
{
	struct json_object *root = json_object_new_object();

	runfile_add_header(root, command);
	add(root, "targets", json_object_new_array());
	return root;
}

/* A replay section read back: the table walked, each option's passes and what they give. */
static struct json_object *replay_summary_json(const struct replay_summary *rs)
{
	static const char *const keys[PFT_REPLAY_OPTS] = { "none", "every_node", "nonnull_only" };
	struct json_object *o = json_object_new_object(), *per = json_object_new_object();
	struct json_object *req = json_object_new_object(), *got = json_object_new_object();
	double nodes = 0, ratios[PFT_REPLAY_MAX_REPS];
	int k, i;

	add(o, "source", json_object_new_string(rs->source));
	add(o, "traced", json_object_new_string(rs->traced));
	add(o, "mode", json_object_new_string(rs->mode));
	add(o, "unit", json_object_new_string(rs->unit));
	add(o, "buckets", u64(rs->buckets));
	add(o, "nodes", u64(rs->nodes));
	add(o, "node_bytes", u64(rs->node_bytes));
	add(o, "lookups_per_pass", u64(rs->lookups_per_pass));
	add(o, "reps", json_object_new_int(rs->reps));
	add(req, "mean_nodes", json_object_new_double(rs->requested_mean));
	add(req, "hit_ratio", json_object_new_double(rs->requested_hits));
	add(o, "requested", req);
	for (i = 0; i < PFT_HIST_SLOTS; i++)
		nodes += (double)i * (double)rs->counted_walked[i];
	add(got, "mean_nodes", json_object_new_double(rs->lookups_per_pass ?
						      nodes / (double)rs->lookups_per_pass : 0));
	add(got, "hit_ratio", json_object_new_double(rs->counted_hits));
	add(got, "chain_walked", hist_json(rs->counted_walked, PFT_HIST_SLOTS));
	add(o, "counted", got);
	for (k = 0; k < PFT_REPLAY_OPTS; k++) {
		struct json_object *oj = estimate_json((struct estimate){ rs->median[k], rs->lo[k],
									 rs->hi[k] });
		struct json_object *samples = json_object_new_array();

		for (i = 0; i < rs->reps; i++) {
			json_object_array_add(samples, json_object_new_double(rs->samples[k][i]));
			ratios[i] = rs->samples[k][i] / rs->samples[0][i];
		}
		add(oj, "samples", samples);
		/* each pass against no prefetch in the same pass, as replay gives it */
		if (k)
			add(oj, "ratio_to_none", estimate_json(estimate(ratios, rs->reps)));
		add(per, keys[k], oj);
	}
	add(o, "per_lookup", per);
	return o;
}

struct json_object *render_json(const struct run_report *r)
{
	struct json_object *root = json_object_new_object();
	struct json_object *kernel, *machine, *targets, *cmd;
	char msg[512];
	int i;

	/* A failed self-check is the first thing a reader of the file sees. */
	for (i = 0; i < r->ntargets; i++) {
		const struct target_report *t = &r->targets[i];

		if (t->sum.self_check_ok)
			continue;
		snprintf(msg, sizeof(msg), "self-check failed for %s: %.2f%% of %llu walks "
			 "agree with the kernel; histograms withheld", t->traced,
			 t->sum.agree_pct, (unsigned long long)t->sum.checked);
		add(root, "error", json_object_new_string(msg));
		break;
	}
	runfile_add_header(root, r->command);
	kernel = json_object_new_object();
	add(kernel, "release", json_object_new_string(r->kernel_release));
	add(kernel, "btf", json_object_new_string(r->btf_path));
	add(root, "kernel", kernel);
	machine = json_object_new_object();
	add(machine, "hostname", json_object_new_string(r->hostname ? r->hostname : ""));
	add(machine, "arch", json_object_new_string(r->arch ? r->arch : ""));
	add(machine, "cpu", json_object_new_string(r->cpu_model ? r->cpu_model : ""));
	add(machine, "cpus", json_object_new_int(r->cpus));
	add(root, "machine", machine);
	if (r->merged_runs > 1)
		add(root, "merged_runs", json_object_new_int(r->merged_runs));
	add(root, "started", json_object_new_string(r->started));
	add(root, "duration_s", json_object_new_double(r->duration_s));
	add(root, "end_reason", json_object_new_string(r->end_reason));
	add(root, "startup_ms", json_object_new_double(r->startup_ms));
	if (r->nphases) {
		struct json_object *ph = json_object_new_array();
		int k;

		for (k = 0; k < r->nphases; k++) {
			struct json_object *p = json_object_new_object();

			add(p, "phase", json_object_new_string(r->phases[k].name));
			add(p, "ms", json_object_new_double(r->phases[k].ms));
			if (r->phases[k].verified_insns)
				add(p, "verified_insns", u64(r->phases[k].verified_insns));
			json_object_array_add(ph, p);
		}
		add(root, "startup_phases", ph);
	}
	add(root, "peak_rss_kb", json_object_new_int64(r->peak_rss_kb));
	if (r->cpu_s > 0)
		add(root, "cpu_s", json_object_new_double(r->cpu_s));
	add(root, "bpf_stats", json_object_new_string(r->bpf_stats ? r->bpf_stats : ""));
	if (r->filter && r->filter->present)
		add(root, "filter", filter_json(r->filter, r->merged_runs > 1));
	if (r->child_command) {
		cmd = json_object_new_object();
		add(cmd, "argv", json_object_new_string(r->child_command));
		add(cmd, "exit_status", json_object_new_int(r->child_exit));
		add(root, "workload", cmd);
	}
	if (r->samples) {
		add(root, "sampling", sampling_json(r->samples));
	} else if (r->sampling_off) {
		add(root, "sampling", NULL);
		/* asked for and not had: say why, as the text does */
		if (r->sampling_off[0])
			add(root, "not_sampled", json_object_new_string(r->sampling_off));
	}
	targets = json_object_new_array();
	for (i = 0; i < r->ntargets; i++)
		json_object_array_add(targets, target_json(&r->targets[i], r->duration_s, r->samples));
	add(root, "targets", targets);
	if (r->replay.present)
		add(root, "replay", replay_summary_json(&r->replay));
	return root;
}

struct json_object *estimate_json(struct estimate e)
{
	struct json_object *o = json_object_new_object();

	add(o, "median", json_object_new_double(e.median));
	add(o, "lo", json_object_new_double(e.lo));
	add(o, "hi", json_object_new_double(e.hi));
	return o;
}
