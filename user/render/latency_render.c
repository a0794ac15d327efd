// SPDX-License-Identifier: GPL-2.0
/* --latency in the run file and on the terminal (pure: no system calls). */
#include <math.h>
#include <stdio.h>
#include <json-c/json.h>

#include "latency_render.h"

#define add(obj, key, val) json_object_object_add((obj), (key), (val))

struct json_object *latency_json(const struct target_report *t)
{
	const struct latency_stats *s = t->latency;
	struct latency_row rows[PFT_LAT_NODES];
	struct latency_fit fit;
	struct json_object *o = json_object_new_object(), *arr = json_object_new_array(), *v;
	int n = latency_rows(s, rows), i;

	add(o, "unit", json_object_new_string(latency_unit_name(s->unit)));
	add(o, "unit_note", json_object_new_string(t->latency_unit_why ? t->latency_unit_why : ""));
	add(o, "bucket", json_object_new_int(1 << s->shift));
	v = json_object_new_object();
	add(v, "subtracted", s->overhead_known ? json_object_new_double(s->overhead) : NULL);
	add(v, "how", json_object_new_string(t->latency_overhead_why ? t->latency_overhead_why : ""));
	add(o, "overhead", v);
	for (i = 0; i < n; i++) {
		struct json_object *r = json_object_new_object();

		add(r, "nodes", json_object_new_int(rows[i].nodes));
		add(r, "or_more", json_object_new_boolean(rows[i].nodes == PFT_LAT_NODES - 1));
		add(r, "count", json_object_new_uint64(rows[i].count));
		add(r, "median", json_object_new_double(rows[i].median));
		add(r, "p90", json_object_new_double(rows[i].p90));
		add(r, "past_range", json_object_new_boolean(rows[i].past_range));
		add(r, "mean", json_object_new_double(rows[i].mean));
		json_object_array_add(arr, r);
	}
	add(o, "by_nodes", arr);
	latency_fit(s, &fit);
	if (fit.ok) {
		v = json_object_new_object();
		add(v, "fixed", json_object_new_double(fit.fixed));
		add(v, "per_node", json_object_new_double(fit.per_node));
		add(v, "per_node_lo", json_object_new_double(fit.per_node_lo));
		add(v, "per_node_hi", json_object_new_double(fit.per_node_hi));
		add(v, "points", json_object_new_int(fit.points));
		add(v, "residual", json_object_new_double(fit.residual));
		add(v, "poor", json_object_new_boolean(latency_fit_poor(&fit)));
		add(v, "past_range", json_object_new_int(fit.past_range));
		add(o, "fit", v);
	} else {
		add(o, "fit", NULL);
	}
	if (t->loop_max) {
		v = json_object_new_object();
		add(v, "min_path", json_object_new_int(t->loop_min));
		add(v, "max_path", json_object_new_int(t->loop_max));
		add(v, "body", json_object_new_int(t->loop_body));
		add(o, "loop_instructions", v);
	} else {
		add(o, "loop_instructions", NULL);
		add(o, "loop_note", json_object_new_string(t->loop_why ? t->loop_why : ""));
	}
	add(o, "lost", json_object_new_uint64(s->lost));
	add(o, "migrated", json_object_new_uint64(s->migrated));
	return o;
}

void render_latency_text(FILE *f, const struct target_report *t)
{
	const struct latency_stats *s = t->latency;
	struct latency_row rows[PFT_LAT_NODES];
	struct latency_fit fit;
	const char *u = latency_unit_name(s->unit);
	int n = latency_rows(s, rows), i;

	fprintf(f, "\n  time per lookup, entry to return, in %s%s%s\n", u,
		t->latency_unit_why && t->latency_unit_why[0] ? ": " : "",
		t->latency_unit_why ? t->latency_unit_why : "");
	if (s->overhead_known)
		fprintf(f, "  the measurement's own %.1f %s subtracted (%s)\n", s->overhead, u,
			t->latency_overhead_why);
	else
		fprintf(f, "  the measurement's own cost is included (%s)\n",
			t->latency_overhead_why ? t->latency_overhead_why : "not calibrated");
	fprintf(f, "  %8s %10s %9s %9s\n", "nodes", "lookups", "median", "p90");
	for (i = 0; i < n; i++)
		fprintf(f, "  %7d%s %10llu %9.1f %s%8.1f\n", rows[i].nodes,
			rows[i].nodes == PFT_LAT_NODES - 1 ? "+" : " ",
			(unsigned long long)rows[i].count, rows[i].median,
			rows[i].past_range ? ">=" : "  ", rows[i].p90);
	latency_fit(s, &fit);
	if (fit.ok)
		fprintf(f, "  cost: %.1f %s fixed + %.2f %s per node [%.2f, %.2f] (95%%, %d node counts)\n",
			fit.fixed, u, fit.per_node, u, fit.per_node_lo, fit.per_node_hi, fit.points);
	if (latency_fit_poor(&fit))
		fprintf(f, "  a poor fit: the medians lie %.1f %s off the line (root mean square), more "
			"than %.0f nodes' cost; this machine's walk times do not follow the nodes\n",
			fit.residual, u, RESIDUAL_POOR_NODES);
	if (fit.past_range)
		fprintf(f, "  %d node count%s left out of the fit: median past the histogram's %.0f %s\n",
			fit.past_range, fit.past_range == 1 ? "" : "s",
			ldexp(1.0, (int)s->shift) * PFT_LAT_BUCKETS, u);
	if (!fit.ok)
		fprintf(f, "  cost: too few node counts with 5 lookups or more for a fit\n");
	if (t->loop_max)
		fprintf(f, "  the walk loop: %d to %d instructions once round (%d in its body)\n",
			t->loop_min, t->loop_max, t->loop_body);
	else if (t->loop_why && t->loop_why[0])
		fprintf(f, "  the walk loop: not found (%s)\n", t->loop_why);
	if (s->lost || s->migrated)
		fprintf(f, "  not timed: %llu returns without an entry stamp, %llu that changed CPU\n",
			(unsigned long long)s->lost, (unsigned long long)s->migrated);
}
