// SPDX-License-Identifier: GPL-2.0
/*
 * One target of a run file: its counts with every invariant the writer
 * guarantees checked, its histograms, duty cycle, latency fit, samples
 * and snapshot.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duty.h"
#include "runfile_reader.h"

/*
 * --sample's duty cycle, if the target was traced with one: every value
 * in the range pftrace writes, and a scale that follows from the others
 * within rounding (a file that says otherwise is refused, not believed).
 */
static int get_duty(struct reader *r, struct json_object *t, const char *where,
		    double duration_s, struct duty_summary *d)
{
	/* a merge's CPUs are its first run's: the bound holds for one run only */
	int cpus = r->rf->rep.merged_runs > 1 ? 0 : r->rf->rep.cpus;
	struct json_object *o = rd_member(t, "duty_cycle");
	__u64 one_in, slices;
	char dwhere[64];

	memset(d, 0, sizeof(*d));
	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return rd_fail(r, "%s.duty_cycle is not an object", where);
	if (rd_count(r, o, where, "one_in", true, &one_in) ||
	    rd_count(r, o, where, "slices", true, &slices))
		return -1;
	d->slice_ms = rd_number(r, o, "slice_ms");
	d->attached_s = rd_number(r, o, "attached_s");
	d->scale = rd_number(r, o, "scale");
	d->switching_s = rd_number(r, o, "switching_s");
	d->attach_ms = rd_number(r, o, "attach_ms");
	d->detach_ms = rd_number(r, o, "detach_ms");
	snprintf(dwhere, sizeof(dwhere), "%s.duty_cycle", where);
	if (rd_flag(r, o, dwhere, "slice_chosen", &d->slice_chosen) ||
	    rd_flag(r, o, dwhere, "stays_attached", &d->stays_attached))
		return -1;
	d->switch_cpu_ms = rd_number(r, o, "switch_cpu_ms");
	d->walk_cpu_s = rd_number(r, o, "walk_cpu_s");
	if (one_in < 2 || one_in > 10000 || slices > 1000000000)
		return rd_fail(r, "%s.duty_cycle: one_in %llu or slices %llu out of range", where,
			       (unsigned long long)one_in, (unsigned long long)slices);
	if (!(d->slice_ms >= 1 && d->slice_ms <= 1e5) || !(d->attached_s > 0 && d->attached_s <= 1e9) ||
	    !(d->scale >= 0.5 && d->scale <= 1e6) || !(d->switching_s >= 0 && d->switching_s <= 1e9))
		return rd_fail(r, "%s.duty_cycle: slice_ms, attached_s or scale out of range", where);
	if (!(d->attach_ms >= 0 && d->attach_ms <= 1e7) || !(d->detach_ms >= 0 && d->detach_ms <= 1e7))
		return rd_fail(r, "%s.duty_cycle: attach_ms or detach_ms out of range", where);
	if (!(d->switch_cpu_ms >= 0 && d->switch_cpu_ms <= 1e7) ||
	    !(d->walk_cpu_s >= 0 && d->walk_cpu_s <= 1e9))
		return rd_fail(r, "%s.duty_cycle: switch_cpu_ms or walk_cpu_s out of range", where);
	/* what pftrace never writes: a chosen slice past its longest, or a
	 * switch where the programs stayed attached (and chose nothing) */
	if (d->slice_chosen && d->slice_ms > DUTY_MAX_CHOSEN_SLICE_MS)
		return rd_fail(r, "%s.duty_cycle: a chosen slice of %g ms, past %d", where, d->slice_ms,
			       DUTY_MAX_CHOSEN_SLICE_MS);
	if (d->stays_attached && (d->slice_chosen || d->switching_s > 0 || d->attach_ms > 0 ||
				  d->detach_ms > 0 || d->switch_cpu_ms > 0))
		return rd_fail(r, "%s.duty_cycle: stays_attached, yet switched or chose its slices", where);
	/* one run's walks ran on at most its CPUs at once */
	if (cpus > 0 && d->walk_cpu_s > d->attached_s * cpus * 1.01)
		return rd_fail(r, "%s.duty_cycle: walk_cpu_s %g is more than %d CPUs over attached_s %g",
			       where, d->walk_cpu_s, cpus, d->attached_s);
	if (duration_s > 0 && fabs(d->scale * d->attached_s - duration_s) > 1e-3 * duration_s + 1e-6)
		return rd_fail(r, "%s.duty_cycle: scale %g is not the duration %g s over attached_s %g",
			       where, d->scale, duration_s, d->attached_s);
	d->one_in = (unsigned int)one_in;
	d->slices = (unsigned int)slices;
	return 0;
}

int rd_hist(struct reader *r, struct json_object *arr, const char *where, __u64 *slots)
{
	size_t i, n;
	__u64 prev = 0;

	if (!json_object_is_type(arr, json_type_array))
		return rd_fail(r, "%s is not a list of buckets", where);
	n = json_object_array_length(arr);
	if (n > PFT_MAX_WALK + 1)
		return rd_fail(r, "%s has %zu buckets; pftrace writes at most %d", where, n,
			       PFT_MAX_WALK + 1);
	for (i = 0; i < n; i++) {
		struct json_object *b = json_object_array_get_idx(arr, i);
		__u64 min, max, count;

		if (rd_count(r, b, where, "min", true, &min) ||
		    rd_count(r, b, where, "max", true, &max) ||
		    rd_count(r, b, where, "count", true, &count))
			return -1;
		if (min != max || min > PFT_MAX_WALK)
			return rd_fail(r, "%s has a bucket %llu..%llu pftrace does not write", where,
				       (unsigned long long)min, (unsigned long long)max);
		/* pftrace writes each bucket once, in order */
		if (slots[min] || (i && min <= prev))
			return rd_fail(r, "%s: bucket %llu is out of order or repeated", where,
				       (unsigned long long)min);
		slots[min] = count;
		prev = min;
	}
	return 0;
}

/*
 * What the writer guarantees of a target's counts, checked without
 * wrap-around: the histograms sum to the walks, no hit is at a position
 * past the walk's length, and every lookup is a walk, a truncation or a
 * read fault.
 */
static int check_target_sums(struct reader *r, const char *where, const struct chain_stats *s)
{
	__u64 completed = 0, hits = 0, nodes = 0, term, sum;
	int i;

	for (i = 0; i < PFT_HIST_SLOTS; i++) {
		if (s->hit_pos_hist[i] > s->chain_walked_hist[i])
			return rd_fail(r, "%s: %llu hits at position %d but only %llu walks of %d nodes",
				       where, (unsigned long long)s->hit_pos_hist[i], i,
				       (unsigned long long)s->chain_walked_hist[i], i);
		if (__builtin_mul_overflow(s->chain_walked_hist[i], (__u64)i, &term))
			return rd_fail(r, "%s: nodes walked overflows", where);
		if (rd_add(r, "chain_walked", completed, s->chain_walked_hist[i], &completed) ||
		    rd_add(r, "hit_position", hits, s->hit_pos_hist[i], &hits) ||
		    rd_add(r, "nodes walked", nodes, term, &nodes))
			return -1;
	}
	if (s->hit_pos_hist[0])
		return rd_fail(r, "%s: a walk of no node cannot hit", where);
	if (hits > s->hits)
		return rd_fail(r, "%s: %llu walks hit but the kernel found only %llu", where,
			       (unsigned long long)hits, (unsigned long long)s->hits);
	if (s->next_null_at_hit > hits)
		return rd_fail(r, "%s: next_null_at_hit %llu is more than the %llu walk hits", where,
			       (unsigned long long)s->next_null_at_hit, (unsigned long long)hits);
	if (s->self_disagree > completed)
		return rd_fail(r, "%s: self_check.disagree %llu is more than the %llu walks", where,
			       (unsigned long long)s->self_disagree, (unsigned long long)completed);
	if (rd_add(r, "walks + truncated", completed, s->truncated, &sum) ||
	    rd_add(r, "walks + truncated + read_faults", sum, s->read_faults, &sum))
		return -1;
	if (sum != s->lookups)
		return rd_fail(r, "%s: %llu walks + %llu truncated + %llu read faults != %llu lookups",
			       where, (unsigned long long)completed, (unsigned long long)s->truncated,
			       (unsigned long long)s->read_faults, (unsigned long long)s->lookups);
	return 0;
}

static int read_snapshot(struct reader *r, struct json_object *o, const char *where,
			 struct table_snapshot *s);
static int check_key_counts(struct reader *r, const char *where,
			    const struct table_snapshot *snap, const struct chain_stats *s);

/* A target's names and words: what was traced, how, and the loop's shape. */
static int read_target_names(struct reader *r, struct json_object *t, struct target_report *tr,
			     const char *where)
{
	struct json_object *v;

	tr->requested = rd_string(r, t, "requested");
	tr->traced = rd_string(r, t, "traced");
	if (!tr->traced[0])
		return rd_fail(r, "%s has no \"traced\" function", where);
	tr->recipe = rd_string(r, t, "recipe");
	tr->table = rd_string(r, t, "table");
	tr->method = rd_string(r, t, "method");
	tr->loads = rd_string(r, t, "loads");
	if (tr->loads[0] && strcmp(tr->loads, "direct") && strcmp(tr->loads, "probe"))
		return rd_fail(r, "%s has \"loads\" '%s'; pftrace writes direct or probe", where,
			       tr->loads);
	tr->adds = rd_string(r, t, "adds");
	if (tr->adds[0] && strcmp(tr->adds, "plain") && strcmp(tr->adds, "atomic"))
		return rd_fail(r, "%s has \"adds\" '%s'; pftrace writes plain or atomic", where,
			       tr->adds);
	tr->plan_note = rd_string(r, t, "plan");
	tr->detail = rd_string(r, t, "layout");
	tr->iterator = rd_string(r, t, "iterator");
	v = rd_member(t, "chain_end");
	tr->chain_end = v && !strcmp(json_object_get_string(v), "nulls") ? PFT_END_NULLS : PFT_END_NULL;
	return 0;
}

/* Its counts and how it was thinned (one of sampled_1_in, duty_cycle), and their sum. */
static int read_target_counts(struct reader *r, struct json_object *t, struct target_report *tr,
			      const char *where)
{
	struct chain_stats *s = &tr->stats;
	struct json_object *sc = rd_member(t, "self_check");
	__u64 sample, slots, sum;

	if (rd_count(r, t, where, "table_slots", false, &slots) ||
	    rd_count(r, t, where, "sampled_1_in", false, &sample) ||
	    rd_count(r, t, where, "calls", false, &s->calls) ||
	    rd_count(r, t, where, "lookups", true, &s->lookups) ||
	    rd_count(r, t, where, "hits", true, &s->hits) ||
	    rd_count(r, t, where, "misses", true, &s->misses) ||
	    rd_count(r, t, where, "truncated", false, &s->truncated) ||
	    rd_count(r, t, where, "read_faults", false, &s->read_faults) ||
	    rd_count(r, t, where, "lost", false, &s->lost) ||
	    rd_count(r, t, where, "next_null_at_hit", false, &s->next_null_at_hit))
		return -1;
	tr->table_slots = slots;
	if (sample > 1000000)
		return rd_fail(r, "%s.sampled_1_in is %llu; pftrace samples at most 1 in 1000000",
			       where, (unsigned long long)sample);
	tr->sample_every = sample ? (unsigned int)sample : 1;
	if (get_duty(r, t, where, r->rf->rep.duration_s, &tr->duty))
		return -1;
	if (tr->duty.one_in > 1 && tr->sample_every > 1)
		return rd_fail(r, "%s: both sampled_1_in and duty_cycle; pftrace writes one", where);
	if (rd_add(r, "hits + misses", s->hits, s->misses, &sum))
		return -1;
	if (sum != s->lookups)
		return rd_fail(r, "%s: hits %llu + misses %llu != lookups %llu", where,
			       (unsigned long long)s->hits, (unsigned long long)s->misses,
			       (unsigned long long)s->lookups);
	if (!sc)
		return rd_fail(r, "%s has no \"self_check\"", where);
	return rd_count(r, sc, where, "disagree", true, &s->self_disagree);
}

/*
 * Its histograms, checked against its counts, and what follows from them;
 * without them (withheld after a failed self-check), the file's word.
 */
static int read_target_walks(struct reader *r, struct json_object *t, int idx, const char *where)
{
	struct target_report *tr = &r->rf->rep.targets[idx];
	struct chain_stats *s = &tr->stats;
	struct json_object *v = rd_member(t, "chain_walked");
	__u64 calls, agree;

	r->rf->has_histograms[idx] = v != NULL;
	if (v && rd_hist(r, v, "chain_walked", s->chain_walked_hist))
		return -1;
	v = rd_member(t, "hit_position");
	/* hit positions are checked against the walks: none without them */
	if ((v || s->next_null_at_hit) && !r->rf->has_histograms[idx])
		return rd_fail(r, "%s has %s but no chain_walked", where,
			       v ? "hit_position" : "next_null_at_hit");
	if (v && rd_hist(r, v, "hit_position", s->hit_pos_hist))
		return -1;
	if (r->rf->has_histograms[idx] && check_target_sums(r, where, s))
		return -1;
	if (s->calls == 0)
		s->calls = s->lookups;
	calls = s->calls;
	chain_stats_derive(s, tr->sample_every);
	s->calls = calls;
	if (r->rf->has_histograms[idx])
		return 0;
	if (rd_count(r, rd_member(t, "self_check"), where, "agree", true, &agree))
		return -1;
	s->self_agree = agree;
	return 0;
}

/* a latency fit's figures, ns or cycles: far past any cost, short of overflow */
#define FIT_MAX 1e12

/* --latency's fit, kept only when its numbers hold together */
static void read_latency_fit(struct reader *r, struct json_object *t, int idx)
{
	struct json_object *lat = rd_member(t, "latency"), *v = rd_member(lat, "fit");
	struct target_report *tr = &r->rf->rep.targets[idx];
	struct latency_fit *fit = &r->rf->lat_fits[idx];

	if (!v || !json_object_is_type(v, json_type_object))
		return;
	fit->per_node = rd_range(r, v, "per_node", -FIT_MAX, FIT_MAX);
	fit->per_node_lo = rd_range(r, v, "per_node_lo", -FIT_MAX, FIT_MAX);
	fit->per_node_hi = rd_range(r, v, "per_node_hi", -FIT_MAX, FIT_MAX);
	fit->fixed = rd_range(r, v, "fixed", -FIT_MAX, FIT_MAX);
	fit->residual = rd_range(r, v, "residual", -FIT_MAX, FIT_MAX);   /* absent before it was written: 0 */
	fit->ok = isfinite(fit->residual) && fit->residual >= 0 && isfinite(fit->per_node) &&
		  fit->per_node_lo <= fit->per_node && fit->per_node <= fit->per_node_hi;
	tr->latency_fit = fit->ok ? fit : NULL;
	tr->latency_unit = rd_string(r, lat, "unit");
}

/* A recipe's own counts, [{"name", "count", "what"}], at most PFT_RECIPE_COUNTS */
static int read_recipe_counts(struct reader *r, struct json_object *t, struct target_report *tr,
			      const char *where)
{
	struct json_object *a = rd_member(t, "recipe_counts");
	size_t i, n = a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;

	if (n > PFT_RECIPE_COUNTS)
		return rd_fail(r, "%s.recipe_counts holds %zu counts; pftrace writes at most %d",
			       where, n, PFT_RECIPE_COUNTS);
	for (i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(a, i);
		struct recipe_count *rc = &tr->recipe_counts[i];

		if (rd_count(r, c, "recipe_counts[]", "count", true, &rc->value))
			return -1;
		rc->name = rd_string(r, c, "name");
		rc->what = rd_string(r, c, "what");
	}
	tr->nrecipe_counts = (int)n;
	return 0;
}

/* What else a target may carry: its programs' run time, samples, a latency fit, a snapshot. */
static int read_target_extras(struct reader *r, struct json_object *t, int idx, const char *where)
{
	struct target_report *tr = &r->rf->rep.targets[idx];
	struct json_object *v = rd_member(t, "overhead");
	char swhere[48];

	if (v && json_object_is_type(v, json_type_object)) {
		tr->overhead_known = true;
		if (rd_count(r, v, "overhead", "run_time_ns", false, &tr->run_time_ns) ||
		    rd_count(r, v, "overhead", "runs", false, &tr->runs) ||
		    rd_count(r, v, "overhead", "recursion_misses", false, &tr->recursion_misses))
			return -1;
	}
	v = rd_member(t, "samples");
	if (v && json_object_is_type(v, json_type_object)) {
		struct function_profile *p = &r->rf->profiles[idx];

		snprintf(p->name, sizeof(p->name), "%s", tr->traced);
		if (runfile_read_profile(r, v, where, p))
			return -1;
		r->where = r->target_at;
		tr->profile = p;
	}
	v = rd_member(t, "by");
	if (v) {
		if (runfile_read_by(r, v, where, &tr->stats, &r->rf->by[idx]))
			return -1;
		tr->by = &r->rf->by[idx];
	}
	read_latency_fit(r, t, idx);
	if (read_recipe_counts(r, t, tr, where))
		return -1;
	v = rd_member(t, "snapshot");
	if (!v)
		return 0;
	snprintf(swhere, sizeof(swhere), "%s.snapshot", where);
	if (read_snapshot(r, v, swhere, &r->rf->snaps[idx]) ||
	    check_key_counts(r, swhere, &r->rf->snaps[idx], &tr->stats))
		return -1;
	uniform_expectation(&r->rf->snaps[idx].shape, &r->rf->snaps[idx].uniform);
	tr->snapshot = &r->rf->snaps[idx];
	return 0;
}

int runfile_read_target(struct reader *r, struct json_object *t, int idx)
{
	struct target_report *tr = &r->rf->rep.targets[idx];
	char where[32];

	snprintf(where, sizeof(where), "targets[%d]", idx);
	if (!t || !json_object_is_type(t, json_type_object))
		return rd_fail(r, "%s is not an object", where);
	snprintf(r->target_at, sizeof(r->target_at), "%s", where);
	r->where = r->target_at;
	if (read_target_names(r, t, tr, where) || read_target_counts(r, t, tr, where) ||
	    read_target_walks(r, t, idx, where) || read_target_extras(r, t, idx, where))
		return -1;
	report_finish_target(tr);
	/* pftrace withholds the histograms of walks only when the self-check fails */
	if (!r->rf->has_histograms[idx] && tr->sum.self_check_ok && tr->stats.lookups)
		return rd_fail(r, "%s has no chain_walked, yet its self-check passed", where);
	return r->failed ? -1 : 0;
}

/* A bucket count per chain length, every invariant of a table checked. */
static int read_shape(struct reader *r, struct json_object *o, const char *where,
		      struct table_shape *s)
{
	struct json_object *arr = rd_member(o, "chain_lengths");
	__u64 buckets = 0, entries = 0, used = 0, longest = 0, min, max, count;
	size_t i, n;

	memset(s, 0, sizeof(*s));
	if (rd_count(r, o, where, "entries", true, &s->entries) ||
	    rd_count(r, o, where, "buckets", true, &s->buckets) ||
	    rd_count(r, o, where, "buckets_used", true, &s->used) ||
	    rd_count(r, o, where, "longest_chain", true, &s->longest))
		return -1;
	if (!arr || !json_object_is_type(arr, json_type_array))
		return rd_fail(r, "%s has no \"chain_lengths\" array", where);
	if (s->longest > PFT_SNAP_MAX_CHAIN)
		return rd_fail(r, "%s.longest_chain %llu is past pftrace's %d", where,
			       (unsigned long long)s->longest, PFT_SNAP_MAX_CHAIN);
	s->by_len = calloc(s->longest + 1, sizeof(*s->by_len));
	if (!s->by_len)
		return rd_fail(r, "out of memory");
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		struct json_object *row = json_object_array_get_idx(arr, i);

		if (rd_count(r, row, "chain_lengths[]", "min", true, &min) ||
		    rd_count(r, row, "chain_lengths[]", "max", true, &max) ||
		    rd_count(r, row, "chain_lengths[]", "count", true, &count))
			return -1;
		if (min != max || max > s->longest || s->by_len[max])
			return rd_fail(r, "%s.chain_lengths: row %zu is not one new length up to "
				       "longest_chain", where, i);
		s->by_len[max] = count;
		if (rd_add(r, "chain_lengths", buckets, count, &buckets) ||
		    (max && __builtin_mul_overflow(max, count, &count)) ||
		    rd_add(r, "chain_lengths", entries, max ? count : 0, &entries))
			return -1;
		used += max ? s->by_len[max] : 0;
		if (s->by_len[max] && max > longest)
			longest = max;
	}
	if (buckets != s->buckets || entries != s->entries || used != s->used ||
	    longest != s->longest)
		return rd_fail(r, "%s: chain_lengths give %llu buckets, %llu entries, %llu used, "
			       "longest %llu; the snapshot says %llu, %llu, %llu, %llu", where,
			       (unsigned long long)buckets, (unsigned long long)entries,
			       (unsigned long long)used, (unsigned long long)longest,
			       (unsigned long long)s->buckets, (unsigned long long)s->entries,
			       (unsigned long long)s->used, (unsigned long long)s->longest);
	return 0;
}

/* the most buckets a snapshot may say: the kernels' sizes are 32-bit */
#define SNAP_MAX_BUCKETS (1ULL << 32)

/*
 * A snapshot's size under hash H: 1 to SNAP_MAX_BUCKETS buckets, a size
 * H takes (a mask: powers of two only), and BITS (HAS_BITS: present)
 * exactly where BUCKETS is a power of two, and then its log2. Files
 * from before conntrack's recipe always have bits, and still read.
 */
static int check_snapshot_size(struct reader *r, const char *where, const struct table_hash *h,
			       __u64 buckets, bool has_bits, __u64 bits)
{
	bool pow2 = buckets && !(buckets & (buckets - 1));
	char said[24];

	if (!buckets || buckets > SNAP_MAX_BUCKETS)
		return rd_fail(r, "%s: %llu buckets, not 1 to 2^32", where,
			       (unsigned long long)buckets);
	if (!table_hash_takes(h, buckets))
		return rd_fail(r, "%s: %llu buckets under %s, which takes powers of two only (a mask)",
			       where, (unsigned long long)buckets, h->name);
	if (has_bits ? bits > 32 || buckets != 1ULL << bits : pow2) {
		snprintf(said, sizeof(said), has_bits ? "%llu" : "absent", (unsigned long long)bits);
		return rd_fail(r, "%s: %llu buckets with bits %s: a power of two has bits, its "
			       "log2, and any other size none", where, (unsigned long long)buckets, said);
	}
	return 0;
}

static int read_snapshot(struct reader *r, struct json_object *o, const char *where,
			 struct table_snapshot *s)
{
	struct json_object *keys = rd_member(o, "keys"), *counts = rd_member(o, "lookups_by_key");
	const struct table_hash *h;
	const char *name;
	__u64 bits, n;
	long long got;

	if (read_shape(r, o, where, &s->shape) || rd_count(r, o, where, "bits", false, &bits))
		return -1;
	name = rd_string(r, o, "hash");
	h = s->hash = table_hash_named(name);
	if (!h)
		return rd_fail(r, "%s.hash '%s' is no bucket function pftrace knows", where, name);
	if (check_snapshot_size(r, where, h, s->shape.buckets, rd_member(o, "bits") != NULL, bits))
		return -1;
	s->bits = (unsigned int)bits;
	s->took_ms = rd_number(r, o, "took_ms");
	if (rd_count(r, o, where, "changed_buckets", false, &s->changed_buckets) ||
	    rd_count(r, o, where, "cut", false, &s->cut) ||
	    rd_count(r, o, where, "restarts", false, &s->restarts))
		return -1;
	/* "uniform" is derived from the shape: the caller computes it anew */
	if (!keys)
		return rd_fail(r, "%s has no keys", where);
	s->key_layout = rd_string(r, keys, "layout");
	if (!rd_member(keys, "base64"))
		return 0;   /* omitted: too many for a run file; the shape stands */
	if (rd_count(r, keys, where, "count", true, &n))
		return -1;
	got = keys_decode(h, json_object_get_string(rd_member(keys, "base64")), &s->keys);
	if (got < 0 || (__u64)got != n || n != s->shape.entries)
		return rd_fail(r, "%s.keys: %lld records, %llu said, %llu entries", where, got,
			       (unsigned long long)n, (unsigned long long)s->shape.entries);
	s->nkeys = n;
	if (!counts)
		return 0;
	s->counted = true;
	if (rd_count(r, counts, where, "count", true, &n) ||
	    rd_count(r, counts, where, "limit", false, &s->counts_limit) ||
	    rd_count(r, counts, where, "dropped", false, &s->counts_dropped))
		return -1;
	if (!rd_member(counts, "base64"))
		return rd_fail(r, "%s.lookups_by_key has no base64", where);
	got = key_counts_decode(h, json_object_get_string(rd_member(counts, "base64")), &s->counts);
	if (got < 0 || (__u64)got != n)
		return rd_fail(r, "%s.lookups_by_key: %lld records, %llu said", where, got,
			       (unsigned long long)n);
	s->ncounts = n;
	return 0;
}

/*
 * Lookups counted by key (base64 records of two 64-bit counts): each
 * below 2^63 as every count, and all of them with the dropped ones no
 * more than the target's lookups, which the same walks counted (the
 * map is read after the programs are detached).
 */
static int check_key_counts(struct reader *r, const char *where,
			    const struct table_snapshot *snap, const struct chain_stats *s)
{
	__u64 sum = snap->counts_dropped, i;

	if (snap->counts_limit && snap->ncounts > snap->counts_limit)
		return rd_fail(r, "%s.lookups_by_key: %llu keys in a map of %llu", where,
			       (unsigned long long)snap->ncounts, (unsigned long long)snap->counts_limit);
	for (i = 0; i < snap->ncounts; i++) {
		const struct key_count *c = &snap->counts[i];

		if (c->hits > PFT_COUNT_MAX || c->misses > PFT_COUNT_MAX)
			return rd_fail(r, "%s.lookups_by_key: record %llu counts past 2^63", where,
				       (unsigned long long)i);
		if (rd_add(r, "lookups_by_key", sum, c->hits, &sum) ||
		    rd_add(r, "lookups_by_key", sum, c->misses, &sum))
			return -1;
	}
	if (sum > s->lookups)
		return rd_fail(r, "%s.lookups_by_key: %llu lookups by key (%llu of them dropped), more "
			       "than the target's %llu", where, (unsigned long long)sum,
			       (unsigned long long)snap->counts_dropped, (unsigned long long)s->lookups);
	return 0;
}
