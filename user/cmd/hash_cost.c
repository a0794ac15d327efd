// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <time.h>

#include "hash_cost.h"
#include "progress.h"

#define KEYS 4096
#define CALLS 400000
#define NODES 4096

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* keys like the AVC's: small sids, a few classes; pointer-like for the others */
static void fill_keys(struct snap_key *k)
{
	unsigned int i;

	for (i = 0; i < KEYS; i++) {
		k[i].k0 = (__u64)(i % 1500 + 300) | (__u64)(i % 7 + 1) << 32 |
			  (0xffff888000000000ULL & -(__u64)(i & 1));
		k[i].k1 = i % 5 + 6;
	}
}

struct estimate hash_cost(const struct table_hash *h, __u64 slots)
{
	static struct snap_key keys[KEYS];
	double t[HASH_COST_PASSES], start;
	volatile __u64 sink = 0;
	__u64 acc;
	int p, i;

	fill_keys(keys);
	for (p = 0; p < HASH_COST_PASSES; p++) {
		acc = 0;
		start = now_ns();
		for (i = 0; i < CALLS; i++)
			acc += h->bucket(slots, &keys[i & (KEYS - 1)]);
		t[p] = (now_ns() - start) / CALLS;
		sink += acc;
	}
	(void)sink;
	return estimate(t, HASH_COST_PASSES);
}

struct estimate walk_node_cost(void)
{
	struct node {
		struct node *next;
		char pad[56];
	} *nodes = calloc(NODES, sizeof(*nodes));
	unsigned int order[NODES], i, j, tmp, seed = 1;
	double t[HASH_COST_PASSES], start;
	struct estimate none = { 0, 0, 0 };
	volatile struct node *pos;
	int p, r;

	if (!nodes)
		return none;
	/* one cycle through every node in a shuffled order: no stride to prefetch */
	for (i = 0; i < NODES; i++)
		order[i] = i;
	for (i = NODES - 1; i > 0; i--) {
		seed = seed * 1103515245 + 12345;
		j = (seed >> 8) % (i + 1);
		tmp = order[i], order[i] = order[j], order[j] = tmp;
	}
	for (i = 0; i < NODES; i++)
		nodes[order[i]].next = &nodes[order[(i + 1) % NODES]];
	for (p = 0; p < HASH_COST_PASSES; p++) {
		pos = &nodes[order[0]];
		start = now_ns();
		for (r = 0; r < 100; r++)
			for (i = 0; i < NODES; i++)
				pos = pos->next;
		t[p] = (now_ns() - start) / (100.0 * NODES);
	}
	free(nodes);
	return estimate(t, HASH_COST_PASSES);
}

/* a big table takes seconds a layout: which one, on a terminal */
static void say_layout(const struct whatif_table *w, const struct table_hash *h, __u64 slots)
{
	progress("what if %s: layout %d of %d (%s, %llu buckets)", w->t->traced, w->nlayouts + 1,
		 w->planned, h->name, (unsigned long long)slots);
}

struct whatif_costs *hash_costs_here(void)
{
	static struct whatif_costs here = {
		.time_hash = hash_cost, .time_node = walk_node_cost,
		.laying_out = say_layout, .laid_out = progress_done,
	};

	return &here;
}
