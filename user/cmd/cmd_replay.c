// SPDX-License-Identifier: GPL-2.0
/*
 * `pftrace replay RUN.json [-t FUNC]` and `pftrace replay --synthetic SPEC`.
 *
 * A trace says what chains look like; it cannot say what a prefetch
 * would cost on this CPU. The replay builds hash chains whose walks
 * follow the recorded distribution (hit positions, tails, misses),
 * nodes the size of the kernel's scattered over memory so that every
 * step is a dependent load, and times one walk routine compiled three
 * ways (user/cmd/replay_walk.c) against the same lookup sequence.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif
#include <json-c/json.h>

#include "cli.h"
#include "hist.h"
#include "commands.h"
#include "opts.h"
#include "output.h"
#include "progress.h"
#include "replay.h"
#include "replay_table.h"
#include "stats.h"

#define REPLAY_COLD_MAX_MB 256UL

enum { OPT_NONE, OPT_EVERY, OPT_NONNULL, NOPTS };
static const char *const opt_key[NOPTS] = { "none", "every_node", "nonnull_only" };
static const char *const opt_text[NOPTS] = {
	"no prefetch (3.0+)", "prefetch(pos->next), every node", "prefetch only if not NULL",
};
static const replay_walk_fn opt_fn[NOPTS] = {
	replay_walk_none, replay_walk_every_node, replay_walk_nonnull_only,
};

#define bad(...) pft_refuse("replay", __VA_ARGS__)

static bool tsc_usable(void)
{
#if defined(__x86_64__)
	char line[4096];
	bool constant = false, nonstop = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	if (f)
		fclose(f);
	return constant && nonstop;
#else
	return false;
#endif
}

static double now_ticks(bool tsc)
{
	struct timespec ts;

#if defined(__x86_64__)
	if (tsc) {
		unsigned long long t;

		_mm_lfence();
		t = __rdtsc();
		_mm_lfence();
		return (double)t;
	}
#elif defined(__aarch64__)
	/*
	 * The generic timer's virtual count, which Linux lets user space read
	 * (its vDSO clock reads the same), in ns at CNTFRQ_EL0's rate: no
	 * system call nor vDSO between a pass and its clock. The isb keeps
	 * the read from being taken before the pass's last instruction.
	 */
	unsigned long long cnt, frq;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(cnt) : : "memory");
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(frq));
	if (frq)
		return (double)cnt * 1e9 / (double)frq;
#endif
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}


struct replay_opts {
	const char *run;          /* RUN.json, or NULL */
	const char *spec;         /* --synthetic SPEC, or NULL */
	const char *target;       /* -t FUNC */
	const char *out;          /* -o */
	int reps;
	bool cold;
	enum out_format format;
};

/* The table replayed, and what timing each prefetch option on it gave. */
struct replay_bench {
	struct replay_table t;
	double llc;                          /* last-level cache, bytes */
	double req_mean, req_hits;           /* what the distribution asks */
	__u64 walked[PFT_HIST_SLOTS], hits;  /* what the table holds, counted */
	bool tsc;                            /* times in TSC ticks, else ns */
	double *samples[NOPTS], *ratios[NOPTS];
	struct estimate e[NOPTS], ratio[NOPTS];
};

enum { OPT_SYNTHETIC = 256, OPT_COLD, OPT_REPLAY_FORMAT };

static const struct opt_spec replay_opt_specs[] = {
	{ "target", 't', "FUNC", "the run file's target to replay (default the first)" },
	{ "synthetic", OPT_SYNTHETIC, "SPEC", "chains of SPEC instead of a run file: chain=N or mean=X,\n"
				    "hits=F (share that hit), node=BYTES" },
	{ "cold", OPT_COLD, NULL, "nodes spread over 4x the last-level cache (default warm)" },
	{ "reps", 'r', "N", "passes of each option, 5 to 255 (default 21)" },
	{ "output", 'o', "FILE", "the run file with a \"replay\" section added (- for stdout)" },
	{ "format", OPT_REPLAY_FORMAT, "FORMAT", "text or json (default text)" },
	{ "quiet", 'q', NULL, "no status line of the passes on a terminal" },
	{ "help", 'h', NULL, "this text" },
	{ 0 },
};

const struct cmd_spec replay_cmd = {
	"replay", "replay RUN.json [-t FUNC] | --synthetic SPEC [--cold] [-r N] [-o FILE]",
	"Replays the recorded chains (or synthetic ones) in user space and times the\n"
	"walk three ways: no prefetch, prefetch(pos->next) at every node, and only\n"
	"when next is not NULL.",
	replay_opt_specs,
};

/* 0: parsed; 2: refused (one line); -1: help printed */
static int parse_replay_opts(int argc, char **argv, struct replay_opts *o)
{
	char ext_err[PFT_ERRLEN];
	struct opt_parser parser;
	long l;
	int c;

	memset(o, 0, sizeof(*o));
	o->reps = 21;
	o->format = FORMAT_TEXT;
	opts_begin(&parser, replay_opt_specs, false);
	while ((c = opts_next(&parser, argc, argv)) != -1) {
		switch (c) {
		case 'h':
			cmd_print_help(stdout, &replay_cmd);
			return -1;
		case 't': o->target = optarg; break;
		case OPT_SYNTHETIC: o->spec = optarg; break;
		case OPT_COLD: o->cold = true; break;
		case 'o':
			if (output_extension_check(optarg, false, ext_err, sizeof(ext_err)))
				return bad("%s", ext_err);
			o->out = optarg;
			break;
		case 'q':
			progress_quiet();
			break;
		case 'r':
			if (pft_parse_whole(optarg, 5, 255, &l))
				return bad("-r wants a number of repetitions from 5 to 255, not '%s'", optarg);
			o->reps = (int)l;
			break;
		case OPT_REPLAY_FORMAT:
			if (!strcmp(optarg, "text"))
				o->format = FORMAT_TEXT;
			else if (!strcmp(optarg, "json"))
				o->format = FORMAT_JSON;
			else
				return bad("--format wants text or json, not '%s'", optarg);
			break;
		case ':':
			return bad("option '%s' needs a value", pft_optname(argv));
		default:
			return bad("%s", pft_unknown_option(replay_opt_specs, argv));
		}
	}
	if (optind < argc)
		o->run = argv[optind++];
	if (optind < argc || !!o->run == !!o->spec)
		return bad("give one run file or --synthetic SPEC: pftrace replay RUN.json [-t FUNC] | "
			   "pftrace replay --synthetic chain=1");
	if (o->spec && o->target)
		return bad("-t picks a target of a run file; --synthetic has none");
	return 0;
}

/*
 * Warm: 4096 buckets, the whole table in cache after the warm-up.
 * Cold: nodes spread over four times the last-level cache.
 */
static int build_bench(const struct replay_opts *o, const struct replay_dist *d,
		       struct replay_bench *b)
{
	struct replay_template *tpl;
	size_t m = 4096, nseq;

	b->llc = (double)sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (b->llc <= 0)
		b->llc = 32 << 20;
	b->req_mean = dist_mean(d, &b->req_hits);
	if (o->cold) {
		/* capped: a VM may report a host's huge LLC */
		double bytes = fmin(4 * b->llc, (double)(REPLAY_COLD_MAX_MB << 20));

		m = (size_t)(bytes / ((b->req_mean > 1 ? b->req_mean : 1) * d->node_bytes)) + 1;
	}
	/* every template equally often: a whole number of rounds */
	nseq = (100000 + m - 1) / m * m;
	tpl = calloc(m, sizeof(*tpl));
	if (!tpl)
		return bad("out of memory");
	m = make_templates(d, tpl, m);
	if (build_table(&b->t, tpl, m, d->node_bytes, nseq)) {
		free(tpl);
		return bad("cannot allocate %zu nodes of %d bytes", b->t.nnodes, d->node_bytes);
	}
	b->t.nseq = nseq;
	free(tpl);
	count_walks(&b->t, b->walked, &b->hits);
	return 0;
}

/* REPS passes of each option, on one CPU, in a rotating order. */
static int time_options(struct replay_bench *b, int reps)
{
	const struct replay_table *t = &b->t;
	cpu_set_t set;
	int o, r, cpu;

	/* one CPU, the one we are on: migrations would time the scheduler */
	cpu = sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	b->tsc = tsc_usable();
	for (o = 0; o < NOPTS; o++) {
		b->samples[o] = calloc((size_t)reps, sizeof(double));
		b->ratios[o] = calloc((size_t)reps, sizeof(double));
		if (!b->samples[o] || !b->ratios[o])
			return bad("out of memory");
		opt_fn[o](t->buckets, t->seq, t->nseq);            /* warm-up */
	}
	for (r = 0; r < reps; r++) {
		progress("replay: pass %d of %d", r + 1, reps);
		/* a rotating order: no option always runs first after another */
		for (o = 0; o < NOPTS; o++) {
			int which = (o + r) % NOPTS;
			double t0 = now_ticks(b->tsc);
			unsigned long found = opt_fn[which](t->buckets, t->seq, t->nseq);

			b->samples[which][r] = (now_ticks(b->tsc) - t0) / (double)t->nseq;
			if (found != b->hits)
				return bad("internal error: the %s walk found %lu of %llu", opt_key[which],
					   found, (unsigned long long)b->hits);
		}
		for (o = 0; o < NOPTS; o++)
			b->ratios[o][r] = b->samples[o][r] / b->samples[OPT_NONE][r];
	}
	progress_done();

	for (o = 0; o < NOPTS; o++) {
		b->e[o] = estimate(b->samples[o], reps);
		b->ratio[o] = estimate(b->ratios[o], reps);
	}
	return 0;
}

static double counted_mean(const struct replay_bench *b)
{
	double nodes = 0;
	int i;

	for (i = 0; i < PFT_HIST_SLOTS; i++)
		nodes += (double)i * (double)b->walked[i];
	return nodes / (double)b->t.nseq;
}

/* The "replay" section of a run file, and replay's --format json. */
static struct json_object *replay_json(const struct replay_opts *o, const struct replay_dist *d,
				       const struct replay_bench *b)
{
	struct json_object *rj = json_object_new_object(), *opts = json_object_new_object();
	struct json_object *req = json_object_new_object(), *got = json_object_new_object();
	int i, r;

	json_object_object_add(rj, "source", json_object_new_string(d->source));
	json_object_object_add(rj, "traced", json_object_new_string(d->traced));
	json_object_object_add(rj, "mode", json_object_new_string(o->cold ? "cold" : "warm"));
	json_object_object_add(rj, "unit", json_object_new_string(b->tsc ? "tsc" : "ns"));
	json_object_object_add(rj, "buckets", json_object_new_uint64(b->t.nbuckets));
	json_object_object_add(rj, "nodes", json_object_new_uint64(b->t.nnodes));
	json_object_object_add(rj, "node_bytes", json_object_new_int(d->node_bytes));
	json_object_object_add(rj, "lookups_per_pass", json_object_new_uint64(b->t.nseq));
	json_object_object_add(rj, "reps", json_object_new_int(o->reps));
	json_object_object_add(req, "mean_nodes", json_object_new_double(b->req_mean));
	json_object_object_add(req, "hit_ratio", json_object_new_double(b->req_hits));
	json_object_object_add(got, "mean_nodes", json_object_new_double(counted_mean(b)));
	json_object_object_add(got, "hit_ratio",
			       json_object_new_double((double)b->hits / (double)b->t.nseq));
	json_object_object_add(got, "chain_walked", hist_json(b->walked, PFT_HIST_SLOTS));
	json_object_object_add(rj, "requested", req);
	json_object_object_add(rj, "counted", got);
	for (i = 0; i < NOPTS; i++) {
		struct json_object *oj = estimate_json(b->e[i]), *sj = json_object_new_array();

		for (r = 0; r < o->reps; r++)
			json_object_array_add(sj, json_object_new_double(b->samples[i][r]));
		json_object_object_add(oj, "samples", sj);
		if (i != OPT_NONE)
			json_object_object_add(oj, "ratio_to_none", estimate_json(b->ratio[i]));
		json_object_object_add(opts, opt_key[i], oj);
	}
	json_object_object_add(rj, "per_lookup", opts);
	return rj;
}

static void print_replay_text(const struct replay_opts *o, const struct replay_dist *d,
			      const struct replay_bench *b)
{
	const struct replay_table *t = &b->t;
	int i;

	printf("pftrace replay: %s\n", d->source);
	printf("  %s table: %zu buckets, %zu nodes of %d bytes (%.1f MB; last-level cache %.0f MB%s)\n",
	       o->cold ? "cold" : "warm", t->nbuckets, t->nnodes, d->node_bytes,
	       (double)t->nnodes * d->node_bytes / 1048576, b->llc / 1048576,
	       o->cold && 4 * b->llc > (double)(REPLAY_COLD_MAX_MB << 20) ?
	       ", cold tables capped at 256 MB" : "");
	printf("  replayed: %zu lookups a pass, %.3f nodes walked each (asked %.3f), %.2f%% hits "
	       "(asked %.2f%%)\n", t->nseq, counted_mean(b), b->req_mean,
	       100.0 * (double)b->hits / (double)t->nseq, 100 * b->req_hits);
	printf("  %s per lookup, median of %d passes [95%% interval]:\n",
	       b->tsc ? "TSC ticks" : "nanoseconds", o->reps);
	for (i = 0; i < NOPTS; i++) {
		printf("    %-34s %8.2f [%.2f, %.2f]", opt_text[i], b->e[i].median, b->e[i].lo,
		       b->e[i].hi);
		if (i != OPT_NONE)
			printf("   %.3fx [%.3f, %.3f] of no prefetch%s", b->ratio[i].median,
			       b->ratio[i].lo, b->ratio[i].hi,
			       b->ratio[i].lo <= 1 && b->ratio[i].hi >= 1 ? ", within noise" : "");
		printf("\n");
	}
}

/*
 * -o: the run file's JSON kept whole, "replay" added. -o may name the
 * run file itself, by any spelling, or a new file, and either way report
 * reads what it gets. A synthetic replay traced nothing: its file has
 * the run file's header and no target.
 */
static int write_replay_file(const char *out, struct json_object *doc, struct json_object *rj)
{
	char err[PFT_ERRLEN];
	int rc = 0;

	if (!doc)
		doc = runfile_new_document("pftrace replay");
	else
		json_object_get(doc);
	json_object_object_add(doc, "replay", json_object_get(rj));
	if (json_write_file(doc, out, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		rc = 1;
	}
	json_object_put(doc);
	return rc;
}

static void free_bench(struct replay_bench *b)
{
	int o;

	for (o = 0; o < NOPTS; o++) {
		free(b->samples[o]);
		free(b->ratios[o]);
	}
	free_table(&b->t);
}

/* Read or make the chains, build the table, time each option, report. */
int cmd_replay(int argc, char **argv)
{
	struct replay_opts o;
	struct replay_dist d;
	struct replay_bench b = { 0 };
	struct json_object *doc = NULL, *rj = NULL;
	char err[PFT_ERRLEN];
	int rc;

	rc = parse_replay_opts(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (o.out && check_output_path(o.out, err, sizeof(err)))
		return bad("%s", err);
	rc = o.run ? dist_from_run(&d, o.run, o.target, &doc) : dist_from_spec(&d, o.spec);
	if (!rc)
		rc = build_bench(&o, &d, &b);
	if (!rc)
		rc = time_options(&b, o.reps);
	if (!rc) {
		rj = replay_json(&o, &d, &b);
		if (o.out && output_is_stdout(o.out))
			;   /* -o -: stdout carries the run file, and only that */
		else if (o.format == FORMAT_JSON)
			json_print(rj, stdout);
		else
			print_replay_text(&o, &d, &b);
		if (o.out)
			rc = write_replay_file(o.out, doc, rj);
	}
	json_object_put(doc);
	json_object_put(rj);
	free_bench(&b);
	return rc;
}
