/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From the per-CPU counters to the numbers a patch quotes: sums, means,
 * the self-check verdict and the prefetch model. Pure functions, tested
 * without BPF.
 */
#ifndef PFT_AGGREGATE_H
#define PFT_AGGREGATE_H

#include <stdbool.h>
#include <linux/types.h>
#include "pftrace.h"

/* The self-check passes when at least 99.9% of checked walks agree. */
#define PFT_SELF_CHECK_PERMILLE 999

struct prefetch_model {
	/* pre-3.0 hlist_for_each_entry(): prefetch(pos->next) per node */
	__u64 issued;
	__u64 null;          /* of those, of the NULL that ends the chain */
	/* Linus's option (b): prefetch only when next is not NULL */
	__u64 nonnull_only;
	/* option (c): no prefetch in the hlist walk, what kernels do now */
	__u64 none;
	bool exact;          /* false when truncated walks were left out */
};

struct walk_summary {
	__u64 completed;     /* walks that ended at the key or the chain's end */
	double mean_walked;
	int max_walked;      /* -1: no completed walk */
	int max_hit_pos;     /* -1: no hit */
	__u64 checked;       /* walks the self-check could judge */
	double agree_pct;
	bool self_check_ok;
	struct prefetch_model prefetch;
};

/* a += b, field by field (per-CPU sums, merged runs). */
void chain_stats_add(struct chain_stats *a, const struct chain_stats *b);
/* a += b, false if any field passes max (it then holds a partial sum) */
bool chain_stats_add_checked(struct chain_stats *a, const struct chain_stats *b, __u64 max);
/* Sum a per-CPU value array of ncpus entries (stride in bytes). */
void chain_stats_sum(struct chain_stats *sum, const void *percpu, int ncpus, size_t stride);
/*
 * Fill the counters BPF leaves to the loader: lookups, walk hits and
 * misses, empty-bucket misses, nodes walked, agreements, and (when not
 * sampling, where BPF does not count them) calls.
 */
void chain_stats_derive(struct chain_stats *s, unsigned int sample_every);
/* d = a - b, field by field (interval deltas). */
void chain_stats_sub(struct chain_stats *d, const struct chain_stats *a,
		     const struct chain_stats *b);
void walk_summarize(const struct chain_stats *s, struct walk_summary *w);
/* Highest non-empty slot, -1 when all are empty. */
int hist_max_slot(const __u64 *slots, int nslots);
__u64 hist_total(const __u64 *slots, int nslots);

#endif
