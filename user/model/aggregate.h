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

/*
 * One traced table's counts, as the reports and run files know them:
 * what BPF counted (struct chain_counters) and what follows from it.
 * The kernel's own verdict decides hits and misses, so hits + misses ==
 * lookups always; the self-check counts how often pftrace's re-walk and
 * the kernel disagreed. Every field is a __u64 (the field-wise helpers
 * below rely on it).
 */
struct chain_stats {
	__u64 calls;                /* traced calls (with --sample, more than lookups) */
	__u64 lookups;              /* lookups accounted (1 in sample_every) */
	__u64 hits;                 /* the kernel found the key */
	__u64 misses;               /* the kernel did not */
	__u64 walk_hits;            /* completed walks that found the key */
	__u64 walk_misses;          /* completed walks that reached the end */
	__u64 walk_empty;           /* ... of those, on an empty bucket */
	__u64 next_null_at_hit;     /* walk hits on the last node of the chain */
	__u64 nodes_walked;         /* nodes visited, summed over completed walks */
	__u64 truncated;            /* walks that gave up after PFT_MAX_WALK */
	__u64 read_faults;          /* walks stopped by a failed kernel read */
	__u64 self_agree;           /* completed walk found what the kernel found */
	__u64 self_disagree;
	__u64 lost;                 /* kprobe entry state that could not be kept */
	__u64 chain_walked_hist[PFT_HIST_SLOTS]; /* every completed walk */
	__u64 hit_pos_hist[PFT_HIST_SLOTS];      /* completed walks that hit */
};

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
/* Sum a per-CPU map value array of ncpus entries (stride in bytes). */
void chain_counters_sum(struct chain_counters *sum, const void *percpu, int ncpus,
			size_t stride);
/*
 * Add agreed_walks (bpf/pftrace.h) to C: PERCPU holds the ncpus values
 * of each of its PFT_AGREED_SLOTS keys in turn, as a lookup of the
 * per-CPU array, key by key or in one batch, gives them.
 */
void chain_counters_add_agreed(struct chain_counters *c, const __u64 *percpu, int ncpus);
/* The model of what BPF counted: its fields, then the derived ones. */
void chain_stats_from_counters(struct chain_stats *s, const struct chain_counters *c,
			       unsigned int sample_every);
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
