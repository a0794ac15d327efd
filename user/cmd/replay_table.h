/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What pftrace replay walks: the distribution of a run's walks (or of a
 * synthetic spec), and a table in memory whose chains and lookups
 * follow it (replay_table.c).
 */
#ifndef PFT_REPLAY_TABLE_H
#define PFT_REPLAY_TABLE_H

#include <stddef.h>
#include <linux/types.h>
#include "pftrace.h"
#include "replay.h"

#define REPLAY_MAX_LEN PFT_MAX_WALK

struct json_object;

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

/*
 * The walks of PATH's target FUNC (NULL: the first); *DOC keeps the
 * document, which -o writes back with "replay" added. 0 or 2 (refused).
 */
int dist_from_run(struct replay_dist *d, const char *path, const char *func,
		  struct json_object **doc);
/* chain=N or mean=X, hits=F, node=BYTES: 0 or 2 (refused) */
int dist_from_spec(struct replay_dist *d, const char *spec);
/* The mean walk D asks for, and its share of hits. */
double dist_mean(const struct replay_dist *d, double *hit_ratio);
/* M buckets in D's proportions; how many were made. */
size_t make_templates(const struct replay_dist *d, struct replay_template *tpl, size_t m);
/* The table of TPL's M chains and NSEQ lookups, its nodes shuffled over memory. 0 or -ENOMEM. */
int build_table(struct replay_table *t, const struct replay_template *tpl, size_t m,
		int node_bytes, size_t nseq);
void free_table(struct replay_table *t);
/* The counting pass: what the timed walks actually walked. */
void count_walks(const struct replay_table *t, __u64 *walked_hist, __u64 *hits);

#endif
