/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the bucket functions pftrace knows cost on this CPU, and what a
 * node of a warm chain walk costs, timed in user space the way replay
 * times its walks: passes, then the median and its 95% interval.
 */
#ifndef PFT_HASH_COST_H
#define PFT_HASH_COST_H

#include <stdbool.h>
#include "stats.h"
#include "table.h"
#include "whatif.h"

#define HASH_COST_PASSES 21

/* ns per call of H's bucket function (2^bits buckets) */
struct estimate hash_cost(const struct table_hash *h, __u64 slots);
/* ns per node of a pointer chase through warm 64-byte nodes */
struct estimate walk_node_cost(void);
/* The two as whatif's timers, with what they timed so far in this process. */
struct whatif_costs *hash_costs_here(void);

#endif
