// SPDX-License-Identifier: GPL-2.0
/*
 * A run file's replay section: the table replay walked, and each
 * option's passes, from which the medians and intervals are computed
 * again rather than taken from the file.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_rules.h"
#include "runfile_reader.h"
#include "stats.h"

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
	struct json_object *samples = rd_member(oj, "samples");
	const double *said[3] = { &rs->median[o], &rs->lo[o], &rs->hi[o] };
	static const char *const said_key[3] = { "median", "lo", "hi" };
	char whybuf[64];
	const char *why;
	struct estimate e;
	size_t i, n;
	int k;

	if (!oj || !samples || !json_object_is_type(samples, json_type_array))
		return rd_fail(r, "replay.per_lookup.%s is incomplete", replay_keys[o]);
	r->where = "replay.per_lookup";
	rs->median[o] = rd_number(r, oj, "median");
	rs->lo[o] = rd_number(r, oj, "lo");
	rs->hi[o] = rd_number(r, oj, "hi");
	r->where = NULL;
	n = json_object_array_length(samples);
	if (n < 1 || n > PFT_REPLAY_MAX_REPS || (o && (int)n != rs->reps))
		return rd_fail(r, "replay.per_lookup.%s has %zu samples", replay_keys[o], n);
	rs->reps = (int)n;
	for (i = 0; i < n; i++) {
		why = json_number_of(json_object_array_get_idx(samples, i), REPLAY_SAMPLE_MIN,
				     REPLAY_SAMPLE_MAX, &rs->samples[o][i], whybuf, sizeof(whybuf));
		if (why)
			return rd_fail(r, "replay.per_lookup.%s.samples[%zu] %s", replay_keys[o], i, why);
	}
	e = estimate(rs->samples[o], rs->reps);
	for (k = 0; k < 3; k++) {
		double want = k == 0 ? e.median : k == 1 ? e.lo : e.hi;

		/* what replay wrote, to the 15 digits it writes */
		if (fabs(*said[k] - want) > 1e-9 * want)
			return rd_fail(r, "replay.per_lookup.%s.%s %g is not its samples' %g",
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
	struct json_object *req = rd_member(rj, "requested"), *got = rd_member(rj, "counted");
	__u64 walks = 0, nodes = 0, term;
	double mean;
	int i;

	r->where = "replay";
	rd_string_into(r, rj, "source", rs->source, sizeof(rs->source));
	if (rd_count(r, rj, "replay", "buckets", true, &rs->buckets) ||
	    rd_count(r, rj, "replay", "nodes", true, &rs->nodes) ||
	    rd_count(r, rj, "replay", "node_bytes", true, &rs->node_bytes) ||
	    rd_count(r, rj, "replay", "lookups_per_pass", true, &rs->lookups_per_pass))
		return -1;
	if (!req || !got || !rd_member(got, "chain_walked"))
		return rd_fail(r, "replay has no \"requested\" and \"counted\" chains");
	r->where = "replay.requested";
	rs->requested_mean = rd_range(r, req, "mean_nodes", 0, PFT_MAX_WALK);
	rs->requested_hits = rd_range(r, req, "hit_ratio", 0, 1);
	r->where = "replay.counted";
	rs->counted_hits = rd_range(r, got, "hit_ratio", 0, 1);
	mean = rd_range(r, got, "mean_nodes", 0, PFT_MAX_WALK);
	r->where = NULL;
	if (r->failed || rd_hist(r, rd_member(got, "chain_walked"), "replay.counted.chain_walked",
				 rs->counted_walked))
		return -1;
	for (i = 0; i < PFT_HIST_SLOTS; i++)
		if (rd_add(r, "replay.counted.chain_walked", walks, rs->counted_walked[i], &walks) ||
		    __builtin_mul_overflow(rs->counted_walked[i], (__u64)i, &term) ||
		    rd_add(r, "replay.counted nodes", nodes, term, &nodes))
			return -1;
	if (walks != rs->lookups_per_pass)
		return rd_fail(r, "replay.counted.chain_walked: %llu walks in a pass of %llu lookups",
			       (unsigned long long)walks, (unsigned long long)rs->lookups_per_pass);
	if (walks && fabs(mean - (double)nodes / (double)walks) > 1e-9 * fmax(1, mean))
		return rd_fail(r, "replay.counted.mean_nodes %g is not its walks' %g", mean,
			       (double)nodes / (double)walks);
	return 0;
}

int runfile_read_replay(struct reader *r, struct json_object *rj)
{
	struct replay_summary *rs = &r->rf->rep.replay;
	struct json_object *per = rd_member(rj, "per_lookup");
	int o;

	if (!per)
		return rd_fail(r, "replay has no \"per_lookup\"");
	r->where = "replay";
	rd_string_into(r, rj, "mode", rs->mode, sizeof(rs->mode));
	rd_string_into(r, rj, "unit", rs->unit, sizeof(rs->unit));
	rd_string_into(r, rj, "traced", rs->traced, sizeof(rs->traced));
	r->where = NULL;
	if (strcmp(rs->mode, "warm") && strcmp(rs->mode, "cold"))
		return rd_fail(r, "replay.mode '%s'; pftrace writes warm or cold", rs->mode);
	if (strcmp(rs->unit, "tsc") && strcmp(rs->unit, "ns"))
		return rd_fail(r, "replay.unit '%s'; pftrace writes tsc or ns", rs->unit);
	if (read_replay_table(r, rj, rs))
		return -1;
	for (o = 0; o < PFT_REPLAY_OPTS; o++)
		if (read_replay_samples(r, rd_member(per, replay_keys[o]), o))
			return -1;
	rs->present = true;
	return 0;
}
