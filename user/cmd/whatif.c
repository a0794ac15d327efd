// SPDX-License-Identifier: GPL-2.0
/*
 * pftrace snapshot: a trace whose point is the whole table (--snapshot),
 * attaching nothing unless asked to trace for a while (-d, COMMAND).
 *
 * pftrace whatif: from a run file's snapshot alone, lay the table's keys
 * out again in other sizes and, for the AVC, under other hashes, and
 * weigh each layout by the lookups the trace counted per key. The
 * kernel's own configuration comes first, predicted beside measured:
 * the prediction of the snapshot itself must be exact (the identity
 * check, exit 3 if not), and its mean walk beside the traced one shows
 * the model's error.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "cli.h"
#include "fileio.h"
#include "commands.h"
#include "opts.h"
#include "output.h"
#include "progress.h"
#include "runfile.h"
#include "session.h"
#include "table_render.h"
#include "trace_opts.h"
#include "whatif.h"
#include "hash_cost.h"
#include "verdict.h"

static bool asks_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

int cmd_snapshot(int argc, char **argv)
{
	struct trace_opts o;
	char cmdline[sizeof(o.cmdline)];
	int rc;

	if (asks_help(argc, argv)) {
		return cmd_help(2, (char *[]){ "help", "snapshot", NULL });
	}
	rc = parse_trace_opts(argc, argv, &o);

	if (rc)
		return rc < 0 ? 0 : rc;
	snprintf(cmdline, sizeof(cmdline), "pftrace snapshot%s", o.cmdline + strlen("pftrace"));
	memcpy(o.cmdline, cmdline, sizeof(o.cmdline));
	o.snapshot = true;
	o.no_samples = true;
	o.snapshot_only = !o.duration_s && !o.command;
	if (o.snapshot_only && o.interval_s)
		return pft_refuse("snapshot", "-i needs -d or a COMMAND to trace for");
	return run_trace(&o);
}

enum { OPT_BITS = 256, OPT_HASH, OPT_WFORMAT, OPT_LOOKUPS };

static const struct opt_spec whatif_opt_specs[] = {
	{ "target", 't', "FUNC", "only this traced function's table" },
	{ "bits", OPT_BITS, "LIST", "table sizes as log2 of the buckets, e.g. 9,10,12\n"
				    "(default: the AVC's 9-14; others the kernel's -1..+3)" },
	{ "hash", OPT_HASH, "LIST", "AVC bucket functions: xor, murmur3, jhash (default all)" },
	{ "lookups", OPT_LOOKUPS, "RUN2.json", "weigh the walks by RUN2's lookups of the same table\n"
					     "(another workload, or another kernel's) instead of RUN's" },
	{ "format", OPT_WFORMAT, "FORMAT", "text or json (default text)" },
	{ "knob", 'C', "KEY=VALUE", "current.hash=NAME: take NAME for the kernel's own hash\n"
				    "(a debug knob: the identity check must then fail)" },
	{ "help", 'h', NULL, "this text" },
	{ 0 },
};

const struct cmd_spec whatif_cmd = {
	"whatif", "whatif RUN.json [-t FUNC] [--bits LIST] [--hash LIST] [--lookups RUN2.json]\n"
	"              [--format text|json]",
	"predict the table's shape and walks at other sizes and hashes, from a run\n"
	"file with a snapshot (pftrace snapshot, or a trace with --snapshot)",
	whatif_opt_specs,
};

#define MAX_ALTS 64

struct whatif_req {
	const char *path;
	const char *target;
	const char *lookups_path;
	unsigned int bits[MAX_ALTS];
	int nbits;
	enum table_hash hashes[4];
	int nhashes;
	bool json;
	enum table_hash forced_current;
};

static int parse_bits(const char *list, struct whatif_req *q)
{
	char buf[256], *tok, *save = NULL, *end;
	long v;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		v = strtol(tok, &end, 10);
		if (end == tok || *end || v < 1 || v > PFT_TABLE_MAX_BITS)
			return pft_refuse("whatif", "--bits wants log2 sizes from 1 to %d, not '%s'",
					  PFT_TABLE_MAX_BITS, tok);
		if (q->nbits == MAX_ALTS)
			return pft_refuse("whatif", "--bits: at most %d sizes", MAX_ALTS);
		q->bits[q->nbits++] = (unsigned int)v;
	}
	if (!q->nbits)
		return pft_refuse("whatif", "--bits wants a list such as 9,10,12");
	return 0;
}

static int parse_hashes(const char *list, struct whatif_req *q)
{
	char buf[256], *tok, *save = NULL;
	enum table_hash h;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		h = table_hash_named(tok);
		if (h != TABLE_HASH_XOR && h != TABLE_HASH_MURMUR3 && h != TABLE_HASH_JHASH)
			return pft_refuse("whatif", "--hash wants xor, murmur3 or jhash, not '%s'", tok);
		if (q->nhashes == 4)
			return pft_refuse("whatif", "--hash: at most 4 hashes");
		q->hashes[q->nhashes++] = h;
	}
	if (!q->nhashes)
		return pft_refuse("whatif", "--hash wants a list such as xor,murmur3");
	return 0;
}

static int parse_whatif(int argc, char **argv, struct whatif_req *q)
{
	struct opt_parser parser;
	const char *eq;
	int c;

	memset(q, 0, sizeof(*q));
	opts_begin(&parser, whatif_opt_specs, false);
	while ((c = opts_next(&parser, argc, argv)) != -1) {
		switch (c) {
		case 't':
			q->target = optarg;
			break;
		case OPT_BITS:
			if (parse_bits(optarg, q))
				return 2;
			break;
		case OPT_HASH:
			if (parse_hashes(optarg, q))
				return 2;
			break;
		case OPT_LOOKUPS:
			q->lookups_path = optarg;
			break;
		case OPT_WFORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return pft_refuse("whatif", "--format wants text or json, not '%s'", optarg);
			q->json = !strcmp(optarg, "json");
			break;
		case 'C':
			eq = strchr(optarg, '=');
			if (!eq || strncmp(optarg, "current.hash=", 13) ||
			    table_hash_named(eq + 1) == TABLE_HASH_NONE)
				return pft_refuse("whatif", "-C wants current.hash=NAME, not '%s'", optarg);
			q->forced_current = table_hash_named(eq + 1);
			break;
		case 'h':
			cmd_print_help(stdout, &whatif_cmd);
			return -1;
		case ':':
			return pft_refuse("whatif", "option '%s' needs a value", pft_optname(argv));
		default:
			return pft_refuse("whatif", "%s (see pftrace whatif --help)",
					  pft_unknown_option(whatif_opt_specs, argv));
		}
	}
	if (optind + 1 != argc)
		return pft_refuse("whatif", optind >= argc ? "give one run file" :
				  "one run file only, not '%s'", argv[optind + (optind < argc)]);
	q->path = argv[optind];
	return 0;
}

/* The alternatives for one table, the kernel's own configuration first. */
static int alternatives(const struct whatif_req *q, const struct table_snapshot *s,
			enum table_hash current, enum table_hash *hash, unsigned int *bits)
{
	enum table_hash avc[3] = { TABLE_HASH_XOR, TABLE_HASH_MURMUR3, TABLE_HASH_JHASH };
	const enum table_hash *hl = q->nhashes ? q->hashes : avc;
	int nh = q->nhashes ? q->nhashes : 3, n = 0, i, j;
	unsigned int defbits[MAX_ALTS];
	int nb = 0;
	bool is_avc = table_hash_compatible(TABLE_HASH_XOR, current);

	hash[n] = current;
	bits[n++] = s->bits;
	if (q->nbits) {
		for (i = 0; i < q->nbits; i++)
			defbits[nb++] = q->bits[i];
	} else if (is_avc) {
		for (i = 9; i <= 14; i++)
			defbits[nb++] = (unsigned int)i;
	} else {
		for (i = -1; i <= 3; i++)
			if ((int)s->bits + i >= 1 && (int)s->bits + i <= PFT_TABLE_MAX_BITS)
				defbits[nb++] = (unsigned int)((int)s->bits + i);
	}
	if (!is_avc) {
		hl = &current;
		nh = 1;
	}
	for (i = 0; i < nb; i++)
		for (j = 0; j < nh && n < MAX_ALTS; j++) {
			if (hl[j] == current && defbits[i] == s->bits)
				continue;
			hash[n] = hl[j];
			bits[n++] = defbits[i];
		}
	return n;
}

static void print_row(const struct layout_prediction *p, bool current, bool counted,
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
	printf("  %-15s %-8s %10llu %6.1f%%  %8llu   %s%s\n", nb, table_hash_name(p->hash),
	       (unsigned long long)p->shape.used,
	       100.0 * (double)p->shape.used / (double)p->shape.buckets,
	       (unsigned long long)p->shape.longest, walk, current ? "   <- the kernel's" : "");
}

static struct json_object *prediction_json(const struct layout_prediction *p, bool current,
					   bool counted)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "hash", json_object_new_string(table_hash_name(p->hash)));
	json_object_object_add(o, "bits", json_object_new_int((int)p->bits));
	json_object_object_add(o, "slots", json_object_new_uint64(p->shape.buckets));
	table_shape_json(&p->shape, o);
	json_object_object_add(o, "mean_walk", counted ? json_object_new_double(p->mean_walk) : NULL);
	json_object_object_add(o, "mean_walk_lo", counted ? json_object_new_double(p->mean_walk_lo) : NULL);
	json_object_object_add(o, "mean_walk_hi", counted ? json_object_new_double(p->mean_walk_hi) : NULL);
	if (counted && p->redrawn_walk >= 0) {
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "mean", json_object_new_double(p->redrawn_walk));
		json_object_object_add(r, "sd", json_object_new_double(p->redrawn_walk_sd));
		json_object_object_add(r, "p2_5", json_object_new_double(p->redrawn_walk_lo));
		json_object_object_add(r, "p97_5", json_object_new_double(p->redrawn_walk_hi));
		json_object_object_add(o, "mean_walk_redrawn", r);
	} else {
		json_object_object_add(o, "mean_walk_redrawn", NULL);
	}
	json_object_object_add(o, "current", json_object_new_boolean(current));
	if (current && counted && p->mean_walk_in_order >= 0)
		json_object_object_add(o, "mean_walk_in_order", json_object_new_double(p->mean_walk_in_order));
	return o;
}

/* One table: its alternatives, printed or added to ARR. 0, 1 (memory), 3 (identity). */
/* What a node costs: the run's --latency fit where it is in ns, else a warm walk here. */
static const char *node_cost(const struct target_report *t, struct estimate *e)
{
	/* a fit whose interval reaches zero, or whose medians stray off its line, says nothing a verdict can use */
	if (t->latency_fit && t->latency_unit && !strcmp(t->latency_unit, "ns") &&
	    t->latency_fit->per_node_lo > 0 && !latency_fit_poor(t->latency_fit)) {
		e->median = t->latency_fit->per_node;
		e->lo = t->latency_fit->per_node_lo;
		e->hi = t->latency_fit->per_node_hi;
		return "the run's --latency fit";
	}
	*e = walk_node_cost();
	return "a warm walk of 64-byte nodes on this CPU (replay's)";
}

static struct json_object *verdict_json(const struct verdict *v, const char *source)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "nodes_saved", json_object_new_double(v->nodes_saved));
	json_object_object_add(o, "nodes_saved_lo", json_object_new_double(v->nodes_saved_lo));
	json_object_object_add(o, "nodes_saved_hi", json_object_new_double(v->nodes_saved_hi));
	json_object_object_add(o, "cost_per_node", json_object_new_double(v->cost_per_node));
	json_object_object_add(o, "cost_source", json_object_new_string(source));
	json_object_object_add(o, "hash_extra", json_object_new_double(v->hash_extra));
	json_object_object_add(o, "net", json_object_new_double(v->net));
	json_object_object_add(o, "net_lo", json_object_new_double(v->net_lo));
	json_object_object_add(o, "net_hi", json_object_new_double(v->net_hi));
	json_object_object_add(o, "pays_off", json_object_new_boolean(v->pays_off));
	return o;
}

static void print_verdict(FILE *f, const struct layout_prediction *p, const struct verdict *v)
{
	fprintf(f, "  %s, %llu slots: %s %.2f nodes per lookup [%+.2f, %+.2f] = %.1f ns, hashing "
		"costs %.1f ns %s: %s, net %+.1f ns per lookup [%+.1f, %+.1f]\n",
		table_hash_name(p->hash), (unsigned long long)p->shape.buckets,
		v->nodes_saved >= 0 ? "saves" : "adds", fabs(v->nodes_saved), v->nodes_saved_lo,
		v->nodes_saved_hi, fabs(v->saved_ns), fabs(v->hash_extra),
		v->hash_extra >= 0 ? "more" : "less",
		v->pays_off ? "pays off" : v->net_lo > 0 ? "costs more" : "no clear gain",
		v->net, v->net_lo, v->net_hi);
}

/* Bucket functions timed once per whatif: every call of a hash costs the same. */
static struct estimate costs[TABLE_HASH_EHASH + 1];
static bool costs_known[TABLE_HASH_EHASH + 1];

static struct estimate cached_hash_cost(enum table_hash h, unsigned int bits)
{
	if (!costs_known[h]) {
		costs[h] = hash_cost(h, bits);
		costs_known[h] = true;
	}
	return costs[h];
}

/* The costs the verdicts weighed: every bucket function timed, and a node. */
static void print_costs(FILE *f, struct json_object *o, struct estimate per_node, const char *source)
{
	struct json_object *hc = o ? json_object_new_object() : NULL;
	int h;

	if (o) {
		struct json_object *n = estimate_json(per_node);

		json_object_object_add(n, "source", json_object_new_string(source));
		json_object_object_add(o, "node_cost", n);
		json_object_object_add(o, "hash_costs", hc);
	} else {
		fprintf(f, "  costs here, ns, median [95%%]: a node %.2f [%.2f, %.2f] (%s)", per_node.median,
			per_node.lo, per_node.hi, source);
	}
	for (h = 1; h <= TABLE_HASH_EHASH; h++) {
		if (!costs_known[h])
			continue;
		if (hc)
			json_object_object_add(hc, table_hash_name((enum table_hash)h), estimate_json(costs[h]));
		else
			fprintf(f, "; %s %.2f [%.2f, %.2f]", table_hash_name((enum table_hash)h),
				costs[h].median, costs[h].lo, costs[h].hi);
	}
	if (!o)
		fprintf(f, "\n");
}

static int whatif_target(const struct whatif_req *q, const struct target_report *t,
			 const struct table_snapshot *weigh, struct json_object *arr)
{
	struct estimate per_node, hash_now = { 0, 0, 0 }, hash_alt;
	const char *cost_source = NULL;
	double walk_now = 0, now_exact = 0;
	struct verdict v;
	char *verdicts = NULL;
	size_t vlen = 0;
	FILE *vf = NULL;
	const struct table_snapshot *s = t->snapshot;
	bool counted = weigh->counted;
	enum table_hash current = table_hash_named(s->hash), hash[MAX_ALTS];
	unsigned int bits[MAX_ALTS];
	struct layout_prediction p;
	struct json_object *o = NULL, *preds = NULL, *meas;
	bool identity = false;
	int n, i, rc = 0;

	if (q->forced_current) {
		if (!table_hash_compatible(current, q->forced_current)) {
			fprintf(stderr, "pftrace: whatif: %s's keys cannot be hashed by %s\n",
				t->traced, table_hash_name(q->forced_current));
			return 2;
		}
		current = q->forced_current;
	}
	n = alternatives(q, s, current, hash, bits);
	if (arr) {
		o = json_object_new_object();
		preds = json_object_new_array();
		json_object_object_add(o, "traced", json_object_new_string(t->traced));
		if (weigh != s)
			json_object_object_add(o, "lookups_from", json_object_new_string(q->lookups_path));
		json_object_object_add(o, "recipe", json_object_new_string(t->recipe));
		json_object_array_add(arr, o);
	} else {
		printf("%s: %s, %llu entries in 2^%u buckets, %s hash%s\n", t->traced, t->table,
		       (unsigned long long)s->shape.entries, s->bits, s->hash,
		       counted ? "" : " (no lookups counted: trace with --snapshot and -d)");
		if (weigh != s)
			printf("  walks weighed by the lookups of %s\n", shown_path(q->lookups_path));
		if (counted && (weigh->counts_dropped || weigh->ncounts == weigh->counts_limit))
			printf("  %llu lookups of keys past the key map's %llu were not counted\n",
			       (unsigned long long)weigh->counts_dropped,
			       (unsigned long long)weigh->counts_limit);
		printf("  %-15s %-8s %17s  %8s   %s\n", "nodes/buckets", "hash", "buckets used",
		       "longest", "mean walk per lookup [best, worst order]");
	}
	for (i = 0; i < n; i++) {
		/* a big table takes seconds a layout: say which, on a terminal */
		progress("whatif: %s, layout %d of %d (%s, 2^%u buckets)", t->traced, i + 1, n,
			 table_hash_name(hash[i]), bits[i]);
		/* the first is the kernel's own layout: the snapshot's keys are in its chain order */
		/* the redrawn layouts' figures are JSON's alone: text does without their cost */
		if ((i == 0 && !q->forced_current ? predict_own_layout : predict_layout)(
			    &p, hash[i], bits[i], s->keys, s->nkeys,
			    counted ? weigh->counts : NULL, counted ? weigh->ncounts : 0, arr != NULL)) {
			fprintf(stderr, "pftrace: whatif: cannot lay out 2^%u buckets\n", bits[i]);
			rc = 1;
			break;
		}
		if (i == 0)
			identity = table_shape_equal(&p.shape, &s->shape);
		progress_done();
		if (arr)
			json_object_array_add(preds, prediction_json(&p, i == 0, counted));
		else
			print_row(&p, i == 0 && weigh == s, counted, t);
		/* the verdict: nodes saved x cost per node against the hash's extra cost */
		if (counted && i == 0) {
			walk_now = p.mean_walk;
			now_exact = p.mean_walk_in_order >= 0 ? p.mean_walk_in_order : p.mean_walk;
			cost_source = node_cost(t, &per_node);
			hash_now = cached_hash_cost(hash[0], bits[0]);
			if (!arr)
				vf = open_memstream(&verdicts, &vlen);
		} else if (counted) {
			hash_alt = cached_hash_cost(hash[i], bits[i]);
			verdict_compute(walk_now, p.mean_walk, now_exact, p.mean_walk_lo, p.mean_walk_hi,
					per_node, hash_now, hash_alt, &v);
			if (arr)
				json_object_object_add(json_object_array_get_idx(preds, i), "verdict",
						       verdict_json(&v, cost_source));
			else if (vf)
				print_verdict(vf, &p, &v);
		}
		layout_prediction_free(&p);
	}
	if (arr) {
		json_object_object_add(o, "predictions", preds);
		meas = table_shape_json(&s->shape, json_object_new_object());
		json_object_object_add(meas, "mean_walk", t->sum.completed && weigh == s ?
				       json_object_new_double(t->sum.mean_walked) : NULL);
		json_object_object_add(o, "measured", meas);
		json_object_object_add(o, "identity", json_object_new_boolean(identity));
		if (cost_source)
			print_costs(NULL, o, per_node, cost_source);
	} else {
		printf("  measured        %-8s %10llu %6.1f%%  %8llu   %s\n", s->hash,
		       (unsigned long long)s->shape.used,
		       100.0 * (double)s->shape.used / (double)s->shape.buckets,
		       (unsigned long long)s->shape.longest, t->sum.completed ? "(above)" : "-");
		printf("  identity: the kernel's own layout, predicted from the keys, %s\n",
		       identity ? "is the snapshot exactly" : current == TABLE_HASH_INODE ?
		       "DIFFERS from the snapshot: some inodes are not hashed by (i_sb, i_ino) "
		       "(iget5_locked() filesystems: btrfs, overlayfs, fuse)" :
		       "DIFFERS from the snapshot: the bucket function is not the kernel's");
		if (vf) {
			fclose(vf);
			vf = NULL;
			print_costs(stdout, NULL, per_node, cost_source);
			printf("  verdicts:\n%s", verdicts ? verdicts : "");
		}
		printf("\n");
	}
	if (vf)
		fclose(vf);
	free(verdicts);
	if (!rc && !identity)
		rc = 3;
	return rc;
}

/* The key counts of the same table (same traced function and key kind) in another run. */
static const struct table_snapshot *lookups_of(const struct run_file *lf,
					       const struct target_report *t)
{
	int i;

	for (i = 0; i < lf->rep.ntargets; i++) {
		const struct table_snapshot *s = lf->rep.targets[i].snapshot;

		if (s && s->counted && !strcmp(lf->rep.targets[i].traced, t->traced) &&
		    table_hash_compatible(table_hash_named(s->hash), table_hash_named(t->snapshot->hash)))
			return s;
	}
	return NULL;
}

int cmd_whatif(int argc, char **argv)
{
	struct whatif_req q;
	struct run_file *rf = calloc(1, sizeof(*rf)), *lf = calloc(1, sizeof(*lf));
	struct json_object *root = NULL, *arr = NULL;
	char err[PFT_ERRLEN];
	int rc, i, seen = 0, done = 0, worst = 0;

	if (!rf || !lf) {
		free(rf);
		free(lf);
		return 1;
	}
	rc = parse_whatif(argc, argv, &q);
	if (rc) {
		free(rf);
		free(lf);
		return rc < 0 ? 0 : rc;
	}
	if (q.lookups_path && runfile_read(q.lookups_path, lf, err, sizeof(err))) {
		fprintf(stderr, "pftrace: whatif: %s\n", err);
		worst = 2;
		goto out;
	}
	if (runfile_read(q.path, rf, err, sizeof(err))) {
		fprintf(stderr, "pftrace: whatif: %s\n", err);
		worst = 2;
		goto out;
	}
	if (q.json) {
		root = json_object_new_object();
		arr = json_object_new_array();
		json_object_object_add(root, "targets", arr);
	}
	for (i = 0; i < rf->rep.ntargets; i++) {
		const struct target_report *t = &rf->rep.targets[i];

		const struct table_snapshot *weigh;

		if (!t->snapshot || (q.target && strcmp(q.target, t->traced) &&
				     strcmp(q.target, t->requested)))
			continue;
		seen++;
		if (!t->sum.self_check_ok && t->snapshot->counted) {
			fprintf(stderr, "pftrace: whatif: %s: %s's self-check failed: its lookup "
				"counts come from walks the kernel disowns\n", shown_path(q.path), t->traced);
			worst = 2;
			done++;
			continue;
		}
		if (t->snapshot->shape.entries && !t->snapshot->keys) {
			fprintf(stderr, "pftrace: whatif: %s: the run file holds %s's table without its "
				"keys (too many for a run file)\n", shown_path(q.path), t->traced);
			worst = 2;
			done++;
			continue;
		}
		weigh = q.lookups_path ? lookups_of(lf, t) : t->snapshot;
		if (!weigh) {
			fprintf(stderr, "pftrace: whatif: %s counted no lookups of %s's keys (%s)\n",
				shown_path(q.lookups_path), t->traced, t->snapshot->hash);
			worst = 2;
			continue;
		}
		rc = whatif_target(&q, t, weigh, arr);
		if (rc > worst)
			worst = rc;
		done++;
	}
	if (!seen) {
		fprintf(stderr, "pftrace: whatif: %s has no snapshot%s%s (take one with pftrace "
			"snapshot, or trace with --snapshot)\n", shown_path(q.path), q.target ? " of " : "",
			q.target ? q.target : "");
		worst = 2;
	} else if (root && done) {
		json_finite_only(root);
		printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							      JSON_C_TO_STRING_NOSLASHESCAPE));
	}
	if (worst == 3)
		fprintf(stderr, "pftrace: whatif: identity check failed: the kernel's own layout "
			"predicted from the keys is not the snapshot\n");
	json_object_put(root);
out:
	runfile_free(rf);
	runfile_free(lf);
	free(rf);
	free(lf);
	return worst;
}

void report_verdicts(FILE *f, const struct run_report *r)
{
	struct layout_prediction own, p;
	struct estimate per_node, hash_now, hash_alt;
	struct verdict v;
	int i, j;

	for (i = 0; i < r->ntargets; i++) {
		const struct target_report *t = &r->targets[i];
		const struct table_snapshot *s = t->snapshot;
		enum table_hash now, alt[6];
		unsigned int bits[6];
		const char *source;
		int n = 0;

		if (!s || !s->counted || !s->keys || !t->sum.self_check_ok)
			continue;
		now = table_hash_named(s->hash);
		if (table_hash_compatible(TABLE_HASH_XOR, now)) {
			enum table_hash avc[3] = { TABLE_HASH_XOR, TABLE_HASH_MURMUR3, TABLE_HASH_JHASH };

			for (j = 0; j < 3; j++) {
				if (avc[j] != now)
					alt[n] = avc[j], bits[n++] = s->bits;
				alt[n] = avc[j], bits[n++] = s->bits + 1;
			}
		} else {
			alt[n] = now, bits[n++] = s->bits + 1;
		}
		progress("report: %s, what if, the kernel's own layout", t->traced);
		if (predict_own_layout(&own, now, s->bits, s->keys, s->nkeys, s->counts, s->ncounts,
				       false)) {
			progress_done();
			continue;
		}
		source = node_cost(t, &per_node);
		hash_now = cached_hash_cost(now, s->bits);
		progress_done();
		fprintf(f, "\nWhat if (%s: a node %.2f ns from %s):\n", t->traced, per_node.median,
			source);
		for (j = 0; j < n; j++) {
			progress("report: %s, what if %s with 2^%u buckets", t->traced,
				 table_hash_name(alt[j]), bits[j]);
			if (bits[j] > PFT_TABLE_MAX_BITS ||
			    predict_layout(&p, alt[j], bits[j], s->keys, s->nkeys, s->counts, s->ncounts,
					   false))
				continue;
			hash_alt = cached_hash_cost(alt[j], bits[j]);
			progress_done();
			verdict_compute(own.mean_walk, p.mean_walk, own.mean_walk_in_order >= 0 ?
					own.mean_walk_in_order : own.mean_walk, p.mean_walk_lo,
					p.mean_walk_hi, per_node, hash_now, hash_alt, &v);
			print_verdict(f, &p, &v);
			layout_prediction_free(&p);
		}
		progress_done();
		layout_prediction_free(&own);
	}
}
