// SPDX-License-Identifier: GPL-2.0
/*
 * Metrics for fleets, in two expositions of the same families:
 *  - Prometheus text 0.0.4 (files ending in .prom), which node_exporter's
 *    textfile collector reads: a counter's TYPE names the sample itself
 *    (pftrace_lookups_total), and there is no "# EOF";
 *  - OpenMetrics 1.0 (--format openmetrics): TYPE names the family
 *    (pftrace_lookups), UNIT where the name carries one, "# EOF" last.
 * Labels: traced, recipe, kernel, and host when the machine has a name.
 * Histograms have fixed log2 bounds, so every run exports the same
 * series. Sampled runs export counts scaled up to every call, and
 * pftrace_sampled_one_in says by how much. --by adds the top
 * METRICS_BY_ROWS rows, the rest summed as who="(other)": a scrape's
 * cardinality stays bounded whatever the host runs. --snapshot adds the
 * table's shape beside what ideal hashing gives; pftrace_build_info and
 * pftrace_overhead_measured say which pftrace measured, and whether it
 * could time itself (BPF statistics need CAP_SYS_ADMIN).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "aggregate.h"
#include "report.h"

#define METRICS_BY_ROWS 10

struct expo {
	FILE *f;
	bool om;    /* OpenMetrics, else Prometheus 0.0.4 */
	const struct run_report *r;
};

/* label values escape backslash, double quote and newline */
static void label(FILE *f, const char *key, const char *value, bool first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", key);
	for (; value && *value; value++) {
		if (*value == '\\' || *value == '"')
			fputc('\\', f);
		if (*value == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*value, f);
	}
	fputc('"', f);
}

/* a missing hostname leaves the label out rather than exporting host="" */
static bool has_host(const struct run_report *r)
{
	return r->hostname && r->hostname[0] && strcmp(r->hostname, "(none)");
}

static void labels(const struct expo *x, const struct target_report *t, const char *key,
		   const char *value)
{
	FILE *f = x->f;

	fputc('{', f);
	label(f, "traced", t->traced, true);
	label(f, "recipe", t->recipe, false);
	label(f, "kernel", x->r->kernel_release, false);
	if (has_host(x->r))
		label(f, "host", x->r->hostname, false);
	if (key)
		label(f, key, value, false);
	fputc('}', f);
}

/* # TYPE / # UNIT / # HELP of a family; a counter's sample is FAMILY_total */
static void family(const struct expo *x, const char *name, const char *type, const char *unit,
		   const char *help)
{
	bool counter = !strcmp(type, "counter");
	const char *suffix = counter && !x->om ? "_total" : "";

	fprintf(x->f, "# TYPE %s%s %s\n", name, suffix, type);
	if (x->om && unit)
		fprintf(x->f, "# UNIT %s %s\n", name, unit);
	fprintf(x->f, "# HELP %s%s %s\n", name, suffix, help);
}

/*
 * Every call, not only the walked one in N: what a rate over a fleet
 * wants. A duty cycle scales by its nominal N, not the measured scale:
 * a counter rewritten at each -i interval must never go down.
 */
static unsigned long long sample_factor(const struct target_report *t)
{
	if (t->duty.one_in > 1)
		return t->duty.one_in;
	return t->sample_every > 1 ? t->sample_every : 1;
}

static unsigned long long scaled(const struct target_report *t, __u64 v)
{
	return (unsigned long long)v * sample_factor(t);
}

static void counter(const struct expo *x, const char *name, const char *help, size_t offset)
{
	int i;

	family(x, name, "counter", NULL, help);
	for (i = 0; i < x->r->ntargets; i++) {
		const struct target_report *t = &x->r->targets[i];

		fprintf(x->f, "%s_total", name);
		labels(x, t, NULL, NULL);
		fprintf(x->f, " %llu\n", scaled(t, *(const __u64 *)((const char *)&t->stats + offset)));
	}
}

/* le bounds 0, 1, 2, 4, ... 256, then +Inf (slot values are node counts) */
static void histogram(const struct expo *x, const char *name, const char *help, bool hit_position)
{
	char le[24];
	int i, v, bound;

	family(x, name, "histogram", "nodes", help);
	for (i = 0; i < x->r->ntargets; i++) {
		const struct target_report *t = &x->r->targets[i];
		const __u64 *slots = hit_position ? t->stats.hit_pos_hist : t->stats.chain_walked_hist;
		__u64 cumulative = 0, sum = 0;

		/* a failed self-check withholds the walks here too */
		if (!t->sum.self_check_ok)
			continue;
		for (v = 0, bound = 0; bound <= PFT_MAX_WALK; bound = bound ? bound * 2 : 1) {
			for (; v <= bound && v < PFT_HIST_SLOTS; v++) {
				cumulative += slots[v];
				sum += (__u64)v * slots[v];
			}
			snprintf(le, sizeof(le), "%d.0", bound);
			fprintf(x->f, "%s_bucket", name);
			labels(x, t, "le", le);
			fprintf(x->f, " %llu\n", scaled(t, cumulative));
		}
		fprintf(x->f, "%s_bucket", name);
		labels(x, t, "le", "+Inf");
		fprintf(x->f, " %llu\n%s_count", scaled(t, cumulative), name);
		labels(x, t, NULL, NULL);
		fprintf(x->f, " %llu\n%s_sum", scaled(t, cumulative), name);
		labels(x, t, NULL, NULL);
		fprintf(x->f, " %llu\n", scaled(t, sum));
	}
}

static void gauge_per_target(const struct expo *x, const char *name, const char *unit,
			     const char *help, double (*value)(const struct target_report *))
{
	int i;

	family(x, name, "gauge", unit, help);
	for (i = 0; i < x->r->ntargets; i++) {
		fprintf(x->f, "%s", name);
		labels(x, &x->r->targets[i], NULL, NULL);
		fprintf(x->f, " %.6g\n", value(&x->r->targets[i]));
	}
}

static double agree_ratio(const struct target_report *t)
{
	return t->sum.agree_pct / 100;
}

static double sampled_one_in(const struct target_report *t)
{
	return (double)sample_factor(t);
}

/* Whether any target has what HAS asks: a family without a sample is left out. */
static bool any_target(const struct run_report *r, bool (*has)(const struct target_report *))
{
	int i;

	for (i = 0; i < r->ntargets; i++)
		if (has(&r->targets[i]))
			return true;
	return false;
}

static bool has_by(const struct target_report *t)
{
	return t->by;
}

static bool has_snapshot(const struct target_report *t)
{
	return t->snapshot;
}

static bool has_overhead(const struct target_report *t)
{
	return t->overhead_known;
}

/*
 * What each bounded map had no room for, named for what it holds, not
 * by its BPF name: kprobe_entries (the kprobe entries' state), by
 * (--by) and keys (--snapshot's lookups by key). A map a target does
 * not use exports nothing.
 */
static void dropped_sample(const struct expo *x, const struct target_report *t, const char *map,
			   __u64 v)
{
	fprintf(x->f, "pftrace_dropped_total");
	labels(x, t, "map", map);
	fprintf(x->f, " %llu\n", (unsigned long long)v);
}

static void dropped(const struct expo *x)
{
	int i;

	family(x, "pftrace_dropped", "counter", NULL,
	       "Lookups a bounded map had no room for, by map (kprobe_entries: kprobe "
	       "entries; by: --by; keys: --snapshot's lookups by key).");
	for (i = 0; i < x->r->ntargets; i++) {
		const struct target_report *t = &x->r->targets[i];

		dropped_sample(x, t, "kprobe_entries", t->stats.lost);
		if (t->by)
			dropped_sample(x, t, "by", t->by->dropped);
		if (t->snapshot && t->snapshot->counted)
			dropped_sample(x, t, "keys", t->snapshot->counts_dropped);
	}
}

/* BPF run time of the walks: what pftrace costs the machine, where it was measured */
static void bpf_run_seconds(const struct expo *x)
{
	int i;

	if (!any_target(x->r, has_overhead))
		return;
	family(x, "pftrace_bpf_run_seconds", "counter", "seconds",
	       "BPF run time of the programs (BPF statistics: CAP_SYS_ADMIN).");
	for (i = 0; i < x->r->ntargets; i++) {
		const struct target_report *t = &x->r->targets[i];

		if (!t->overhead_known)
			continue;
		fprintf(x->f, "pftrace_bpf_run_seconds_total");
		labels(x, t, NULL, NULL);
		fprintf(x->f, " %.9f\n", (double)t->run_time_ns / 1e9);
	}
}

/* One gauge of the snapshot of each target that took one. */
static void snapshot_gauge(const struct expo *x, const char *name, const char *help,
			   double (*value)(const struct table_snapshot *))
{
	int i;

	family(x, name, "gauge", NULL, help);
	for (i = 0; i < x->r->ntargets; i++) {
		const struct target_report *t = &x->r->targets[i];

		if (!t->snapshot)
			continue;
		fprintf(x->f, "%s", name);
		labels(x, t, NULL, NULL);
		fprintf(x->f, " %.6g\n", value(t->snapshot));
	}
}

static double snap_entries(const struct table_snapshot *s)
{
	return (double)s->shape.entries;
}

static double snap_buckets(const struct table_snapshot *s)
{
	return (double)s->shape.buckets;
}

static double snap_used(const struct table_snapshot *s)
{
	return (double)s->shape.used;
}

static double snap_used_uniform(const struct table_snapshot *s)
{
	return s->uniform.used;
}

static double snap_longest(const struct table_snapshot *s)
{
	return (double)s->shape.longest;
}

static double snap_longest_uniform(const struct table_snapshot *s)
{
	return s->uniform.longest;
}

/* --snapshot: the table's shape, and what ideal (uniform) hashing gives for it */
static void snapshot_gauges(const struct expo *x)
{
	snapshot_gauge(x, "pftrace_snapshot_entries", "Entries in the table (--snapshot).",
		       snap_entries);
	snapshot_gauge(x, "pftrace_snapshot_buckets", "Buckets of the table.", snap_buckets);
	snapshot_gauge(x, "pftrace_snapshot_buckets_used", "Buckets holding at least one entry.",
		       snap_used);
	snapshot_gauge(x, "pftrace_snapshot_buckets_used_uniform",
		       "Buckets ideal (uniform) hashing would use for the same entries.",
		       snap_used_uniform);
	snapshot_gauge(x, "pftrace_snapshot_longest_chain", "Entries in the longest chain.",
		       snap_longest);
	snapshot_gauge(x, "pftrace_snapshot_longest_chain_uniform",
		       "The longest chain ideal hashing would give (expected).", snap_longest_uniform);
}

/* Labels kernel, and host when known: the run's own series, not a target's. */
static void run_labels(const struct expo *x)
{
	label(x->f, "kernel", x->r->kernel_release, true);
	if (has_host(x->r))
		label(x->f, "host", x->r->hostname, false);
}

/* Which pftrace wrote the file, on which kernel: join on it, alert on a version */
static void build_info(const struct expo *x)
{
	if (x->om)
		family(x, "pftrace_build", "info", NULL, "pftrace's version and the kernel it ran on.");
	else
		family(x, "pftrace_build_info", "gauge", NULL,
		       "pftrace's version and the kernel it ran on.");
	fprintf(x->f, "pftrace_build_info{");
	label(x->f, "version", PFTRACE_VERSION, true);
	fputc(',', x->f);
	run_labels(x);
	fprintf(x->f, "} 1\n");
}

/*
 * 0 where BPF statistics were refused (they need CAP_SYS_ADMIN, which a
 * service holding CAP_BPF and CAP_PERFMON lacks): the overhead went
 * unmeasured, and pftrace_bpf_run_seconds is missing. Not exported when
 * the run does not say (a merge of runs).
 */
static void overhead_measured(const struct expo *x)
{
	if (!x->r->bpf_stats)
		return;
	family(x, "pftrace_overhead_measured", "gauge", NULL,
	       "1: BPF run time was measured; 0: refused (BPF statistics need CAP_SYS_ADMIN).");
	fprintf(x->f, "pftrace_overhead_measured{");
	run_labels(x);
	fprintf(x->f, "} %d\n", x->r->bpf_stats[0] ? 0 : 1);
}

/* One --by counter: the top rows by nodes walked, then the rest as "(other)". */
static void by_counter(const struct expo *x, const char *name, const char *help, size_t offset)
{
	int i, k;

	family(x, name, "counter", NULL, help);
	for (i = 0; i < x->r->ntargets; i++) {
		const struct target_report *t = &x->r->targets[i];
		__u64 other = 0;

		if (!t->by)
			continue;
		for (k = 0; k < t->by->nrows; k++) {
			__u64 v = *(const __u64 *)((const char *)&t->by->rows[k] + offset);
			char who[280];

			if (k >= METRICS_BY_ROWS) {
				other += v;
				continue;
			}
			/* pid rows: the comm alone would merge processes of one name */
			if (!strcmp(t->by->key, "pid"))
				snprintf(who, sizeof(who), "%s/%llu", t->by->rows[k].name,
					 (unsigned long long)t->by->rows[k].id);
			else
				snprintf(who, sizeof(who), "%s", t->by->rows[k].name);
			fprintf(x->f, "%s_total", name);
			labels(x, t, t->by->key, who);
			fprintf(x->f, " %llu\n", (unsigned long long)v);
		}
		if (t->by->nrows > METRICS_BY_ROWS) {
			fprintf(x->f, "%s_total", name);
			labels(x, t, t->by->key, "(other)");
			fprintf(x->f, " %llu\n", (unsigned long long)other);
		}
	}
}

/*
 * pftrace snapshot without -d traced nothing: its file carries the
 * snapshot's gauges alone, so that it can sit beside the exporter's file
 * of the same table in a textfile directory (node_exporter keeps one of
 * two series with the same labels and drops the other without a word).
 */
static bool snapshot_only(const struct run_report *r)
{
	return r->end_reason && !strcmp(r->end_reason, "snapshot only") && any_target(r, has_snapshot);
}

static void render_metrics(FILE *f, const struct run_report *r, bool om)
{
	struct expo x = { .f = f, .om = om, .r = r };

	if (snapshot_only(r)) {
		snapshot_gauges(&x);
		if (om)
			fprintf(f, "# EOF\n");
		return;
	}

	counter(&x, "pftrace_lookups", "Lookups (scaled to every call when sampled).",
		offsetof(struct chain_stats, lookups));
	counter(&x, "pftrace_hits", "Lookups the kernel found the key in.",
		offsetof(struct chain_stats, hits));
	counter(&x, "pftrace_misses", "Lookups the kernel did not find the key in.",
		offsetof(struct chain_stats, misses));
	counter(&x, "pftrace_next_null_at_hit", "Hits on the last node of their chain.",
		offsetof(struct chain_stats, next_null_at_hit));
	counter(&x, "pftrace_truncated", "Walks longer than pftrace follows.",
		offsetof(struct chain_stats, truncated));
	histogram(&x, "pftrace_chain_walked_nodes", "Nodes walked per completed lookup.", false);
	histogram(&x, "pftrace_hit_position_nodes", "Position of the found node in its chain.", true);
	gauge_per_target(&x, "pftrace_self_check_agree_ratio", "ratio",
			 "Share of walks that agree with the kernel.", agree_ratio);
	gauge_per_target(&x, "pftrace_sampled_one_in", NULL,
			 "1 in this many calls walked (--sample-calls), or attached 1 slice of time "
			 "in this many (--sample); the counters are scaled up by it.",
			 sampled_one_in);
	if (any_target(r, has_by)) {
		by_counter(&x, "pftrace_by_lookups", "--by: lookups of the top rows, the rest as (other).",
			   offsetof(struct by_row, lookups));
		by_counter(&x, "pftrace_by_nodes", "--by: nodes walked by the top rows.",
			   offsetof(struct by_row, nodes));
	}
	dropped(&x);
	bpf_run_seconds(&x);
	if (any_target(r, has_snapshot))
		snapshot_gauges(&x);
	family(&x, "pftrace_duration_seconds", "gauge", "seconds", "Seconds traced.");
	fprintf(f, "pftrace_duration_seconds{");
	run_labels(&x);
	fprintf(f, "} %.3f\n", r->duration_s);
	overhead_measured(&x);
	build_info(&x);
	if (om)
		fprintf(f, "# EOF\n");
}

void render_openmetrics(FILE *f, const struct run_report *r)
{
	render_metrics(f, r, true);
}

void render_prometheus(FILE *f, const struct run_report *r)
{
	render_metrics(f, r, false);
}
