/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pftrace whatif's model: a snapshot's keys laid out again at other sizes
 * and under the other bucket functions of the same keys, each layout
 * weighed by the lookups a trace counted per key, and a verdict on each:
 * the nodes it saves times what a node costs, against what its hash
 * costs. The kernel's own configuration comes first; its prediction
 * must be the snapshot exactly (the identity check). Pure: what a node
 * and a hash cost on this CPU comes from the caller's timers.
 */
#ifndef PFT_WHATIF_H
#define PFT_WHATIF_H

#include <stdbool.h>
#include "report.h"
#include "stats.h"
#include "table.h"
#include "verdict.h"

#define WHATIF_MAX_LAYOUTS 64
#define WHATIF_MAX_HASHES 4

/* What was asked (pftrace whatif's options); zeroed: the defaults. */
struct whatif_ask {
	__u64 slots[WHATIF_MAX_LAYOUTS];                 /* sizes, in buckets */
	int nslots;
	const struct table_hash *hashes[WHATIF_MAX_HASHES];
	int nhashes;
	const struct table_hash *forced_current;         /* taken for the kernel's own hash */
	bool redrawn;     /* the figures of layouts on other boots too (JSON's): most of the cost */
	/* --entries: each size filled to this many entries under uniform hashing (0: not asked) */
	__u64 entries;
};

struct whatif_table;

/*
 * What things cost here: the caller's timers, and the bucket functions
 * timed so far (each once per process: every call of a hash costs the
 * same), by their place in the registry.
 */
struct whatif_costs {
	struct estimate (*time_hash)(const struct table_hash *h, __u64 slots);
	struct estimate (*time_node)(void);
	bool known[TABLE_HASHES_MAX];
	struct estimate hash[TABLE_HASHES_MAX];
	/* a big table takes seconds a layout: told before each (may be NULL), and after the last */
	void (*laying_out)(const struct whatif_table *w, const struct table_hash *h, __u64 slots);
	void (*laid_out)(void);
};

struct whatif_layout {
	struct layout_prediction p;
	bool has_verdict;
	struct verdict v;
	/* --entries: p.slots filled to whatif_ask.entries (p.shape unused) */
	bool filled;
	struct uniform_fill fill;
};

/* One table's layouts: the kernel's own first. */
struct whatif_table {
	const struct target_report *t;
	const struct table_snapshot *weigh;   /* whose counted lookups weigh the walks */
	const struct table_hash *current;     /* the kernel's hash (or the one forced) */
	bool counted;                         /* walks weighed: verdicts */
	bool identity;                        /* the own layout predicted is the snapshot */
	bool priced;                          /* node_cost and the verdicts are there */
	struct estimate node_cost;
	const char *node_cost_source;
	struct estimate hash_now;             /* the own layout's bucket function */
	__u64 failed_slots;                   /* a layout there was no memory for, or 0 */
	bool redrawn;                         /* layouts on other boots weighed too */
	int planned;                          /* the layouts to be laid out */
	int nlayouts;
	struct whatif_layout layouts[WHATIF_MAX_LAYOUTS];
};

/*
 * T's snapshot under what Q asks, weighed by WEIGH's counts (T's own, or
 * another run's); with Q's entries, each size also filled to that many
 * entries (struct uniform_fill). 0; -EINVAL when Q forces a hash that
 * cannot hash these keys, or not at the snapshot's size; -ENOMEM when a
 * layout failed (the ones before it stand).
 */
int whatif_weigh(struct whatif_table *w, const struct whatif_ask *q,
		 const struct target_report *t, const struct table_snapshot *weigh,
		 struct whatif_costs *c);
/*
 * For pftrace report: the own layout against each other hash at its size
 * and every hash at twice the size, the layouts that fail left out. 0,
 * or -1 when T has no counted keys to weigh, or its own layout fails.
 */
int whatif_weigh_report(struct whatif_table *w, const struct target_report *t,
			struct whatif_costs *c);
void whatif_table_free(struct whatif_table *w);
/* A size Q asks that the bucket function CURRENT cannot take (a mask needs a power of two), or 0 */
__u64 whatif_size_refused(const struct whatif_ask *q, const struct table_hash *current);
/* SLOTS as the kernel would allocate it for H: up to H's size_step */
__u64 whatif_kernel_size(const struct table_hash *h, __u64 slots);

#endif
