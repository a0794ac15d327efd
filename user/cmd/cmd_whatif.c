// SPDX-License-Identifier: GPL-2.0
/*
 * pftrace whatif: from a run file's snapshot alone, lay the table's keys
 * out again in other sizes and, for the AVC, under other hashes, and
 * weigh each layout by the lookups the trace counted per key
 * (model/whatif.c; render/whatif_render.c prints it). The kernel's own
 * configuration comes first, predicted beside measured: the prediction
 * of the snapshot itself must be exact (the identity check, exit 3 if
 * not), and its mean walk beside the traced one shows the model's error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "cli.h"
#include "commands.h"
#include "fileio.h"
#include "hash_cost.h"
#include "knobs.h"
#include "opts.h"
#include "output.h"
#include "runfile.h"
#include "whatif_render.h"

enum { OPT_BITS = 256, OPT_BUCKETS, OPT_ENTRIES, OPT_HASH, OPT_WFORMAT, OPT_LOOKUPS };

static const struct opt_spec whatif_opt_specs[] = {
	{ "target", 't', "FUNC", "only this traced function's table" },
	{ "bits", OPT_BITS, "LIST", "table sizes as log2 of the buckets, e.g. 9,10,12\n"
				    "(default: the AVC's 9-14; others half to 8x the kernel's)" },
	{ "buckets", OPT_BUCKETS, "LIST", "table sizes in buckets, e.g. 65536,98304 (conntrack's\n"
					  "need not be powers of two; the others' must)" },
	{ "entries", OPT_ENTRIES, "N", "each size filled to N entries instead, each entry in an\n"
				       "independent random bucket (conntrack: 2 per connection)" },
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
	"whatif", "whatif RUN.json [-t FUNC] [--bits LIST] [--buckets LIST] [--entries N]\n"
	"              [--hash LIST] [--lookups RUN2.json] [--format text|json]",
	"predict the table's shape and walks at other sizes and hashes, from a run\n"
	"file with a snapshot (pftrace snapshot, or a trace with --snapshot)",
	whatif_opt_specs,
};

struct whatif_knobs {
	int current_hash;   /* the registry's index + 1 (model/table_hash.h) */
};

static const struct knob_spec whatif_knob_specs[] = {
	/* A debug knob: the identity check must then fail. */
	{ "current.hash", NULL, offsetof(struct whatif_knobs, current_hash), NULL, table_hash_name_at },
	{ 0 },
};

struct whatif_req {
	const char *path;
	const char *target;
	const char *lookups_path;
	bool json;
	struct whatif_ask ask;
};

/* --bits (log2 sizes, BITS) or --buckets (counts) LIST into Q's sizes */
static int parse_sizes(const char *list, bool bits, struct whatif_ask *q)
{
	const char *opt = bits ? "--bits" : "--buckets";
	char buf[512], *tok, *save = NULL;
	int before = q->nslots;
	long v;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (bits && pft_parse_whole(tok, 1, PFT_TABLE_MAX_BITS, &v))
			return pft_refuse("whatif", "--bits wants log2 sizes from 1 to %d, not '%s'",
					  PFT_TABLE_MAX_BITS, tok);
		if (!bits && pft_parse_whole(tok, 2, (long)PFT_TABLE_MAX_SLOTS, &v))
			return pft_refuse("whatif", "--buckets wants sizes from 2 to %llu, not '%s'",
					  (unsigned long long)PFT_TABLE_MAX_SLOTS, tok);
		if (q->nslots == WHATIF_MAX_LAYOUTS)
			return pft_refuse("whatif", "%s: at most %d sizes", opt, WHATIF_MAX_LAYOUTS);
		q->slots[q->nslots++] = bits ? 1ULL << v : (__u64)v;
	}
	if (q->nslots == before)
		return pft_refuse("whatif", "%s wants a list such as %s", opt,
				  bits ? "9,10,12" : "65536,131072");
	return 0;
}

/* "xor, murmur3 or jhash": the bucket functions --hash takes, the AVC's */
static const char *hash_choices(char *buf, size_t len)
{
	const struct table_hash *h;
	int i, n = 0, left = 0;
	size_t used = 0;

	for (i = 0; (h = table_hash_at(i)); i++)
		left += table_hash_compatible(&table_hash_xor, h);
	buf[0] = '\0';
	for (i = 0; (h = table_hash_at(i)) && used < len; i++)
		if (table_hash_compatible(&table_hash_xor, h))
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 !n++ ? "" : --left > 1 ? ", " : " or ", h->name);
	return buf;
}

static int parse_hashes(const char *list, struct whatif_ask *q)
{
	char buf[256], *tok, *save = NULL, choices[128];
	const struct table_hash *h;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		h = table_hash_named(tok);
		if (!table_hash_compatible(&table_hash_xor, h))
			return pft_refuse("whatif", "--hash wants %s, not '%s'",
					  hash_choices(choices, sizeof(choices)), tok);
		if (q->nhashes == WHATIF_MAX_HASHES)
			return pft_refuse("whatif", "--hash: at most %d hashes", WHATIF_MAX_HASHES);
		q->hashes[q->nhashes++] = h;
	}
	if (!q->nhashes)
		return pft_refuse("whatif", "--hash wants a list such as xor,murmur3");
	return 0;
}

/* One option into Q: 0, or 2 (refused, one line printed). */
static int whatif_option(int c, struct whatif_req *q, struct whatif_knobs *knobs)
{
	long v;

	switch (c) {
	case 't':
		q->target = optarg;
		return 0;
	case OPT_BITS:
	case OPT_BUCKETS:
		return parse_sizes(optarg, c == OPT_BITS, &q->ask) ? 2 : 0;
	case OPT_ENTRIES:
		if (pft_parse_whole(optarg, 1, 1L << 40, &v))
			return pft_refuse("whatif", "--entries wants a count from 1 to 2^40, not '%s'",
					  optarg);
		q->ask.entries = (__u64)v;
		return 0;
	case OPT_HASH:
		return parse_hashes(optarg, &q->ask) ? 2 : 0;
	case OPT_LOOKUPS:
		q->lookups_path = optarg;
		return 0;
	case OPT_WFORMAT:
		if (strcmp(optarg, "text") && strcmp(optarg, "json"))
			return pft_refuse("whatif", "--format wants text or json, not '%s'", optarg);
		q->json = !strcmp(optarg, "json");
		/* the figures of other boots' layouts are JSON's alone: text does without their cost */
		q->ask.redrawn = q->json;
		return 0;
	case 'C':
		return knob_parse("whatif", whatif_knob_specs, knobs, optarg);
	}
	return 0;
}

static int parse_whatif(int argc, char **argv, struct whatif_req *q)
{
	struct whatif_knobs knobs = { 0 };
	struct opt_parser parser;
	int c;

	memset(q, 0, sizeof(*q));
	opts_begin(&parser, whatif_opt_specs, false);
	while ((c = opts_next(&parser, argc, argv)) != -1) {
		switch (c) {
		case 'h':
			cmd_print_help(stdout, &whatif_cmd);
			return -1;
		case ':':
			return pft_refuse("whatif", "option '%s' needs a value", pft_optname(argv));
		case '?':
			return pft_refuse("whatif", "%s (see pftrace whatif --help)",
					  pft_unknown_option(whatif_opt_specs, argv));
		default:
			if (whatif_option(c, q, &knobs))
				return 2;
		}
	}
	if (optind + 1 != argc)
		return pft_refuse("whatif", optind >= argc ? "give one run file" :
				  "one run file only, not '%s'", argv[optind + (optind < argc)]);
	q->path = argv[optind];
	q->ask.forced_current = table_hash_at(knobs.current_hash - 1);
	return 0;
}

/* The key counts of the same table (same traced function and key kind) in another run. */
static const struct table_snapshot *lookups_of(const struct run_file *lf,
					       const struct target_report *t)
{
	int i;

	for (i = 0; i < lf->rep.ntargets; i++) {
		const struct table_snapshot *s = lf->rep.targets[i].snapshot;

		if (s && s->counted && !strcmp(lf->rep.targets[i].traced, t->traced) &&
		    table_hash_compatible(s->hash, t->snapshot->hash))
			return s;
	}
	return NULL;
}

/* One table, printed or added to ARR. 0, 1 (memory), 2 (refused), 3 (identity). */
static int whatif_target(const struct whatif_req *q, const struct target_report *t,
			 const struct table_snapshot *weigh, struct json_object *arr)
{
	struct whatif_table *w = malloc(sizeof(*w));
	int rc;

	if (!w)
		return 1;
	rc = whatif_weigh(w, &q->ask, t, weigh, hash_costs_here());
	if (rc == -EINVAL && !table_hash_compatible(t->snapshot->hash, q->ask.forced_current)) {
		fprintf(stderr, "pftrace: whatif: %s's keys cannot be hashed by %s\n",
			t->traced, q->ask.forced_current->name);
		free(w);
		return 2;
	}
	if (rc == -EINVAL) {
		fprintf(stderr, "pftrace: whatif: %s takes powers of two only (a mask), not %s's "
			"%llu buckets\n", q->ask.forced_current->name, t->traced,
			(unsigned long long)t->snapshot->shape.buckets);
		free(w);
		return 2;
	}
	if (rc)
		fprintf(stderr, "pftrace: whatif: cannot lay out %llu buckets\n",
			(unsigned long long)w->failed_slots);
	if (arr)
		json_object_array_add(arr, whatif_json(w, hash_costs_here(), q->lookups_path));
	else
		whatif_print_text(stdout, w, hash_costs_here(), shown_path(q->lookups_path));
	rc = rc ? 1 : w->identity ? 0 : 3;
	whatif_table_free(w);
	free(w);
	return rc;
}

/*
 * T's table, if it is one asked for: 0 when it is not, else 1 with the
 * exit status so far raised to what it gave (2 for a refusal, one line).
 */
static int whatif_one(const struct whatif_req *q, const struct run_file *lf,
		      const struct target_report *t, struct json_object *arr, int *worst)
{
	const struct table_snapshot *weigh;
	__u64 bad;
	int rc = 2;

	if (!t->snapshot || (q->target && strcmp(q->target, t->traced) &&
			     strcmp(q->target, t->requested)))
		return 0;
	if (!t->sum.self_check_ok && t->snapshot->counted)
		fprintf(stderr, "pftrace: whatif: %s: %s's self-check failed: its lookup "
			"counts come from walks the kernel disowns\n", shown_path(q->path), t->traced);
	else if (t->snapshot->shape.entries && !t->snapshot->keys)
		fprintf(stderr, "pftrace: whatif: %s: the run file holds %s's table without its "
			"keys (too many for a run file)\n", shown_path(q->path), t->traced);
	else if (!(weigh = q->lookups_path ? lookups_of(lf, t) : t->snapshot))
		fprintf(stderr, "pftrace: whatif: %s counted no lookups of %s's keys (%s)\n",
			shown_path(q->lookups_path), t->traced, t->snapshot->hash->name);
	else if ((bad = whatif_size_refused(&q->ask, t->snapshot->hash)))
		fprintf(stderr, "pftrace: whatif: %s's %s takes powers of two only (a mask), "
			"not %llu buckets\n", t->traced, t->snapshot->hash->name,
			(unsigned long long)bad);
	else
		rc = whatif_target(q, t, weigh, arr);
	if (rc > *worst)
		*worst = rc;
	return 1;
}

/* Every table of RF asked for; the exit status. */
static int whatif_run(const struct whatif_req *q, const struct run_file *rf,
		      const struct run_file *lf)
{
	struct json_object *root = NULL, *arr = NULL;
	int i, done = 0, worst = 0;

	if (q->json) {
		root = json_object_new_object();
		arr = json_object_new_array();
		json_object_object_add(root, "targets", arr);
	}
	for (i = 0; i < rf->rep.ntargets; i++)
		done += whatif_one(q, lf, &rf->rep.targets[i], arr, &worst);
	if (!done) {
		fprintf(stderr, "pftrace: whatif: %s has no snapshot%s%s (take one with pftrace "
			"snapshot, or trace with --snapshot)\n", shown_path(q->path), q->target ? " of " : "",
			q->target ? q->target : "");
		worst = 2;
	} else if (root && json_object_array_length(arr)) {
		/* a document only when it holds a table: a refusal is its one line */
		json_finite_only(root);
		printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							      JSON_C_TO_STRING_NOSLASHESCAPE));
	}
	if (worst == 3)
		fprintf(stderr, "pftrace: whatif: identity check failed: the kernel's own layout "
			"predicted from the keys is not the snapshot\n");
	json_object_put(root);
	return worst;
}

int cmd_whatif(int argc, char **argv)
{
	struct whatif_req q;
	struct run_file *rf = calloc(1, sizeof(*rf)), *lf = calloc(1, sizeof(*lf));
	char err[PFT_ERRLEN];
	int rc = 1;

	if (!rf || !lf)
		goto out;
	rc = parse_whatif(argc, argv, &q);
	if (rc) {
		rc = rc < 0 ? 0 : rc;
		goto out;
	}
	if ((q.lookups_path && runfile_read(q.lookups_path, lf, err, sizeof(err))) ||
	    runfile_read(q.path, rf, err, sizeof(err))) {
		fprintf(stderr, "pftrace: whatif: %s\n", err);
		rc = 2;
	} else {
		rc = whatif_run(&q, rf, lf);
	}
	runfile_free(rf);
	runfile_free(lf);
out:
	free(rf);
	free(lf);
	return rc;
}
