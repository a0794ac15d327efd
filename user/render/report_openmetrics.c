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
 * cardinality stays bounded whatever the host runs.
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

static bool any_by(const struct run_report *r)
{
	int i;

	for (i = 0; i < r->ntargets; i++)
		if (r->targets[i].by)
			return true;
	return false;
}

static void render_metrics(FILE *f, const struct run_report *r, bool om)
{
	struct expo x = { .f = f, .om = om, .r = r };

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
	if (any_by(r)) {
		by_counter(&x, "pftrace_by_lookups", "--by: lookups of the top rows, the rest as (other).",
			   offsetof(struct by_row, lookups));
		by_counter(&x, "pftrace_by_nodes", "--by: nodes walked by the top rows.",
			   offsetof(struct by_row, nodes));
	}
	family(&x, "pftrace_duration_seconds", "gauge", "seconds", "Seconds traced.");
	fprintf(f, "pftrace_duration_seconds{");
	label(f, "kernel", r->kernel_release, true);
	if (has_host(r))
		label(f, "host", r->hostname, false);
	fprintf(f, "} %.3f\n", r->duration_s);
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
