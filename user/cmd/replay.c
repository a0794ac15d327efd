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

#include "aggregate.h"
#include "cli.h"
#include "hist.h"
#include "kernel.h"
#include "commands.h"
#include "opts.h"
#include "output.h"
#include "progress.h"
#include "replay.h"
#include "stats.h"
#include "targets.h"
#include "runfile.h"

#define REPLAY_MAX_LEN PFT_MAX_WALK
#define REPLAY_COLD_MAX_MB 256UL

/* What to replay: per walk kind, how often, from a run file or a spec. */
struct replay_dist {
	double hit_pos[REPLAY_MAX_LEN + 1];    /* hits at position p (weights) */
	double tail_ratio;                     /* hits on the chain's last node */
	double miss_len[REPLAY_MAX_LEN + 1];   /* misses walking L nodes */
	char source[256];
	char traced[64];
	int node_bytes;
};

/* One bucket and the lookup made on it. */
struct replay_template {
	int chain_len;
	int hit_pos;        /* 0: a miss */
};

struct replay_table {
	struct replay_bucket *buckets;
	char *nodes;
	struct replay_lookup *seq;
	size_t nbuckets, nnodes, nseq;
	int node_bytes;
};

enum { OPT_NONE, OPT_EVERY, OPT_NONNULL, NOPTS };
static const char *const opt_key[NOPTS] = { "none", "every_node", "nonnull_only" };
static const char *const opt_text[NOPTS] = {
	"no prefetch (3.0+)", "prefetch(pos->next), every node", "prefetch only if not NULL",
};
static const replay_walk_fn opt_fn[NOPTS] = {
	replay_walk_none, replay_walk_every_node, replay_walk_nonnull_only,
};

#define bad(...) pft_refuse("replay", __VA_ARGS__)

/*
 * The kernel objects' sizes (slab object sizes on 6.12, x86-64): the
 * replay's nodes take as much memory, so cold tables miss the caches
 * as the kernel's would.
 */
/*
 * The run file is read once: its text gives the walks to replay and,
 * kept in *doc, the document that -o writes back with "replay" added.
 */
static int dist_from_run(struct replay_dist *d, const char *path, const char *func,
			 struct json_object **doc)
{
	struct run_file rf;
	char err[PFT_ERRLEN], *text;
	const struct target_report *t = NULL;
	const struct recipe *rcp;
	char traced[128];
	size_t len;
	int i, rc;

	if (read_regular_file("", path, RUNFILE_MAX_BYTES, &text, &len, err, sizeof(err)))
		return bad("%s", err);
	if (runfile_parse(text, len, path, &rf, err, sizeof(err))) {
		free(text);
		return bad("%s", err);
	}
	*doc = json_tokener_parse(text);
	free(text);
	if (!*doc) {
		runfile_free(&rf);
		return bad("%s: out of memory", path);
	}
	for (i = 0; i < rf.rep.ntargets; i++)
		if (!func || !strcmp(rf.rep.targets[i].traced, func) ||
		    !strcmp(rf.rep.targets[i].requested, func))
			break;
	if (i == rf.rep.ntargets) {
		rc = bad("%s: no target %s in it", path, func ? func : "at all");
		goto refused;
	}
	t = &rf.rep.targets[i];
	text_safe(t->traced, traced, sizeof(traced));
	if (!rf.has_histograms[i] || !t->sum.completed) {
		rc = bad("%s: %s has no walks to replay%s", path, traced,
			 t->sum.self_check_ok ? "" : " (its self-check failed)");
		goto refused;
	}
	memset(d, 0, sizeof(*d));
	for (i = 0; i <= REPLAY_MAX_LEN; i++) {
		d->hit_pos[i] = (double)t->stats.hit_pos_hist[i];
		d->miss_len[i] = (double)(t->stats.chain_walked_hist[i] - t->stats.hit_pos_hist[i]);
	}
	d->tail_ratio = t->stats.walk_hits ? (double)t->stats.next_null_at_hit / (double)t->stats.walk_hits : 1;
	rcp = t->recipe ? recipe_named(t->recipe) : NULL;
	if (!rcp) {
		char safe[128];

		text_safe(t->recipe ? t->recipe : "(none)", safe, sizeof(safe));
		rc = bad("%s: %s's recipe '%s' is not one this pftrace knows: its node size is "
			 "unknown", path, traced, safe);
		goto refused;
	}
	d->node_bytes = (int)rcp->node_bytes;
	snprintf(d->traced, sizeof(d->traced), "%s", t->traced);
	snprintf(d->source, sizeof(d->source), "%s, %s on %s", path, t->traced, rf.rep.kernel_release);
	runfile_free(&rf);
	return 0;

refused:
	/* after the message: it may quote strings that live in rf */
	runfile_free(&rf);
	json_object_put(*doc);
	*doc = NULL;
	return rc;
}

/*
 * SPEC: chain=N (every chain N nodes) or mean=X (1 + Poisson(X - 1)
 * nodes), hits=F (share of lookups that hit, default 1), node=BYTES.
 * Hits land on every position of a chain alike.
 */
static int dist_from_spec(struct replay_dist *d, const char *spec)
{
	char buf[256], *tok, *save = NULL, *end;
	double chain = 0, mean = 0, hits = 1, node = 64, len_w[REPLAY_MAX_LEN + 1] = { 0 }, sum = 0;
	int i, p;

	memset(d, 0, sizeof(*d));
	d->node_bytes = 64;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		double v;

		if (!eq)
			return bad("--synthetic: '%s' is not KEY=VALUE", tok);
		*eq = '\0';
		if (strcmp(tok, "chain") && strcmp(tok, "mean") && strcmp(tok, "hits") && strcmp(tok, "node"))
			return bad("--synthetic: unknown key '%s' (known: chain, mean, hits, node)", tok);
		v = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || !isfinite(v))
			return bad("--synthetic: %s wants a number, not '%s'", tok, eq + 1);
		if (!strcmp(tok, "chain"))
			chain = v;
		else if (!strcmp(tok, "mean"))
			mean = v;
		else if (!strcmp(tok, "hits"))
			hits = v;
		else
			node = v;
	}
	if ((chain > 0) == (mean > 0))
		return bad("--synthetic: give chain=N or mean=X (one of them, positive)");
	if (chain && (chain != floor(chain) || chain > REPLAY_MAX_LEN))
		return bad("--synthetic: chain=%g is not a whole number of nodes from 1 to %d", chain,
			   REPLAY_MAX_LEN);
	if (mean && (mean < 1 || mean > 64))
		return bad("--synthetic: mean=%g: chains have 1 node or more, and 64 on average at most", mean);
	if (hits < 0 || hits > 1)
		return bad("--synthetic: hits=%g is not a share between 0 and 1", hits);
	/* checked as a double: converting 1e300 to int would be undefined */
	if (node != floor(node) || node < (double)sizeof(struct replay_node) || node > 65536)
		return bad("--synthetic: node=%g is not a whole number of bytes from %zu to 65536",
			   node, sizeof(struct replay_node));
	d->node_bytes = (int)node;
	for (i = 1; i <= REPLAY_MAX_LEN; i++) {
		/* Poisson(mean - 1) shifted by one, by its recurrence */
		len_w[i] = chain ? (i == (int)chain) : (i == 1 ? exp(-(mean - 1)) : len_w[i - 1] * (mean - 1) / (i - 1));
		sum += len_w[i];
	}
	for (i = 1; i <= REPLAY_MAX_LEN; i++) {
		len_w[i] /= sum;
		d->miss_len[i] = (1 - hits) * len_w[i];
		for (p = 1; p <= i; p++)
			d->hit_pos[p] += hits * len_w[i] / i;
	}
	/* a hit is on the tail when its position is its chain's length */
	for (i = 1, sum = 0; i <= REPLAY_MAX_LEN; i++)
		sum += len_w[i] / i;
	d->tail_ratio = sum;
	snprintf(d->traced, sizeof(d->traced), "synthetic");
	snprintf(d->source, sizeof(d->source), "synthetic %s", spec);
	return 0;
}

/*
 * M templates in the proportions of the distribution (largest
 * remainder, not random draws: the replayed mix matches the recorded one
 * to within 1/M). A non-tail hit at p gets a chain of p + 1 nodes.
 */
static size_t make_templates(const struct replay_dist *d, struct replay_template *tpl, size_t m)
{
	double w[2 * (REPLAY_MAX_LEN + 1)], total = 0, rem[2 * (REPLAY_MAX_LEN + 1)];
	size_t count[2 * (REPLAY_MAX_LEN + 1)], used = 0, k, n = 0;
	int i, kinds = 2 * (REPLAY_MAX_LEN + 1);

	for (i = 0; i <= REPLAY_MAX_LEN; i++) {
		w[i] = d->hit_pos[i];                  /* hits at position i */
		w[REPLAY_MAX_LEN + 1 + i] = d->miss_len[i];
		total += w[i] + d->miss_len[i];
	}
	for (i = 0; i < kinds; i++) {
		double exact = total > 0 ? w[i] / total * (double)m : 0;

		count[i] = (size_t)exact;
		rem[i] = exact - (double)count[i];
		used += count[i];
	}
	while (used < m) {
		int best = 0;

		for (i = 1; i < kinds; i++)
			if (rem[i] > rem[best])
				best = i;
		count[best]++;
		rem[best] = -1;
		used++;
	}
	for (i = 0; i < kinds; i++) {
		for (k = 0; k < count[i] && n < m; k++, n++) {
			if (i <= REPLAY_MAX_LEN) {
				/* spread tail and non-tail hits evenly over the templates */
				bool tail = i == 0 || floor((double)(k + 1) * d->tail_ratio) > floor((double)k * d->tail_ratio);

				tpl[n].hit_pos = i;
				tpl[n].chain_len = tail ? i : i + 1;
			} else {
				tpl[n].hit_pos = 0;
				tpl[n].chain_len = i - (REPLAY_MAX_LEN + 1);
			}
		}
	}
	return n;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	/* xorshift64*: fast, and the same table on every run */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static struct replay_node *node_at(const struct replay_table *t, size_t i)
{
	return (struct replay_node *)(t->nodes + i * (size_t)t->node_bytes);
}

static int build_table(struct replay_table *t, const struct replay_template *tpl, size_t m,
		       int node_bytes, size_t nseq)
{
	size_t i, j, *slot, next_slot = 0;
	uint64_t key = 1;

	memset(t, 0, sizeof(*t));
	t->node_bytes = node_bytes;
	t->nbuckets = m;
	for (i = 0; i < m; i++)
		t->nnodes += (size_t)tpl[i].chain_len;
	t->buckets = calloc(m, sizeof(*t->buckets));
	t->nodes = aligned_alloc(64, ((t->nnodes ? t->nnodes : 1) * (size_t)node_bytes + 63) / 64 * 64);
	slot = malloc((t->nnodes ? t->nnodes : 1) * sizeof(*slot));
	t->seq = malloc(nseq * sizeof(*t->seq));
	if (!t->buckets || !t->nodes || !slot || !t->seq) {
		free(slot);
		return -ENOMEM;
	}
	memset(t->nodes, 0, t->nnodes * (size_t)node_bytes);
	/* nodes sit in shuffled order: each next is a load from anywhere */
	for (i = 0; i < t->nnodes; i++)
		slot[i] = i;
	for (i = t->nnodes; i > 1; i--) {
		j = rng() % i;
		size_t tmp = slot[i - 1];

		slot[i - 1] = slot[j];
		slot[j] = tmp;
	}
	for (i = 0; i < m; i++) {
		struct replay_node **link = &t->buckets[i].first;
		int n;

		for (n = 0; n < tpl[i].chain_len; n++) {
			struct replay_node *node = node_at(t, slot[next_slot++]);

			node->key = key++;
			*link = node;
			link = &node->next;
		}
		*link = NULL;
	}
	free(slot);
	/* the lookup sequence: every template equally often, shuffled */
	for (i = 0; i < nseq; i++) {
		size_t b = i % m;
		struct replay_node *pos = t->buckets[b].first;
		int p;

		t->seq[i].bucket = (uint32_t)b;
		if (tpl[b].hit_pos) {
			for (p = 1; p < tpl[b].hit_pos; p++)
				pos = pos->next;
			t->seq[i].key = pos->key;
		} else {
			t->seq[i].key = UINT64_MAX - i;     /* in no chain */
		}
	}
	for (i = nseq; i > 1; i--) {
		struct replay_lookup tmp;

		j = rng() % i;
		tmp = t->seq[i - 1];
		t->seq[i - 1] = t->seq[j];
		t->seq[j] = tmp;
	}
	return 0;
}

static void free_table(struct replay_table *t)
{
	free(t->buckets);
	free(t->nodes);
	free(t->seq);
}

/* The counting pass: what the timed walks actually walked. */
static void count_walks(const struct replay_table *t, __u64 *walked_hist, __u64 *hits)
{
	size_t i;

	*hits = 0;
	for (i = 0; i < t->nseq; i++) {
		const struct replay_node *pos = t->buckets[t->seq[i].bucket].first;
		int n = 0;

		for (; pos; pos = pos->next) {
			n++;
			if (pos->key == t->seq[i].key) {
				(*hits)++;
				break;
			}
		}
		walked_hist[n > PFT_MAX_WALK ? PFT_MAX_WALK : n]++;
	}
}

static double dist_mean(const struct replay_dist *d, double *hit_ratio)
{
	double total = 0, nodes = 0, hits = 0;
	int i;

	for (i = 0; i <= REPLAY_MAX_LEN; i++) {
		total += d->hit_pos[i] + d->miss_len[i];
		nodes += i * (d->hit_pos[i] + d->miss_len[i]);
		hits += d->hit_pos[i];
	}
	*hit_ratio = total ? hits / total : 0;
	return total ? nodes / total : 0;
}

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
	char *end;
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
			l = strtol(optarg, &end, 10);
			if (end == optarg || *end || l < 5 || l > 255)
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
