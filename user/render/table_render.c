// SPDX-License-Identifier: GPL-2.0
/*
 * A table snapshot in the run file and on the terminal (pure: no
 * system calls). The "keys" and "lookups_by_key" members carry what
 * pftrace whatif needs, packed (model/table.h keys_encode()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <json-c/json.h>

#include "report.h"
#include "table_render.h"

#define add(obj, key, val) json_object_object_add((obj), (key), (val))
#define u64(v) json_object_new_uint64(v)

static struct json_object *shape_lengths_json(const struct table_shape *s)
{
	struct json_object *arr = json_object_new_array();
	__u64 l;

	for (l = 0; s->by_len && l <= s->longest; l++) {
		struct json_object *row;

		if (!s->by_len[l])
			continue;
		row = json_object_new_object();
		add(row, "min", u64(l));
		add(row, "max", u64(l));
		add(row, "count", u64(s->by_len[l]));
		json_object_array_add(arr, row);
	}
	return arr;
}

struct json_object *table_shape_json(const struct table_shape *s, struct json_object *o)
{
	add(o, "entries", u64(s->entries));
	add(o, "buckets", u64(s->buckets));
	add(o, "buckets_used", u64(s->used));
	add(o, "longest_chain", u64(s->longest));
	add(o, "chain_lengths", shape_lengths_json(s));
	return o;
}

static struct json_object *packed(char *text)
{
	struct json_object *o = json_object_new_string(text ? text : "");

	free(text);
	return o;
}

/*
 * Whether the run file holds the keys: they fit it, and every entry's
 * key is there (one read back from a file that left them out has none).
 */
static bool keys_kept(const struct table_snapshot *s)
{
	return s->nkeys == s->shape.entries &&
	       keys_fit_runfile(s->hash, s->nkeys, s->counted ? s->ncounts : 0);
}

struct json_object *snapshot_json(const struct table_snapshot *s)
{
	struct json_object *o = table_shape_json(&s->shape, json_object_new_object());
	struct json_object *u = json_object_new_object(), *k;
	const struct table_hash *h = s->hash;

	add(u, "buckets_used", json_object_new_double(s->uniform.used));
	add(u, "longest_chain", json_object_new_double(s->uniform.longest));
	add(u, "dispersion", json_object_new_double(s->uniform.dispersion));
	add(u, "df", json_object_new_int(s->uniform.df));
	add(u, "p_value", json_object_new_double(s->uniform.p_value));
	add(o, "uniform", u);
	add(o, "took_ms", json_object_new_double(s->took_ms));
	add(o, "changed", json_object_new_boolean(s->changed_buckets > 0));
	add(o, "changed_buckets", u64(s->changed_buckets));
	add(o, "cut", u64(s->cut));
	add(o, "restarts", u64(s->restarts));
	add(o, "hash", json_object_new_string(h ? h->name : "none"));
	/* bits only where the size is a power of two (conntrack's need not be) */
	if (s->shape.buckets && !(s->shape.buckets & (s->shape.buckets - 1)))
		add(o, "bits", json_object_new_int((int)s->bits));

	k = json_object_new_object();
	add(k, "layout", json_object_new_string(s->key_layout ? s->key_layout : ""));
	add(k, "count", u64(s->nkeys));
	/* a run file stays readable (16 MB): past that, the shape without its keys */
	if (keys_kept(s))
		add(k, "base64", packed(keys_encode(h, s->keys, s->nkeys)));
	else
		add(k, "omitted", json_object_new_string("too many entries for a run file"));
	add(o, "keys", k);
	if (s->counted) {
		k = json_object_new_object();
		add(k, "count", u64(s->ncounts));
		add(k, "limit", u64(s->counts_limit));
		add(k, "dropped", u64(s->counts_dropped));
		if (keys_fit_runfile(h, s->nkeys, s->ncounts))
			add(k, "base64", packed(key_counts_encode(h, s->counts, s->ncounts)));
		add(o, "lookups_by_key", k);
	}
	return o;
}

void table_size_text(__u64 slots, char *buf, size_t len)
{
	if (slots && !(slots & (slots - 1)))
		snprintf(buf, len, "2^%u", table_slot_bits(slots));
	else
		snprintf(buf, len, "%llu", (unsigned long long)slots);
}

void render_snapshot_text(FILE *f, const struct table_snapshot *s)
{
	const struct table_shape *t = &s->shape;
	double used_pct = t->buckets ? 100.0 * (double)t->used / (double)t->buckets : 0;
	__u64 l, most = 0;
	char size[32];

	table_size_text(t->buckets, size, sizeof(size));
	fprintf(f, "\n  snapshot of the whole table (%s hash, %s buckets), walked in %.1f ms%s\n",
		s->hash ? s->hash->name : "none", size, s->took_ms,
		s->changed_buckets ? "" : ", unchanged on a second walk");
	if (s->changed_buckets)
		fprintf(f, "  CHANGED: %llu buckets differed on a second walk: the table moved "
			"underneath\n", (unsigned long long)s->changed_buckets);
	fprintf(f, "                      observed       ideal hashing\n");
	fprintf(f, "  entries         %12llu\n", (unsigned long long)t->entries);
	fprintf(f, "  buckets used    %12llu  %12.1f  (%.1f%% of %llu)\n",
		(unsigned long long)t->used, s->uniform.used, used_pct,
		(unsigned long long)t->buckets);
	fprintf(f, "  longest chain   %12llu  %12.1f\n", (unsigned long long)t->longest,
		s->uniform.longest);
	fprintf(f, "  hash quality    dispersion %.4g on %d df: p = %.3g%s\n",
		s->uniform.dispersion, s->uniform.df, s->uniform.p_value,
		s->uniform.p_value < 0.001 ? " (clustered: worse than ideal hashing)" : "");
	for (l = 0; t->by_len && l <= t->longest; l++)
		if (t->by_len[l] > most)
			most = t->by_len[l];
	fprintf(f, "  buckets by chain length:\n");
	for (l = 0; t->by_len && l <= t->longest; l++) {
		int bar = most ? (int)(40.0 * (double)t->by_len[l] / (double)most + 0.5) : 0;

		if (!t->by_len[l])
			continue;
		fprintf(f, "  %6llu  %10llu  |%.*s\n", (unsigned long long)l,
			(unsigned long long)t->by_len[l], bar,
			"****************************************");
	}
	if (!keys_kept(s))
		fprintf(f, "  keys: too many for a run file (16 MB); whatif cannot use this snapshot\n");
	if (s->counted)
		fprintf(f, "  lookups by key: %llu keys counted (map of %llu), %llu lookups dropped\n",
			(unsigned long long)s->ncounts, (unsigned long long)s->counts_limit,
			(unsigned long long)s->counts_dropped);
	if (s->cut)
		fprintf(f, "  %llu chains were cut at %d nodes\n", (unsigned long long)s->cut,
			PFT_SNAP_MAX_CHAIN);
}
