// SPDX-License-Identifier: GPL-2.0
/*
 * OpenMetrics text for fleets: counters and the two walk histograms per
 * target, labelled by function, recipe, kernel release and host, for
 * node_exporter's textfile collector (the file is written atomically).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "aggregate.h"
#include "report.h"

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

static void labels(FILE *f, const struct run_report *r, const struct target_report *t,
		   const char *le)
{
	fputc('{', f);
	label(f, "traced", t->traced, true);
	label(f, "recipe", t->recipe, false);
	label(f, "kernel", r->kernel_release, false);
	label(f, "host", r->hostname, false);
	if (le)
		label(f, "le", le, false);
	fputc('}', f);
}

static void counter(FILE *f, const struct run_report *r, const char *name, const char *help,
		    size_t offset)
{
	int i;

	fprintf(f, "# TYPE pftrace_%s counter\n# HELP pftrace_%s %s\n", name, name, help);
	for (i = 0; i < r->ntargets; i++) {
		const struct target_report *t = &r->targets[i];

		fprintf(f, "pftrace_%s_total", name);
		labels(f, r, t, NULL);
		fprintf(f, " %llu\n", (unsigned long long)*(const __u64 *)((const char *)&t->stats + offset));
	}
}

static void histogram(FILE *f, const struct run_report *r, const char *name, const char *help,
		      bool hit_position)
{
	char le[24];
	int i, v;

	fprintf(f, "# TYPE pftrace_%s histogram\n# HELP pftrace_%s %s\n", name, name, help);
	for (i = 0; i < r->ntargets; i++) {
		const struct target_report *t = &r->targets[i];
		const __u64 *slots = hit_position ? t->stats.hit_pos_hist : t->stats.chain_walked_hist;
		int last = hist_max_slot(slots, PFT_HIST_SLOTS);
		__u64 cumulative = 0, sum = 0;

		/* a failed self-check withholds the walks here too */
		if (!t->sum.self_check_ok)
			continue;
		for (v = 0; v <= last; v++) {
			cumulative += slots[v];
			sum += (__u64)v * slots[v];
			snprintf(le, sizeof(le), "%d.0", v);
			fprintf(f, "pftrace_%s_bucket", name);
			labels(f, r, t, le);
			fprintf(f, " %llu\n", (unsigned long long)cumulative);
		}
		fprintf(f, "pftrace_%s_bucket", name);
		labels(f, r, t, "+Inf");
		fprintf(f, " %llu\npftrace_%s_count", (unsigned long long)cumulative, name);
		labels(f, r, t, NULL);
		fprintf(f, " %llu\npftrace_%s_sum", (unsigned long long)cumulative, name);
		labels(f, r, t, NULL);
		fprintf(f, " %llu\n", (unsigned long long)sum);
	}
}

void render_openmetrics(FILE *f, const struct run_report *r)
{
	int i;

	counter(f, r, "lookups", "Lookups accounted.", offsetof(struct chain_stats, lookups));
	counter(f, r, "hits", "Lookups the kernel found the key in.", offsetof(struct chain_stats, hits));
	counter(f, r, "misses", "Lookups the kernel did not find the key in.",
		offsetof(struct chain_stats, misses));
	counter(f, r, "next_null_at_hit", "Hits on the last node of their chain.",
		offsetof(struct chain_stats, next_null_at_hit));
	counter(f, r, "truncated", "Walks longer than pftrace follows.",
		offsetof(struct chain_stats, truncated));
	histogram(f, r, "chain_walked", "Nodes walked per completed lookup.", false);
	histogram(f, r, "hit_position", "Position of the found node in its chain.", true);
	fprintf(f, "# TYPE pftrace_self_check_agree_ratio gauge\n"
		"# HELP pftrace_self_check_agree_ratio Share of walks that agree with the kernel.\n");
	for (i = 0; i < r->ntargets; i++) {
		fprintf(f, "pftrace_self_check_agree_ratio");
		labels(f, r, &r->targets[i], NULL);
		fprintf(f, " %.6f\n", r->targets[i].sum.agree_pct / 100);
	}
	fprintf(f, "# TYPE pftrace_duration_seconds gauge\n"
		"# HELP pftrace_duration_seconds Seconds traced.\npftrace_duration_seconds");
	fputc('{', f);
	label(f, "kernel", r->kernel_release, true);
	label(f, "host", r->hostname, false);
	fprintf(f, "} %.3f\n# EOF\n", r->duration_s);
}
