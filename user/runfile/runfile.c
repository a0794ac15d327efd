// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "duty.h"
#include "fileio.h"
#include "json_rules.h"
#include "runfile.h"
#include "stats.h"

#define MAX_RUNFILE_BYTES RUNFILE_MAX_BYTES

struct reader {
	struct run_file *rf;
	const char *name;
	char *err;
	size_t errlen;
	const char *where;   /* the object being read ("targets[0]"), for strings' errors */
	char target_at[32];  /* where, while a target is read */
	bool failed;         /* the first refusal stands: a read ends failed */
};

static int fail(struct reader *r, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (r->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%s: %s", r->name, msg);
	r->failed = true;
	return -1;
}

/*
 * A string of the file, owned by the run. Control characters are
 * escaped here, once, so that no report, diff or error line can carry a
 * file's escape sequences or fake lines onto a terminal.
 */
static const char *keep(struct reader *r, const char *s)
{
	struct run_file *rf = r->rf;
	size_t cap;
	char *copy;

	if (rf->nstrings == (int)(sizeof(rf->strings) / sizeof(rf->strings[0]))) {
		fail(r, "more strings than a run file holds");
		return "";
	}
	s = s ? s : "";
	cap = 4 * strlen(s) + 6;   /* each byte at most "\xNN", and text_safe's margin */
	copy = malloc(cap);
	if (!copy) {
		fail(r, "out of memory");
		return "";
	}
	text_safe(s, copy, cap);
	rf->strings[rf->nstrings++] = copy;
	return copy;
}

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* A non-negative integer member; missing ones are an error only if required. */
static int get_count(struct reader *r, struct json_object *o, const char *where,
		     const char *key, bool required, __u64 *out)
{
	struct json_object *v = member(o, key);
	const char *why;

	*out = 0;
	if (!v)
		return required ? fail(r, "%s has no \"%s\"", where, key) : 0;
	why = json_count_of(v, out);
	return why ? fail(r, "%s.%s %s", where, key, why) : 0;
}

/* a + b, refused where it would pass PFT_COUNT_MAX */
static int add_count(struct reader *r, const char *what, __u64 a, __u64 b, __u64 *sum)
{
	if (!json_count_add(a, b, sum))
		return fail(r, "%s overflows (counts are below 2^63)", what);
	return 0;
}

/* A string member, "" when absent; one that is no string, holds a NUL or runs long fails the read. */
static const char *get_string(struct reader *r, struct json_object *o, const char *key)
{
	struct json_object *v = member(o, key);
	const char *s = "", *why;
	char whybuf[64];

	if (v && (why = json_text_of(v, JSON_TEXT_MAX, &s, whybuf, sizeof(whybuf))))
		fail(r, "%s%s%s %s", r->where ? r->where : "", r->where ? "." : "", key, why);
	s = keep(r, s);
	/* kept escaped, and written back so: the bound holds for what is written */
	if (strlen(s) > JSON_TEXT_MAX)
		fail(r, "%s%s%s is longer than %d bytes, its control characters escaped",
		     r->where ? r->where : "", r->where ? "." : "", key, JSON_TEXT_MAX);
	return s;
}

/* The same into a buffer of its own, which it must fit escaped. */
static void get_string_into(struct reader *r, struct json_object *o, const char *key,
			    char *buf, size_t size)
{
	const char *s = get_string(r, o, key);

	if (strlen(s) >= size)
		fail(r, "%s%s%s is longer than %zu bytes", r->where ? r->where : "",
		     r->where ? "." : "", key, size - 1);
	snprintf(buf, size, "%s", s);
}

/* an optional true/false member: absent is false, anything but a boolean refused */
static int get_flag(struct reader *r, struct json_object *o, const char *where, const char *key,
		    bool *out)
{
	struct json_object *v = member(o, key);

	*out = false;
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return fail(r, "%s.%s is not true or false", where, key);
	*out = json_object_get_boolean(v);
	return 0;
}

/*
 * A number member in [LO, HI], 0 when absent; a string, NaN, an
 * infinity (1e400 reads as one) or a number out of range fails the read.
 */
static double get_range(struct reader *r, struct json_object *o, const char *key,
			double lo, double hi)
{
	struct json_object *v = member(o, key);
	const char *why;
	char whybuf[64];
	double d = 0;

	if (v && (why = json_number_of(v, lo, hi, &d, whybuf, sizeof(whybuf))))
		fail(r, "%s%s%s %s", r->where ? r->where : "", r->where ? "." : "", key, why);
	return d;
}

/* a traced function's code, and the prefetches in it: past any kernel's */
#define PROFILE_MAX_BYTES (1 << 20)
#define PROFILE_MAX_PREFETCH 4096

/* a latency fit's figures, ns or cycles: far past any cost, short of overflow */
#define FIT_MAX 1e12

/* any finite number: what the field may hold is checked where it is used */
#define get_number(r, o, key) get_range((r), (o), (key), -DBL_MAX, DBL_MAX)

/*
 * A number member converted to an integer type without undefined
 * behaviour: anything out of [lo, hi] is clamped (a fuzzer found a cpus
 * of 1.8e19 converted straight to int).
 */
static double get_clamped(struct reader *r, struct json_object *o, const char *key, double lo,
			  double hi)
{
	double v = get_number(r, o, key);

	return v < lo ? lo : v > hi ? hi : v;
}

#define get_int(r, o, key) ((int)get_clamped((r), (o), (key), INT_MIN, INT_MAX))
#define get_long(r, o, key) ((long)get_clamped((r), (o), (key), (double)LONG_MIN, 9.2e18))
#define get_u64(r, o, key) ((__u64)get_clamped((r), (o), (key), 0, 1.8e19))

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
	struct json_object *o = member(t, "duty_cycle");
	__u64 one_in, slices;
	char dwhere[64];

	memset(d, 0, sizeof(*d));
	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return fail(r, "%s.duty_cycle is not an object", where);
	if (get_count(r, o, where, "one_in", true, &one_in) ||
	    get_count(r, o, where, "slices", true, &slices))
		return -1;
	d->slice_ms = get_number(r, o, "slice_ms");
	d->attached_s = get_number(r, o, "attached_s");
	d->scale = get_number(r, o, "scale");
	d->switching_s = get_number(r, o, "switching_s");
	d->attach_ms = get_number(r, o, "attach_ms");
	d->detach_ms = get_number(r, o, "detach_ms");
	snprintf(dwhere, sizeof(dwhere), "%s.duty_cycle", where);
	if (get_flag(r, o, dwhere, "slice_chosen", &d->slice_chosen) ||
	    get_flag(r, o, dwhere, "stays_attached", &d->stays_attached))
		return -1;
	d->switch_cpu_ms = get_number(r, o, "switch_cpu_ms");
	d->walk_cpu_s = get_number(r, o, "walk_cpu_s");
	if (one_in < 2 || one_in > 10000 || slices > 1000000000)
		return fail(r, "%s.duty_cycle: one_in %llu or slices %llu out of range", where,
			    (unsigned long long)one_in, (unsigned long long)slices);
	if (!(d->slice_ms >= 1 && d->slice_ms <= 1e5) || !(d->attached_s > 0 && d->attached_s <= 1e9) ||
	    !(d->scale >= 0.5 && d->scale <= 1e6) || !(d->switching_s >= 0 && d->switching_s <= 1e9))
		return fail(r, "%s.duty_cycle: slice_ms, attached_s or scale out of range", where);
	if (!(d->attach_ms >= 0 && d->attach_ms <= 1e7) || !(d->detach_ms >= 0 && d->detach_ms <= 1e7))
		return fail(r, "%s.duty_cycle: attach_ms or detach_ms out of range", where);
	if (!(d->switch_cpu_ms >= 0 && d->switch_cpu_ms <= 1e7) ||
	    !(d->walk_cpu_s >= 0 && d->walk_cpu_s <= 1e9))
		return fail(r, "%s.duty_cycle: switch_cpu_ms or walk_cpu_s out of range", where);
	/* what pftrace never writes: a chosen slice past its longest, or a
	 * switch where the programs stayed attached (and chose nothing) */
	if (d->slice_chosen && d->slice_ms > DUTY_MAX_CHOSEN_SLICE_MS)
		return fail(r, "%s.duty_cycle: a chosen slice of %g ms, past %d", where, d->slice_ms,
			    DUTY_MAX_CHOSEN_SLICE_MS);
	if (d->stays_attached && (d->slice_chosen || d->switching_s > 0 || d->attach_ms > 0 ||
				  d->detach_ms > 0 || d->switch_cpu_ms > 0))
		return fail(r, "%s.duty_cycle: stays_attached, yet switched or chose its slices", where);
	/* one run's walks ran on at most its CPUs at once */
	if (cpus > 0 && d->walk_cpu_s > d->attached_s * cpus * 1.01)
		return fail(r, "%s.duty_cycle: walk_cpu_s %g is more than %d CPUs over attached_s %g",
			    where, d->walk_cpu_s, cpus, d->attached_s);
	if (duration_s > 0 && fabs(d->scale * d->attached_s - duration_s) > 1e-3 * duration_s + 1e-6)
		return fail(r, "%s.duty_cycle: scale %g is not the duration %g s over attached_s %g",
			    where, d->scale, duration_s, d->attached_s);
	d->one_in = (unsigned int)one_in;
	d->slices = (unsigned int)slices;
	return 0;
}

/* [{"min": i, "max": i, "count": n}, ...] into linear slots */
static int get_hist(struct reader *r, struct json_object *arr, const char *where, __u64 *slots)
{
	size_t i, n;
	__u64 prev = 0;

	if (!json_object_is_type(arr, json_type_array))
		return fail(r, "%s is not a list of buckets", where);
	n = json_object_array_length(arr);
	if (n > PFT_MAX_WALK + 1)
		return fail(r, "%s has %zu buckets; pftrace writes at most %d", where, n,
			    PFT_MAX_WALK + 1);
	for (i = 0; i < n; i++) {
		struct json_object *b = json_object_array_get_idx(arr, i);
		__u64 min, max, count;

		if (get_count(r, b, where, "min", true, &min) ||
		    get_count(r, b, where, "max", true, &max) ||
		    get_count(r, b, where, "count", true, &count))
			return -1;
		if (min != max || min > PFT_MAX_WALK)
			return fail(r, "%s has a bucket %llu..%llu pftrace does not write", where,
				    (unsigned long long)min, (unsigned long long)max);
		/* pftrace writes each bucket once, in order */
		if (slots[min] || (i && min <= prev))
			return fail(r, "%s: bucket %llu is out of order or repeated", where,
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
			return fail(r, "%s: %llu hits at position %d but only %llu walks of %d nodes",
				    where, (unsigned long long)s->hit_pos_hist[i], i,
				    (unsigned long long)s->chain_walked_hist[i], i);
		if (__builtin_mul_overflow(s->chain_walked_hist[i], (__u64)i, &term))
			return fail(r, "%s: nodes walked overflows", where);
		if (add_count(r, "chain_walked", completed, s->chain_walked_hist[i], &completed) ||
		    add_count(r, "hit_position", hits, s->hit_pos_hist[i], &hits) ||
		    add_count(r, "nodes walked", nodes, term, &nodes))
			return -1;
	}
	if (s->hit_pos_hist[0])
		return fail(r, "%s: a walk of no node cannot hit", where);
	if (hits > s->hits)
		return fail(r, "%s: %llu walks hit but the kernel found only %llu", where,
			    (unsigned long long)hits, (unsigned long long)s->hits);
	if (s->next_null_at_hit > hits)
		return fail(r, "%s: next_null_at_hit %llu is more than the %llu walk hits", where,
			    (unsigned long long)s->next_null_at_hit, (unsigned long long)hits);
	if (s->self_disagree > completed)
		return fail(r, "%s: self_check.disagree %llu is more than the %llu walks", where,
			    (unsigned long long)s->self_disagree, (unsigned long long)completed);
	if (add_count(r, "walks + truncated", completed, s->truncated, &sum) ||
	    add_count(r, "walks + truncated + read_faults", sum, s->read_faults, &sum))
		return -1;
	if (sum != s->lookups)
		return fail(r, "%s: %llu walks + %llu truncated + %llu read faults != %llu lookups",
			    where, (unsigned long long)completed, (unsigned long long)s->truncated,
			    (unsigned long long)s->read_faults, (unsigned long long)s->lookups);
	return 0;
}

static int read_snapshot(struct reader *r, struct json_object *o, const char *where,
			 struct table_snapshot *s);
static int check_key_counts(struct reader *r, const char *where,
			    const struct table_snapshot *snap, const struct chain_stats *s);
static int read_by(struct reader *r, struct json_object *o, const char *where,
		   const struct chain_stats *s, struct by_report *by);
static int read_profile(struct reader *r, struct json_object *v, const char *where,
			struct function_profile *p);

static int read_target(struct reader *r, struct json_object *t, int idx)
{
	struct target_report *tr = &r->rf->rep.targets[idx];
	struct chain_stats *s = &tr->stats;
	struct json_object *v, *sc = member(t, "self_check");
	char where[32];
	__u64 sample, slots;

	snprintf(where, sizeof(where), "targets[%d]", idx);
	if (!t || !json_object_is_type(t, json_type_object))
		return fail(r, "%s is not an object", where);
	snprintf(r->target_at, sizeof(r->target_at), "%s", where);
	r->where = r->target_at;
	tr->requested = get_string(r, t, "requested");
	tr->traced = get_string(r, t, "traced");
	if (!tr->traced[0])
		return fail(r, "%s has no \"traced\" function", where);
	tr->recipe = get_string(r, t, "recipe");
	tr->table = get_string(r, t, "table");
	tr->method = get_string(r, t, "method");
	tr->loads = get_string(r, t, "loads");
	if (tr->loads[0] && strcmp(tr->loads, "direct") && strcmp(tr->loads, "probe"))
		return fail(r, "%s has \"loads\" '%s'; pftrace writes direct or probe", where,
			    tr->loads);
	tr->adds = get_string(r, t, "adds");
	if (tr->adds[0] && strcmp(tr->adds, "plain") && strcmp(tr->adds, "atomic"))
		return fail(r, "%s has \"adds\" '%s'; pftrace writes plain or atomic", where,
			    tr->adds);
	tr->plan_note = get_string(r, t, "plan");
	tr->detail = get_string(r, t, "layout");
	tr->iterator = get_string(r, t, "iterator");
	v = member(t, "chain_end");
	tr->chain_end = v && !strcmp(json_object_get_string(v), "nulls") ? PFT_END_NULLS : PFT_END_NULL;
	if (get_count(r, t, where, "table_slots", false, &slots) ||
	    get_count(r, t, where, "sampled_1_in", false, &sample) ||
	    get_count(r, t, where, "calls", false, &s->calls) ||
	    get_count(r, t, where, "lookups", true, &s->lookups) ||
	    get_count(r, t, where, "hits", true, &s->hits) ||
	    get_count(r, t, where, "misses", true, &s->misses) ||
	    get_count(r, t, where, "truncated", false, &s->truncated) ||
	    get_count(r, t, where, "read_faults", false, &s->read_faults) ||
	    get_count(r, t, where, "lost", false, &s->lost) ||
	    get_count(r, t, where, "next_null_at_hit", false, &s->next_null_at_hit))
		return -1;
	tr->table_slots = slots;
	if (sample > 1000000)
		return fail(r, "%s.sampled_1_in is %llu; pftrace samples at most 1 in 1000000",
			    where, (unsigned long long)sample);
	tr->sample_every = sample ? (unsigned int)sample : 1;
	if (get_duty(r, t, where, r->rf->rep.duration_s, &tr->duty))
		return -1;
	if (tr->duty.one_in > 1 && tr->sample_every > 1)
		return fail(r, "%s: both sampled_1_in and duty_cycle; pftrace writes one", where);
	{
		__u64 sum;

		if (add_count(r, "hits + misses", s->hits, s->misses, &sum))
			return -1;
		if (sum != s->lookups)
			return fail(r, "%s: hits %llu + misses %llu != lookups %llu", where,
				    (unsigned long long)s->hits, (unsigned long long)s->misses,
				    (unsigned long long)s->lookups);
	}
	if (!sc)
		return fail(r, "%s has no \"self_check\"", where);
	if (get_count(r, sc, where, "disagree", true, &s->self_disagree))
		return -1;

	v = member(t, "chain_walked");
	r->rf->has_histograms[idx] = v != NULL;
	if (v && get_hist(r, v, "chain_walked", s->chain_walked_hist))
		return -1;
	v = member(t, "hit_position");
	/* hit positions are checked against the walks: none without them */
	if ((v || s->next_null_at_hit) && !r->rf->has_histograms[idx])
		return fail(r, "%s has %s but no chain_walked", where,
			    v ? "hit_position" : "next_null_at_hit");
	if (v && get_hist(r, v, "hit_position", s->hit_pos_hist))
		return -1;
	if (r->rf->has_histograms[idx] && check_target_sums(r, where, s))
		return -1;
	if (s->calls == 0)
		s->calls = s->lookups;
	{
		__u64 calls = s->calls, agree;

		chain_stats_derive(s, tr->sample_every);
		s->calls = calls;
		/* histograms withheld (failed self-check): take the file's word */
		if (!r->rf->has_histograms[idx]) {
			if (get_count(r, sc, where, "agree", true, &agree))
				return -1;
			s->self_agree = agree;
		}
	}
	v = member(t, "overhead");
	if (v && json_object_is_type(v, json_type_object)) {
		tr->overhead_known = true;
		if (get_count(r, v, "overhead", "run_time_ns", false, &tr->run_time_ns) ||
		    get_count(r, v, "overhead", "runs", false, &tr->runs) ||
		    get_count(r, v, "overhead", "recursion_misses", false, &tr->recursion_misses))
			return -1;
	}
	v = member(t, "samples");
	if (v && json_object_is_type(v, json_type_object)) {
		struct function_profile *p = &r->rf->profiles[idx];

		snprintf(p->name, sizeof(p->name), "%s", tr->traced);
		if (read_profile(r, v, where, p))
			return -1;
		r->where = r->target_at;
		tr->profile = p;
	}
	v = member(t, "by");
	if (v) {
		if (read_by(r, v, where, s, &r->rf->by[idx]))
			return -1;
		tr->by = &r->rf->by[idx];
	}
	v = member(member(t, "latency"), "fit");
	if (v && json_object_is_type(v, json_type_object)) {
		struct latency_fit *fit = &r->rf->lat_fits[idx];

		fit->per_node = get_range(r, v, "per_node", -FIT_MAX, FIT_MAX);
		fit->per_node_lo = get_range(r, v, "per_node_lo", -FIT_MAX, FIT_MAX);
		fit->per_node_hi = get_range(r, v, "per_node_hi", -FIT_MAX, FIT_MAX);
		fit->fixed = get_range(r, v, "fixed", -FIT_MAX, FIT_MAX);
		fit->residual = get_range(r, v, "residual", -FIT_MAX, FIT_MAX);   /* absent before it was written: 0 */
		fit->ok = isfinite(fit->residual) && fit->residual >= 0 && isfinite(fit->per_node) && fit->per_node_lo <= fit->per_node &&
			  fit->per_node <= fit->per_node_hi;
		tr->latency_fit = fit->ok ? fit : NULL;
		tr->latency_unit = get_string(r, member(t, "latency"), "unit");
	}
	v = member(t, "snapshot");
	if (v) {
		char swhere[48];

		snprintf(swhere, sizeof(swhere), "%s.snapshot", where);
		if (read_snapshot(r, v, swhere, &r->rf->snaps[idx]) ||
		    check_key_counts(r, swhere, &r->rf->snaps[idx], s))
			return -1;
		uniform_expectation(&r->rf->snaps[idx].shape, &r->rf->snaps[idx].uniform);
		tr->snapshot = &r->rf->snaps[idx];
	}
	report_finish_target(tr);
	/* pftrace withholds the histograms of walks only when the self-check fails */
	if (!r->rf->has_histograms[idx] && tr->sum.self_check_ok && s->lookups)
		return fail(r, "%s has no chain_walked, yet its self-check passed", where);
	return 0;
}

/*
 * --by: the walks charged to who made them. Every count a count; the
 * rows, with the lookups no row took, no more than the target's lookups
 * (unless multiplied up by --sample-calls, "scaled"); rows by nodes
 * walked, most first, as pftrace writes them.
 */
static int read_by(struct reader *r, struct json_object *o, const char *where,
		   const struct chain_stats *s, struct by_report *by)
{
	static const char *const keys[] = { "comm", "pid", "cgroup" };
	struct json_object *rows = member(o, "rows");
	char bwhere[48];
	__u64 sum;
	size_t i, n;

	snprintf(bwhere, sizeof(bwhere), "%s.by", where);
	if (!json_object_is_type(o, json_type_object) || !rows ||
	    !json_object_is_type(rows, json_type_array))
		return fail(r, "%s is not an object with \"rows\"", bwhere);
	by->key = get_string(r, o, "key");
	for (i = 0; i < 3 && strcmp(by->key, keys[i]); i++)
		;
	if (i == 3)
		return fail(r, "%s.key '%s'; pftrace writes comm, pid or cgroup", bwhere, by->key);
	if (get_flag(r, o, bwhere, "scaled", &by->scaled) ||
	    get_count(r, o, bwhere, "dropped", true, &by->dropped))
		return -1;
	n = json_object_array_length(rows);
	if (n > PFT_BY_MAX)
		return fail(r, "%s has %zu rows; pftrace writes at most %d", bwhere, n, PFT_BY_MAX);
	by->rows = calloc(n + 1, sizeof(*by->rows));
	if (!by->rows)
		return fail(r, "out of memory");
	sum = by->dropped;
	for (i = 0; i < n; i++) {
		struct json_object *row = json_object_array_get_idx(rows, i);
		struct by_row *b = &by->rows[i];

		by->nrows++;
		get_string_into(r, row, "name", b->name, sizeof(b->name));
		if (get_count(r, row, bwhere, "id", true, &b->id) ||
		    get_count(r, row, bwhere, "lookups", true, &b->lookups) ||
		    get_count(r, row, bwhere, "nodes", true, &b->nodes) ||
		    get_count(r, row, bwhere, "misses", true, &b->misses) ||
		    add_count(r, "by.rows", sum, b->lookups, &sum))
			return -1;
		if (b->misses > b->lookups)
			return fail(r, "%s.rows[%zu]: %llu misses of %llu lookups", bwhere, i,
				    (unsigned long long)b->misses, (unsigned long long)b->lookups);
		if (i && (b->nodes > b[-1].nodes || (b->nodes == b[-1].nodes && b->lookups > b[-1].lookups)))
			return fail(r, "%s.rows[%zu] is out of order (most nodes walked first)", bwhere, i);
	}
	if (!by->scaled && sum > s->lookups)
		return fail(r, "%s: %llu lookups charged (dropped ones included), more than the "
			    "target's %llu", bwhere, (unsigned long long)sum, (unsigned long long)s->lookups);
	return r->failed ? -1 : 0;
}

/* an instruction of a profile, once per address: the same one named twice must agree */
static int profile_insn(struct reader *r, const char *where, struct function_profile *p,
			__u64 offset, __u64 samples, const char *text, const char *bytes, bool prefetch)
{
	struct annotated_insn *a;
	int i;

	for (i = 0; i < p->ninsns && p->insns[i].offset != offset; i++)
		;
	a = &p->insns[i];
	if (i == p->ninsns) {
		p->ninsns++;
		a->offset = (unsigned long)offset;
		a->samples = samples;
	} else if (a->samples != samples) {
		return fail(r, "%s: the instruction at %llu has %llu samples and %llu", where,
			    (unsigned long long)offset, (unsigned long long)a->samples,
			    (unsigned long long)samples);
	}
	if (text[0])
		snprintf(a->text, sizeof(a->text), "%s", text);
	if (bytes[0])
		snprintf(a->bytes, sizeof(a->bytes), "%s", bytes);
	a->prefetch |= prefetch;
	return 0;
}

static int insn_offset_cmp(const void *a, const void *b)
{
	const struct annotated_insn *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* one "hottest" or "prefetch" entry: its address, samples, text and bytes */
static int read_insn(struct reader *r, struct json_object *e, const char *where,
		     const struct function_profile *p, __u64 *offset, __u64 *samples,
		     struct annotated_insn *text)
{
	get_string_into(r, e, "instruction", text->text, sizeof(text->text));
	get_string_into(r, e, "bytes", text->bytes, sizeof(text->bytes));
	if (get_count(r, e, where, "offset", true, offset) ||
	    get_count(r, e, where, "samples", true, samples))
		return -1;
	if ((p->size && *offset >= p->size) || *samples > p->samples)
		return fail(r, "%s: an instruction at %llu with %llu samples, in a function of %lu "
			    "bytes and %llu samples", where, (unsigned long long)*offset,
			    (unsigned long long)*samples, p->size, (unsigned long long)p->samples);
	return r->failed ? -1 : 0;
}

/* An instruction's length from its bytes as annotate writes them, "0f 18 08"; 0 if not such. */
static size_t insn_length(const char *bytes)
{
	size_t len = strlen(bytes), i;

	if (len < 2 || len % 3 != 2)
		return 0;
	for (i = 0; i < len; i++)
		if (i % 3 == 2 ? bytes[i] != ' ' : !strchr("0123456789abcdef", bytes[i]))
			return 0;
	return (len + 1) / 3;
}

/*
 * A prefetch instruction and the one after it (its address plus its
 * length, from its bytes), whose samples show the stall by skid.
 */
static int read_prefetch(struct reader *r, struct json_object *e, const char *where,
			 struct function_profile *p)
{
	struct annotated_insn text = { 0 };
	__u64 offset, samples, next;
	size_t len;

	if (read_insn(r, e, where, p, &offset, &samples, &text) ||
	    get_count(r, e, where, "next_samples", true, &next))
		return -1;
	len = insn_length(text.bytes);
	if (!len)
		return fail(r, "%s: bytes '%s' are no instruction's", where, text.bytes);
	if (next > p->samples)
		return fail(r, "%s: next_samples %llu of %llu", where, (unsigned long long)next,
			    (unsigned long long)p->samples);
	return profile_insn(r, where, p, offset, samples, text.text, text.bytes, true) ||
	       profile_insn(r, where, p, offset + len, next, "", "", false);
}

/*
 * The samples on a traced function's code: its hottest instructions and
 * its prefetches, put back as the instructions they came from. The
 * hottest must be those instructions' hottest, a prefetch's next
 * instruction must follow it, and the samples must be the function's.
 */
static int read_profile(struct reader *r, struct json_object *v, const char *where,
			struct function_profile *p)
{
	struct json_object *hot = member(v, "hottest"), *pf = member(v, "prefetch");
	int idx[PFT_HOTTEST], n, i;
	char pwhere[48];
	__u64 size, sum = 0;
	size_t nhot, npf, k;

	snprintf(pwhere, sizeof(pwhere), "%s.samples", where);
	if (get_count(r, v, pwhere, "size", false, &size) ||
	    get_count(r, v, pwhere, "samples", false, &p->samples))
		return -1;
	if (size > PROFILE_MAX_BYTES)
		return fail(r, "%s.size %llu is past a function's", pwhere, (unsigned long long)size);
	p->size = (unsigned long)size;
	if (member(v, "error")) {
		r->where = pwhere;
		get_string_into(r, v, "error", p->error, sizeof(p->error));
		return r->failed ? -1 : 0;
	}
	if (!hot || !pf || !json_object_is_type(hot, json_type_array) ||
	    !json_object_is_type(pf, json_type_array))
		return fail(r, "%s has no \"hottest\" and \"prefetch\" lists", pwhere);
	nhot = json_object_array_length(hot);
	npf = json_object_array_length(pf);
	if (nhot > PFT_HOTTEST || npf > PROFILE_MAX_PREFETCH)
		return fail(r, "%s: %zu hottest and %zu prefetch instructions; pftrace writes at most "
			    "%d and %d", pwhere, nhot, npf, PFT_HOTTEST, PROFILE_MAX_PREFETCH);
	p->insns = calloc(nhot + 2 * npf + 1, sizeof(*p->insns));
	if (!p->insns)
		return fail(r, "out of memory");
	r->where = pwhere;
	for (k = 0; k < nhot; k++) {
		struct annotated_insn text = { 0 };
		__u64 offset, samples;

		if (read_insn(r, json_object_array_get_idx(hot, k), pwhere, p, &offset, &samples, &text) ||
		    profile_insn(r, pwhere, p, offset, samples, text.text, "", false))
			return -1;
	}
	for (k = 0; k < npf; k++)
		if (read_prefetch(r, json_object_array_get_idx(pf, k), pwhere, p))
			return -1;
	qsort(p->insns, (size_t)p->ninsns, sizeof(*p->insns), insn_offset_cmp);
	for (i = 0; i < p->ninsns; i++) {
		const struct annotated_insn *a = &p->insns[i];

		p->nprefetch += a->prefetch;
		if (add_count(r, "samples", sum, a->samples, &sum))
			return -1;
		if (a->prefetch && (i + 1 == p->ninsns ||
				    p->insns[i + 1].offset != a->offset + insn_length(a->bytes)))
			return fail(r, "%s: the prefetch at %lu overlaps the next instruction", pwhere,
				    a->offset);
	}
	if (sum > p->samples)
		return fail(r, "%s: its instructions have %llu samples, the function %llu", pwhere,
			    (unsigned long long)sum, (unsigned long long)p->samples);
	n = profile_hottest(p, idx, PFT_HOTTEST);
	for (i = 0; i < n && (size_t)n == nhot; i++) {
		__u64 offset;

		get_count(r, json_object_array_get_idx(hot, i), pwhere, "offset", true, &offset);
		if (p->insns[idx[i]].offset != offset)
			break;
	}
	if ((size_t)n != nhot || i != n)
		return fail(r, "%s.hottest is not its instructions' hottest, most samples first", pwhere);
	return r->failed ? -1 : 0;
}

/* Where start-up time went: each phase a name, a time and what the verifier did. */
static int read_phases(struct reader *r, struct json_object *arr)
{
	struct run_file *rf = r->rf;
	size_t i, n;

	if (!json_object_is_type(arr, json_type_array))
		return fail(r, "startup_phases is not a list");
	n = json_object_array_length(arr);
	if (n > PFT_MAX_PHASES)
		return fail(r, "startup_phases has %zu phases; pftrace writes at most %d", n,
			    PFT_MAX_PHASES);
	r->where = "startup_phases";
	for (i = 0; i < n; i++) {
		struct json_object *ph = json_object_array_get_idx(arr, i);
		struct startup_phase *sp = &rf->phases[i];

		get_string_into(r, ph, "phase", sp->name, sizeof(sp->name));
		sp->ms = get_range(r, ph, "ms", 0, 1e9);
		if (get_count(r, ph, "startup_phases", "verified_insns", false, &sp->verified_insns))
			return -1;
	}
	r->where = NULL;
	rf->rep.phases = rf->phases;
	rf->rep.nphases = (int)n;
	return r->failed ? -1 : 0;
}

/* A bucket count per chain length, every invariant of a table checked. */
static int read_shape(struct reader *r, struct json_object *o, const char *where,
		      struct table_shape *s)
{
	struct json_object *arr = member(o, "chain_lengths");
	__u64 buckets = 0, entries = 0, used = 0, longest = 0, min, max, count;
	size_t i, n;

	memset(s, 0, sizeof(*s));
	if (get_count(r, o, where, "entries", true, &s->entries) ||
	    get_count(r, o, where, "buckets", true, &s->buckets) ||
	    get_count(r, o, where, "buckets_used", true, &s->used) ||
	    get_count(r, o, where, "longest_chain", true, &s->longest))
		return -1;
	if (!arr || !json_object_is_type(arr, json_type_array))
		return fail(r, "%s has no \"chain_lengths\" array", where);
	if (s->longest > PFT_SNAP_MAX_CHAIN)
		return fail(r, "%s.longest_chain %llu is past pftrace's %d", where,
			    (unsigned long long)s->longest, PFT_SNAP_MAX_CHAIN);
	s->by_len = calloc(s->longest + 1, sizeof(*s->by_len));
	if (!s->by_len)
		return fail(r, "out of memory");
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++) {
		struct json_object *row = json_object_array_get_idx(arr, i);

		if (get_count(r, row, "chain_lengths[]", "min", true, &min) ||
		    get_count(r, row, "chain_lengths[]", "max", true, &max) ||
		    get_count(r, row, "chain_lengths[]", "count", true, &count))
			return -1;
		if (min != max || max > s->longest || s->by_len[max])
			return fail(r, "%s.chain_lengths: row %zu is not one new length up to "
				    "longest_chain", where, i);
		s->by_len[max] = count;
		if (add_count(r, "chain_lengths", buckets, count, &buckets) ||
		    (max && __builtin_mul_overflow(max, count, &count)) ||
		    add_count(r, "chain_lengths", entries, max ? count : 0, &entries))
			return -1;
		used += max ? s->by_len[max] : 0;
		if (s->by_len[max] && max > longest)
			longest = max;
	}
	if (buckets != s->buckets || entries != s->entries || used != s->used ||
	    longest != s->longest)
		return fail(r, "%s: chain_lengths give %llu buckets, %llu entries, %llu used, "
			    "longest %llu; the snapshot says %llu, %llu, %llu, %llu", where,
			    (unsigned long long)buckets, (unsigned long long)entries,
			    (unsigned long long)used, (unsigned long long)longest,
			    (unsigned long long)s->buckets, (unsigned long long)s->entries,
			    (unsigned long long)s->used, (unsigned long long)s->longest);
	return 0;
}

static int read_snapshot(struct reader *r, struct json_object *o, const char *where,
			 struct table_snapshot *s)
{
	struct json_object *keys = member(o, "keys"), *counts = member(o, "lookups_by_key");
	enum table_hash h;
	__u64 bits, n;
	long long got;

	if (read_shape(r, o, where, &s->shape) || get_count(r, o, where, "bits", true, &bits))
		return -1;
	s->hash = get_string(r, o, "hash");
	h = table_hash_named(s->hash);
	if (h == TABLE_HASH_NONE)
		return fail(r, "%s.hash '%s' is no bucket function pftrace knows", where, s->hash);
	if (bits > 32 || s->shape.buckets != 1ULL << bits)
		return fail(r, "%s: %llu buckets are not 2^bits (bits %llu)", where,
			    (unsigned long long)s->shape.buckets, (unsigned long long)bits);
	s->bits = (unsigned int)bits;
	s->took_ms = get_range(r, o, "took_ms", 0, 1e12);
	if (get_count(r, o, where, "changed_buckets", false, &s->changed_buckets) ||
	    get_count(r, o, where, "cut", false, &s->cut) ||
	    get_count(r, o, where, "restarts", false, &s->restarts))
		return -1;
	/* "uniform" is derived from the shape: the caller computes it anew */
	if (!keys)
		return fail(r, "%s has no keys", where);
	s->key_layout = get_string(r, keys, "layout");
	if (!member(keys, "base64"))
		return 0;   /* omitted: too many for a run file; the shape stands */
	if (get_count(r, keys, where, "count", true, &n))
		return -1;
	got = keys_decode(h, json_object_get_string(member(keys, "base64")), &s->keys);
	if (got < 0 || (__u64)got != n || n != s->shape.entries)
		return fail(r, "%s.keys: %lld records, %llu said, %llu entries", where, got,
			    (unsigned long long)n, (unsigned long long)s->shape.entries);
	s->nkeys = n;
	if (!counts)
		return 0;
	s->counted = true;
	if (get_count(r, counts, where, "count", true, &n) ||
	    get_count(r, counts, where, "limit", false, &s->counts_limit) ||
	    get_count(r, counts, where, "dropped", false, &s->counts_dropped))
		return -1;
	if (!member(counts, "base64"))
		return fail(r, "%s.lookups_by_key has no base64", where);
	got = key_counts_decode(h, json_object_get_string(member(counts, "base64")), &s->counts);
	if (got < 0 || (__u64)got != n)
		return fail(r, "%s.lookups_by_key: %lld records, %llu said", where, got,
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
		return fail(r, "%s.lookups_by_key: %llu keys in a map of %llu", where,
			    (unsigned long long)snap->ncounts, (unsigned long long)snap->counts_limit);
	for (i = 0; i < snap->ncounts; i++) {
		const struct key_count *c = &snap->counts[i];

		if (c->hits > PFT_COUNT_MAX || c->misses > PFT_COUNT_MAX)
			return fail(r, "%s.lookups_by_key: record %llu counts past 2^63", where,
				    (unsigned long long)i);
		if (add_count(r, "lookups_by_key", sum, c->hits, &sum) ||
		    add_count(r, "lookups_by_key", sum, c->misses, &sum))
			return -1;
	}
	if (sum > s->lookups)
		return fail(r, "%s.lookups_by_key: %llu lookups by key (%llu of them dropped), more "
			    "than the target's %llu", where, (unsigned long long)sum,
			    (unsigned long long)snap->counts_dropped, (unsigned long long)s->lookups);
	return 0;
}

static const char *const replay_keys[PFT_REPLAY_OPTS] = { "none", "every_node", "nonnull_only" };
/* a pass's time per lookup, TSC ticks or ns: above nothing, far below overflow */
#define REPLAY_SAMPLE_MIN 1e-6
#define REPLAY_SAMPLE_MAX 1e12

/*
 * One option's passes: each a finite, positive time per lookup, and the
 * median and interval computed from them (stats.c's estimate(), as
 * replay wrote them), never taken from the file on trust.
 */
static int read_replay_samples(struct reader *r, struct json_object *oj, int o)
{
	struct replay_summary *rs = &r->rf->rep.replay;
	struct json_object *samples = member(oj, "samples");
	const double *said[3] = { &rs->median[o], &rs->lo[o], &rs->hi[o] };
	static const char *const said_key[3] = { "median", "lo", "hi" };
	char whybuf[64];
	const char *why;
	struct estimate e;
	size_t i, n;
	int k;

	if (!oj || !samples || !json_object_is_type(samples, json_type_array))
		return fail(r, "replay.per_lookup.%s is incomplete", replay_keys[o]);
	r->where = "replay.per_lookup";
	rs->median[o] = get_number(r, oj, "median");
	rs->lo[o] = get_number(r, oj, "lo");
	rs->hi[o] = get_number(r, oj, "hi");
	r->where = NULL;
	n = json_object_array_length(samples);
	if (n < 1 || n > PFT_REPLAY_MAX_REPS || (o && (int)n != rs->reps))
		return fail(r, "replay.per_lookup.%s has %zu samples", replay_keys[o], n);
	rs->reps = (int)n;
	for (i = 0; i < n; i++) {
		why = json_number_of(json_object_array_get_idx(samples, i), REPLAY_SAMPLE_MIN,
				     REPLAY_SAMPLE_MAX, &rs->samples[o][i], whybuf, sizeof(whybuf));
		if (why)
			return fail(r, "replay.per_lookup.%s.samples[%zu] %s", replay_keys[o], i, why);
	}
	e = estimate(rs->samples[o], rs->reps);
	for (k = 0; k < 3; k++) {
		double want = k == 0 ? e.median : k == 1 ? e.lo : e.hi;

		/* what replay wrote, to the 15 digits it writes */
		if (fabs(*said[k] - want) > 1e-9 * want)
			return fail(r, "replay.per_lookup.%s.%s %g is not its samples' %g",
				    replay_keys[o], said_key[k], *said[k], want);
	}
	rs->median[o] = e.median;
	rs->lo[o] = e.lo;
	rs->hi[o] = e.hi;
	return 0;
}

/*
 * The table a replay walked: its size, what was asked of its chains and
 * what its walks counted, lookups by nodes walked summing to a pass's
 * lookups and their mean the one written.
 */
static int read_replay_table(struct reader *r, struct json_object *rj, struct replay_summary *rs)
{
	struct json_object *req = member(rj, "requested"), *got = member(rj, "counted");
	__u64 walks = 0, nodes = 0, term;
	double mean;
	int i;

	r->where = "replay";
	get_string_into(r, rj, "source", rs->source, sizeof(rs->source));
	if (get_count(r, rj, "replay", "buckets", true, &rs->buckets) ||
	    get_count(r, rj, "replay", "nodes", true, &rs->nodes) ||
	    get_count(r, rj, "replay", "node_bytes", true, &rs->node_bytes) ||
	    get_count(r, rj, "replay", "lookups_per_pass", true, &rs->lookups_per_pass))
		return -1;
	if (!req || !got || !member(got, "chain_walked"))
		return fail(r, "replay has no \"requested\" and \"counted\" chains");
	r->where = "replay.requested";
	rs->requested_mean = get_range(r, req, "mean_nodes", 0, PFT_MAX_WALK);
	rs->requested_hits = get_range(r, req, "hit_ratio", 0, 1);
	r->where = "replay.counted";
	rs->counted_hits = get_range(r, got, "hit_ratio", 0, 1);
	mean = get_range(r, got, "mean_nodes", 0, PFT_MAX_WALK);
	r->where = NULL;
	if (r->failed || get_hist(r, member(got, "chain_walked"), "replay.counted.chain_walked",
				  rs->counted_walked))
		return -1;
	for (i = 0; i < PFT_HIST_SLOTS; i++)
		if (add_count(r, "replay.counted.chain_walked", walks, rs->counted_walked[i], &walks) ||
		    __builtin_mul_overflow(rs->counted_walked[i], (__u64)i, &term) ||
		    add_count(r, "replay.counted nodes", nodes, term, &nodes))
			return -1;
	if (walks != rs->lookups_per_pass)
		return fail(r, "replay.counted.chain_walked: %llu walks in a pass of %llu lookups",
			    (unsigned long long)walks, (unsigned long long)rs->lookups_per_pass);
	if (walks && fabs(mean - (double)nodes / (double)walks) > 1e-9 * fmax(1, mean))
		return fail(r, "replay.counted.mean_nodes %g is not its walks' %g", mean,
			    (double)nodes / (double)walks);
	return 0;
}

/* The replay section, if any: medians, intervals, and each pass's time. */
static int read_replay(struct reader *r, struct json_object *rj)
{
	struct replay_summary *rs = &r->rf->rep.replay;
	struct json_object *per = member(rj, "per_lookup");
	int o;

	if (!per)
		return fail(r, "replay has no \"per_lookup\"");
	r->where = "replay";
	get_string_into(r, rj, "mode", rs->mode, sizeof(rs->mode));
	get_string_into(r, rj, "unit", rs->unit, sizeof(rs->unit));
	get_string_into(r, rj, "traced", rs->traced, sizeof(rs->traced));
	r->where = NULL;
	if (strcmp(rs->mode, "warm") && strcmp(rs->mode, "cold"))
		return fail(r, "replay.mode '%s'; pftrace writes warm or cold", rs->mode);
	if (strcmp(rs->unit, "tsc") && strcmp(rs->unit, "ns"))
		return fail(r, "replay.unit '%s'; pftrace writes tsc or ns", rs->unit);
	if (read_replay_table(r, rj, rs))
		return -1;
	for (o = 0; o < PFT_REPLAY_OPTS; o++)
		if (read_replay_samples(r, member(per, replay_keys[o]), o))
			return -1;
	rs->present = true;
	return 0;
}

/*
 * What was sampled: every sample, those in the kernel, those kept (in a
 * traced function) and of them the dropped; each traced function's
 * samples are among the kept.
 */
static int read_sampling_counts(struct reader *r, struct json_object *v, struct sample_result *sr)
{
	struct sample_counts *c = &sr->counts;
	__u64 freq, cpus;
	int i;

	if (get_count(r, v, "sampling", "total", false, &c->total) ||
	    get_count(r, v, "sampling", "kernel", false, &c->kernel) ||
	    get_count(r, v, "sampling", "in_traced", false, &c->kept) ||
	    get_count(r, v, "sampling", "dropped", false, &c->dropped) ||
	    get_count(r, v, "sampling", "freq", false, &freq) ||
	    get_count(r, v, "sampling", "cpus", false, &cpus))
		return -1;
	if (c->kernel > c->total || c->kept > c->total || c->dropped > c->kept)
		return fail(r, "sampling: %llu samples, %llu in the kernel, %llu kept, %llu dropped",
			    (unsigned long long)c->total, (unsigned long long)c->kernel,
			    (unsigned long long)c->kept, (unsigned long long)c->dropped);
	if (freq > 1000000 || cpus > 1 << 20)
		return fail(r, "sampling: freq %llu or cpus %llu out of range",
			    (unsigned long long)freq, (unsigned long long)cpus);
	sr->freq = (int)freq;
	sr->cpus = (int)cpus;
	for (i = 0; i < r->rf->rep.ntargets; i++) {
		const struct function_profile *p = r->rf->rep.targets[i].profile;

		if (p && p->samples > c->total)
			return fail(r, "targets[%d].samples: %llu samples of %llu", i,
				    (unsigned long long)p->samples, (unsigned long long)c->total);
	}
	return 0;
}

int runfile_parse(const char *text, size_t len, const char *name, struct run_file *rf,
		  char *err, size_t errlen)
{
	/* the file's name, from argv, reaches a terminal in every refusal */
	struct reader r = { .rf = rf, .name = shown_path(name), .err = err, .errlen = errlen };
	struct json_object *root, *targets, *v;
	char why[160];
	__u64 schema;
	size_t i, n;
	int rc = -1;

	memset(rf, 0, sizeof(*rf));
	root = json_parse_bounded(text, len, MAX_RUNFILE_BYTES, why, sizeof(why));
	if (!root)
		return fail(&r, "%s", why);
	v = member(root, "tool");
	if (!v || !json_object_is_type(v, json_type_string) || strcmp(json_object_get_string(v), "pftrace")) {
		fail(&r, "not a pftrace run file (no \"tool\": \"pftrace\")");
		goto out;
	}
	if (get_count(&r, root, "the run", "schema", true, &schema))
		goto out;
	if (schema == 0) {
		fail(&r, "schema 0 does not exist; run files start at schema 1");
		goto out;
	}
	if (schema > PFT_SCHEMA_VERSION) {
		fail(&r, "schema %llu; this pftrace reads schema 1 to %d (a newer pftrace wrote it)",
		     (unsigned long long)schema, PFT_SCHEMA_VERSION);
		goto out;
	}
	rf->rep.command = get_string(&r, root, "command");
	rf->rep.kernel_release = get_string(&r, member(root, "kernel"), "release");
	rf->rep.btf_path = get_string(&r, member(root, "kernel"), "btf");
	get_string_into(&r, root, "started", rf->rep.started, sizeof(rf->rep.started));
	rf->rep.duration_s = get_range(&r, root, "duration_s", 0, PFT_DURATION_MAX);
	rf->rep.end_reason = get_string(&r, root, "end_reason");
	rf->rep.startup_ms = get_range(&r, root, "startup_ms", 0, 1e9);
	rf->rep.peak_rss_kb = get_long(&r, root, "peak_rss_kb");
	rf->rep.cpu_s = get_number(&r, root, "cpu_s");
	rf->rep.bpf_stats = get_string(&r, root, "bpf_stats");
	rf->rep.hostname = get_string(&r, member(root, "machine"), "hostname");
	rf->rep.arch = get_string(&r, member(root, "machine"), "arch");
	rf->rep.cpu_model = get_string(&r, member(root, "machine"), "cpu");
	rf->rep.cpus = get_int(&r, member(root, "machine"), "cpus");
	rf->rep.merged_runs = get_int(&r, root, "merged_runs");
	/* a rate over less than a nanosecond overflows: 1e-320 s would give infinite lookups/s */
	if (rf->rep.duration_s > 0 && rf->rep.duration_s < PFT_DURATION_MIN) {
		fail(&r, "duration_s %g is below a nanosecond", rf->rep.duration_s);
		goto out;
	}
	if (!(rf->rep.cpu_s >= 0 && rf->rep.cpu_s <= 1e9)) {
		fail(&r, "cpu_s is out of range");
		goto out;
	}
	if ((v = member(root, "startup_phases")) && read_phases(&r, v))
		goto out;
	if ((v = member(root, "workload"))) {
		rf->rep.child_command = get_string(&r, v, "argv");
		rf->rep.child_exit = get_int(&r, v, "exit_status");
	}
	/* whose lookups were counted: merge refuses to add different tenants */
	if ((v = member(root, "filter"))) {
		struct json_object *cg = member(v, "cgroup");

		if (!json_object_is_type(v, json_type_object)) {
			fail(&r, "filter is not an object");
			goto out;
		}
		rf->filter.present = true;
		rf->filter.pid = get_long(&r, v, "pid");
		rf->filter.cgroup = cg && json_object_is_type(cg, json_type_string) ?
				    get_string(&r, v, "cgroup") : NULL;
		rf->filter.only_command = json_object_get_boolean(member(v, "only_command"));
		rf->filter.cgroup_id = get_u64(&r, v, "cgroup_id");
		rf->filter.followed = get_u64(&r, v, "followed");
		rf->filter.follow_dropped = get_u64(&r, v, "follow_dropped");
		if (rf->filter.pid < 0 || (!rf->filter.pid && !rf->filter.cgroup &&
					   !rf->filter.only_command)) {
			fail(&r, "filter names no pid, cgroup or command");
			goto out;
		}
		rf->rep.filter = &rf->filter;
	}
	targets = member(root, "targets");
	if (!targets || !json_object_is_type(targets, json_type_array)) {
		fail(&r, "no \"targets\" list");
		goto out;
	}
	n = json_object_array_length(targets);
	/* a replay of a synthetic workload traced nothing: its file has no target */
	if ((n == 0 && !member(root, "replay")) || n > PFT_MAX_TARGETS) {
		fail(&r, "%zu targets; a run has 1 to %d", n, PFT_MAX_TARGETS);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (read_target(&r, json_object_array_get_idx(targets, i), (int)i))
			goto out;
		rf->rep.ntargets++;
	}
	r.where = NULL;
	if ((v = member(root, "replay")) && read_replay(&r, v))
		goto out;
	if ((v = member(root, "sampling")) && json_object_is_type(v, json_type_object)) {
		struct sample_result *sr = &rf->samples;

		r.where = "sampling";
		get_string_into(&r, v, "event", sr->event, sizeof(sr->event));
		get_string_into(&r, v, "asked", sr->asked, sizeof(sr->asked));
		get_string_into(&r, v, "note", sr->note, sizeof(sr->note));
		r.where = NULL;
		if (get_flag(&r, v, "sampling", "fallback", &sr->fallback) ||
		    read_sampling_counts(&r, v, sr))
			goto out;
		rf->rep.samples = sr;
	}
	/* a string refused along the way fails the read, with the first reason */
	rc = r.failed ? -1 : 0;
out:
	json_object_put(root);
	if (rc)
		runfile_free(rf);
	return rc;
}

/* an interval record's targets, each read as a run file's target */
static int read_interval(struct reader *r, struct json_object *root, double *interval_s)
{
	struct json_object *targets = member(root, "targets");
	size_t i, n;

	*interval_s = get_range(r, root, "interval_s", PFT_DURATION_MIN, PFT_DURATION_MAX);
	get_string(r, root, "interval_end");
	if (r->failed)
		return -1;
	if (!targets || !json_object_is_type(targets, json_type_array))
		return fail(r, "no \"targets\" list");
	n = json_object_array_length(targets);
	if (n == 0 || n > PFT_MAX_TARGETS)
		return fail(r, "%zu targets; an interval has 1 to %d", n, PFT_MAX_TARGETS);
	/* the duty cycle's scale is of the interval */
	r->rf->rep.duration_s = *interval_s;
	for (i = 0; i < n; i++) {
		if (read_target(r, json_object_array_get_idx(targets, i), (int)i))
			return -1;
		r->rf->rep.ntargets++;
	}
	return r->failed ? -1 : 0;
}

int runfile_parse_line(const char *text, size_t len, const char *name, struct run_file *rf,
		       double *interval_s, char *err, size_t errlen)
{
	struct reader r = { .rf = rf, .name = shown_path(name), .err = err, .errlen = errlen };
	struct json_object *root;
	char why[160];
	int rc;

	memset(rf, 0, sizeof(*rf));
	*interval_s = 0;
	root = json_parse_bounded(text, len, MAX_RUNFILE_BYTES, why, sizeof(why));
	if (!root)
		return fail(&r, "%s", why);
	if (!json_object_is_type(root, json_type_object)) {
		rc = fail(&r, "not a JSON object");
	} else if (member(root, "tool")) {
		/* the closing line: the whole run, a run file in one line */
		json_object_put(root);
		return runfile_parse(text, len, name, rf, err, errlen) ? -1 : 0;
	} else if (!member(root, "interval_s")) {
		rc = fail(&r, "neither an interval record (\"interval_s\") nor a run (\"tool\")");
	} else {
		rc = read_interval(&r, root, interval_s) ? -1 : 1;
	}
	json_object_put(root);
	if (rc < 0)
		runfile_free(rf);
	return rc;
}

int runfile_read(const char *path, struct run_file *rf, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int rc;

	memset(rf, 0, sizeof(*rf));
	if (read_regular_file("", path, MAX_RUNFILE_BYTES, &buf, &len, err, errlen))
		return -1;
	rc = runfile_parse(buf, len, path, rf, err, errlen);
	free(buf);
	return rc;
}

void runfile_free(struct run_file *rf)
{
	int i;

	for (i = 0; i < rf->nstrings; i++)
		free(rf->strings[i]);
	for (i = 0; i < PFT_MAX_TARGETS; i++) {
		table_snapshot_free(&rf->snaps[i]);
		free(rf->profiles[i].insns);
		free(rf->by[i].rows);
		rf->profiles[i].insns = NULL;
		rf->by[i].rows = NULL;
	}
	rf->nstrings = 0;
}
