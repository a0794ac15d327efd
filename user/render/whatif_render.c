// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <json-c/json.h>

#include "report.h"
#include "table_render.h"
#include "whatif_render.h"

#define add(obj, key, val) json_object_object_add((obj), (key), (val))

/* --- text --------------------------------------------------------------------- */

/* CURRENT: the kernel's own layout, weighed by its own run's lookups (the measured walk beside it) */
static void print_row(FILE *f, const struct layout_prediction *p, bool current, bool counted,
		      const struct target_report *t)
{
	char nb[48], walk[96];

	snprintf(nb, sizeof(nb), "%llu/%llu", (unsigned long long)p->shape.entries,
		 (unsigned long long)p->shape.buckets);
	if (!counted)
		snprintf(walk, sizeof(walk), "-");
	else if (current && t->sum.completed && p->mean_walk_in_order >= 0)
		snprintf(walk, sizeof(walk), "%.2f [%.2f, %.2f]; in its order %.2f, measured %.2f",
			 p->mean_walk, p->mean_walk_lo, p->mean_walk_hi, p->mean_walk_in_order,
			 t->sum.mean_walked);
	else if (current && t->sum.completed)
		snprintf(walk, sizeof(walk), "%.2f [%.2f, %.2f], measured %.2f", p->mean_walk,
			 p->mean_walk_lo, p->mean_walk_hi, t->sum.mean_walked);
	else
		snprintf(walk, sizeof(walk), "%.2f [%.2f, %.2f]", p->mean_walk, p->mean_walk_lo,
			 p->mean_walk_hi);
	fprintf(f, "  %-15s %-8s %10llu %6.1f%%  %8llu   %s%s\n", nb, p->hash->name,
		(unsigned long long)p->shape.used,
		100.0 * (double)p->shape.used / (double)p->shape.buckets,
		(unsigned long long)p->shape.longest, walk, current ? "   <- the kernel's" : "");
}

static void print_verdict(FILE *f, const struct layout_prediction *p, const struct verdict *v)
{
	fprintf(f, "  %s, %llu slots: %s %.2f nodes per lookup [%+.2f, %+.2f] = %.1f ns, hashing "
		"costs %.1f ns %s: %s, net %+.1f ns per lookup [%+.1f, %+.1f]\n",
		p->hash->name, (unsigned long long)p->shape.buckets,
		v->nodes_saved >= 0 ? "saves" : "adds", fabs(v->nodes_saved), v->nodes_saved_lo,
		v->nodes_saved_hi, fabs(v->saved_ns), fabs(v->hash_extra),
		v->hash_extra >= 0 ? "more" : "less",
		v->pays_off ? "pays off" : v->net_lo > 0 ? "costs more" : "no clear gain",
		v->net, v->net_lo, v->net_hi);
}

/* The costs the verdicts weighed: every bucket function timed so far, and a node. */
static void print_costs(FILE *f, const struct whatif_table *w, const struct whatif_costs *c)
{
	const struct table_hash *h;
	int i;

	fprintf(f, "  costs here, ns, median [95%%]: a node %.2f [%.2f, %.2f] (%s)", w->node_cost.median,
		w->node_cost.lo, w->node_cost.hi, w->node_cost_source);
	for (i = 0; (h = table_hash_at(i)); i++)
		if (c->known[i])
			fprintf(f, "; %s %.2f [%.2f, %.2f]", h->name, c->hash[i].median, c->hash[i].lo,
				c->hash[i].hi);
	fprintf(f, "\n");
}

static void print_head(FILE *f, const struct whatif_table *w, const char *lookups_from)
{
	const struct table_snapshot *s = w->t->snapshot, *weigh = w->weigh;
	char size[32];

	table_size_text(s->shape.buckets, size, sizeof(size));
	fprintf(f, "%s: %s, %llu entries in %s buckets, %s hash%s\n", w->t->traced, w->t->table,
		(unsigned long long)s->shape.entries, size, s->hash->name,
		w->counted ? "" : " (no lookups counted: trace with --snapshot and -d)");
	if (weigh != s)
		fprintf(f, "  walks weighed by the lookups of %s\n", lookups_from);
	if (w->counted && (weigh->counts_dropped || weigh->ncounts == weigh->counts_limit))
		fprintf(f, "  %llu lookups of keys past the key map's %llu were not counted\n",
			(unsigned long long)weigh->counts_dropped,
			(unsigned long long)weigh->counts_limit);
	fprintf(f, "  %-15s %-8s %17s  %8s   %s\n", "nodes/buckets", "hash", "buckets used",
		"longest", "mean walk per lookup [best, worst order]");
}

/* --entries: the sizes filled to that many entries, and the model they come from */
static void print_filled(FILE *f, const struct whatif_table *w)
{
	const struct table_snapshot *s = w->t->snapshot;
	int i, n = 0;

	for (i = 0; i < w->nlayouts; i++) {
		const struct uniform_fill *u = &w->layouts[i].fill;

		if (!w->layouts[i].filled)
			continue;
		if (!n++) {
			fprintf(f, "  filled to %llu entries, each in an independent, uniformly random "
				"bucket (the snapshot's own layout against that: dispersion p = %.3g%s):\n",
				(unsigned long long)u->entries, s->uniform.p_value,
				s->uniform.p_value < 0.001 ? ", CLUSTERED: the model does not hold" : "");
			fprintf(f, "  %-15s %-8s %26s  %14s   %s\n", "entries/buckets", "hash",
				"buckets used +- sd", "longest [95%]", "mean walk: hit, miss");
		}
		fprintf(f, "  %7llu/%-7llu %-8s %12.0f %6.1f%% +- %4.0f  %5.2f [%2.0f, %2.0f]   %.2f, %.2f\n",
			(unsigned long long)u->entries, (unsigned long long)u->slots,
			w->layouts[i].p.hash->name, u->used, 100.0 * u->used / (double)u->slots,
			u->used_sd, u->longest, u->longest_lo, u->longest_hi, u->walk_hit, u->walk_miss);
	}
}

void whatif_print_text(FILE *f, const struct whatif_table *w, const struct whatif_costs *c,
		       const char *lookups_from)
{
	const struct table_snapshot *s = w->t->snapshot;
	int i;

	print_head(f, w, lookups_from);
	for (i = 0; i < w->nlayouts; i++)
		if (!w->layouts[i].filled)
			print_row(f, &w->layouts[i].p, i == 0 && w->weigh == s, w->counted, w->t);
	fprintf(f, "  measured        %-8s %10llu %6.1f%%  %8llu   %s\n", s->hash->name,
		(unsigned long long)s->shape.used,
		100.0 * (double)s->shape.used / (double)s->shape.buckets,
		(unsigned long long)s->shape.longest, w->t->sum.completed ? "(above)" : "-");
	if (w->identity)
		fprintf(f, "  identity: the kernel's own layout, predicted from the keys, is the "
			"snapshot exactly\n");
	else
		fprintf(f, "  identity: the kernel's own layout, predicted from the keys, DIFFERS from "
			"the snapshot: %s\n", w->current->identity_caveat ? w->current->identity_caveat :
			"the bucket function is not the kernel's");
	print_filled(f, w);
	if (w->priced) {
		print_costs(f, w, c);
		fprintf(f, "  verdicts:\n");
		for (i = 0; i < w->nlayouts; i++)
			if (w->layouts[i].has_verdict)
				print_verdict(f, &w->layouts[i].p, &w->layouts[i].v);
	}
	fprintf(f, "\n");
}

void whatif_print_report(FILE *f, const struct whatif_table *w)
{
	int i;

	fprintf(f, "\nWhat if (%s: a node %.2f ns from %s):\n", w->t->traced, w->node_cost.median,
		w->node_cost_source);
	for (i = 0; i < w->nlayouts; i++)
		if (w->layouts[i].has_verdict)
			print_verdict(f, &w->layouts[i].p, &w->layouts[i].v);
}

/* --- JSON --------------------------------------------------------------------- */

static struct json_object *redrawn_json(const struct layout_prediction *p)
{
	struct json_object *r = json_object_new_object();

	add(r, "mean", json_object_new_double(p->redrawn_walk));
	add(r, "sd", json_object_new_double(p->redrawn_walk_sd));
	add(r, "p2_5", json_object_new_double(p->redrawn_walk_lo));
	add(r, "p97_5", json_object_new_double(p->redrawn_walk_hi));
	return r;
}

static struct json_object *prediction_json(const struct layout_prediction *p, bool current,
					   bool counted)
{
	struct json_object *o = json_object_new_object();

	add(o, "hash", json_object_new_string(p->hash->name));
	if (!(p->slots & (p->slots - 1)))
		add(o, "bits", json_object_new_int((int)table_slot_bits(p->slots)));
	add(o, "slots", json_object_new_uint64(p->shape.buckets));
	table_shape_json(&p->shape, o);
	add(o, "mean_walk", counted ? json_object_new_double(p->mean_walk) : NULL);
	add(o, "mean_walk_lo", counted ? json_object_new_double(p->mean_walk_lo) : NULL);
	add(o, "mean_walk_hi", counted ? json_object_new_double(p->mean_walk_hi) : NULL);
	add(o, "mean_walk_redrawn", counted && p->redrawn_walk >= 0 ? redrawn_json(p) : NULL);
	add(o, "current", json_object_new_boolean(current));
	if (current && counted && p->mean_walk_in_order >= 0)
		add(o, "mean_walk_in_order", json_object_new_double(p->mean_walk_in_order));
	return o;
}

/*
 * --entries: a size filled under uniform hashing. The keys of a
 * prediction, rounded (chain_lengths the expected buckets per length,
 * down to those under half a bucket), and the model's own values.
 */
static struct json_object *filled_json(const struct whatif_layout *l, double p_value)
{
	const struct uniform_fill *u = &l->fill;
	struct json_object *o = json_object_new_object(), *m = json_object_new_object();
	struct json_object *rows = json_object_new_array(), *row;
	__u64 k;

	add(o, "hash", json_object_new_string(l->p.hash->name));
	if (!(u->slots & (u->slots - 1)))
		add(o, "bits", json_object_new_int((int)table_slot_bits(u->slots)));
	add(o, "slots", json_object_new_uint64(u->slots));
	add(o, "entries", json_object_new_uint64(u->entries));
	add(o, "buckets", json_object_new_uint64(u->slots));
	add(o, "buckets_used", json_object_new_uint64((__u64)llround(u->used)));
	add(o, "longest_chain", json_object_new_uint64((__u64)llround(u->longest)));
	for (k = 0; k <= u->max_len; k++) {
		if (u->by_len[k] < 0.5)
			continue;
		row = json_object_new_object();
		add(row, "min", json_object_new_uint64(k));
		add(row, "max", json_object_new_uint64(k));
		add(row, "count", json_object_new_uint64((__u64)llround(u->by_len[k])));
		json_object_array_add(rows, row);
	}
	add(o, "chain_lengths", rows);
	/* the model's walks are per hit and per miss (below): no weighed mean */
	add(o, "mean_walk", NULL);
	add(o, "current", json_object_new_boolean(false));
	add(m, "name", json_object_new_string("uniform"));
	add(m, "buckets_used", json_object_new_double(u->used));
	add(m, "buckets_used_sd", json_object_new_double(u->used_sd));
	add(m, "longest_chain", json_object_new_double(u->longest));
	add(m, "longest_chain_p2_5", json_object_new_double(u->longest_lo));
	add(m, "longest_chain_p97_5", json_object_new_double(u->longest_hi));
	add(m, "mean_walk_hit", json_object_new_double(u->walk_hit));
	add(m, "mean_walk_miss", json_object_new_double(u->walk_miss));
	add(m, "snapshot_p_value", json_object_new_double(p_value));
	add(o, "model", m);
	return o;
}

static struct json_object *verdict_json(const struct verdict *v, const char *source)
{
	struct json_object *o = json_object_new_object();

	add(o, "nodes_saved", json_object_new_double(v->nodes_saved));
	add(o, "nodes_saved_lo", json_object_new_double(v->nodes_saved_lo));
	add(o, "nodes_saved_hi", json_object_new_double(v->nodes_saved_hi));
	add(o, "cost_per_node", json_object_new_double(v->cost_per_node));
	add(o, "cost_source", json_object_new_string(source));
	add(o, "hash_extra", json_object_new_double(v->hash_extra));
	add(o, "net", json_object_new_double(v->net));
	add(o, "net_lo", json_object_new_double(v->net_lo));
	add(o, "net_hi", json_object_new_double(v->net_hi));
	add(o, "pays_off", json_object_new_boolean(v->pays_off));
	return o;
}

static void add_costs_json(struct json_object *o, const struct whatif_table *w,
			   const struct whatif_costs *c)
{
	struct json_object *n = estimate_json(w->node_cost), *hc = json_object_new_object();
	const struct table_hash *h;
	int i;

	add(n, "source", json_object_new_string(w->node_cost_source));
	add(o, "node_cost", n);
	add(o, "hash_costs", hc);
	for (i = 0; (h = table_hash_at(i)); i++)
		if (c->known[i])
			add(hc, h->name, estimate_json(c->hash[i]));
}

struct json_object *whatif_json(const struct whatif_table *w, const struct whatif_costs *c,
				const char *lookups_from)
{
	const struct table_snapshot *s = w->t->snapshot;
	struct json_object *o = json_object_new_object(), *preds = json_object_new_array(), *meas, *p;
	int i;

	add(o, "traced", json_object_new_string(w->t->traced));
	if (w->weigh != s)
		add(o, "lookups_from", json_object_new_string(lookups_from));
	add(o, "recipe", json_object_new_string(w->t->recipe));
	for (i = 0; i < w->nlayouts; i++) {
		if (w->layouts[i].filled) {
			json_object_array_add(preds, filled_json(&w->layouts[i], s->uniform.p_value));
			continue;
		}
		p = prediction_json(&w->layouts[i].p, i == 0, w->counted);
		if (w->layouts[i].has_verdict)
			add(p, "verdict", verdict_json(&w->layouts[i].v, w->node_cost_source));
		json_object_array_add(preds, p);
	}
	add(o, "predictions", preds);
	meas = table_shape_json(&s->shape, json_object_new_object());
	add(meas, "mean_walk", w->t->sum.completed && w->weigh == s ?
	    json_object_new_double(w->t->sum.mean_walked) : NULL);
	add(o, "measured", meas);
	add(o, "identity", json_object_new_boolean(w->identity));
	if (w->priced)
		add_costs_json(o, w, c);
	return o;
}
