// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "aggregate.h"

#define NFIELDS (sizeof(struct chain_stats) / sizeof(__u64))

void chain_stats_add(struct chain_stats *a, const struct chain_stats *b)
{
	__u64 *pa = (__u64 *)a;
	const __u64 *pb = (const __u64 *)b;
	size_t i;

	for (i = 0; i < NFIELDS; i++)
		pa[i] += pb[i];
}

bool chain_stats_add_checked(struct chain_stats *a, const struct chain_stats *b, __u64 max)
{
	__u64 *pa = (__u64 *)a;
	const __u64 *pb = (const __u64 *)b;
	size_t i;

	for (i = 0; i < NFIELDS; i++)
		if (__builtin_add_overflow(pa[i], pb[i], &pa[i]) || pa[i] > max)
			return false;
	return true;
}

void chain_counters_sum(struct chain_counters *sum, const void *percpu, int ncpus,
			size_t stride)
{
	__u64 *ps = (__u64 *)sum;
	size_t i;
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for (cpu = 0; cpu < ncpus; cpu++) {
		const __u64 *pc = (const __u64 *)((const char *)percpu + (size_t)cpu * stride);

		for (i = 0; i < sizeof(*sum) / sizeof(__u64); i++)
			ps[i] += pc[i];
	}
}

void chain_counters_add_agreed(struct chain_counters *c, const __u64 *percpu, int ncpus)
{
	int row, n, cpu;

	for (row = 0; row < PFT_AGREED_ROWS; row++) {
		for (n = 0; n < PFT_HIST_SLOTS; n++) {
			const __u64 *v = percpu + ((size_t)row * PFT_HIST_SLOTS + n) * ncpus;
			__u64 walks = 0;

			for (cpu = 0; cpu < ncpus; cpu++)
				walks += v[cpu];
			if (!walks)
				continue;
			/* the kernel's verdict is the walk's */
			if (row == PFT_AGREED_HIT || row == PFT_AGREED_HIT_LAST)
				c->hits += walks;
			else
				c->misses += walks;
			if (row == PFT_AGREED_TRUNCATED) {
				c->truncated += walks;
				continue;
			}
			if (row == PFT_AGREED_FAULT) {
				c->read_faults += walks;
				continue;
			}
			c->chain_walked_hist[n] += walks;
			if (row == PFT_AGREED_MISS)
				continue;
			c->hit_pos_hist[n] += walks;
			if (row == PFT_AGREED_HIT_LAST)
				c->next_null_at_hit += walks;
		}
	}
}

void chain_stats_from_counters(struct chain_stats *s, const struct chain_counters *c,
			       unsigned int sample_every)
{
	memset(s, 0, sizeof(*s));
	s->calls = c->calls;
	s->hits = c->hits;
	s->misses = c->misses;
	s->next_null_at_hit = c->next_null_at_hit;
	s->truncated = c->truncated;
	s->read_faults = c->read_faults;
	s->self_disagree = c->self_disagree;
	s->lost = c->lost;
	memcpy(s->chain_walked_hist, c->chain_walked_hist, sizeof(s->chain_walked_hist));
	memcpy(s->hit_pos_hist, c->hit_pos_hist, sizeof(s->hit_pos_hist));
	chain_stats_derive(s, sample_every);
}

void chain_stats_sub(struct chain_stats *d, const struct chain_stats *a,
		     const struct chain_stats *b)
{
	const __u64 *pa = (const __u64 *)a, *pb = (const __u64 *)b;
	__u64 *pd = (__u64 *)d;
	size_t i;

	for (i = 0; i < NFIELDS; i++)
		pd[i] = pa[i] - pb[i];
}

void chain_stats_derive(struct chain_stats *s, unsigned int sample_every)
{
	__u64 completed = 0, nodes = 0, hits = 0;
	int i;

	for (i = 0; i < PFT_HIST_SLOTS; i++) {
		completed += s->chain_walked_hist[i];
		nodes += (__u64)i * s->chain_walked_hist[i];
		hits += s->hit_pos_hist[i];
	}
	s->lookups = s->hits + s->misses;
	s->walk_hits = hits;
	s->walk_misses = completed - hits;
	/* a walk of no node cannot have hit */
	s->walk_empty = s->chain_walked_hist[0];
	s->nodes_walked = nodes;
	s->self_agree = completed > s->self_disagree ? completed - s->self_disagree : 0;
	if (sample_every <= 1)
		s->calls = s->lookups + s->lost;
}

int hist_max_slot(const __u64 *slots, int nslots)
{
	int i;

	for (i = nslots - 1; i >= 0; i--)
		if (slots[i])
			return i;
	return -1;
}

__u64 hist_total(const __u64 *slots, int nslots)
{
	__u64 total = 0;
	int i;

	for (i = 0; i < nslots; i++)
		total += slots[i];
	return total;
}

void walk_summarize(const struct chain_stats *s, struct walk_summary *w)
{
	struct prefetch_model *p = &w->prefetch;

	memset(w, 0, sizeof(*w));
	w->completed = s->walk_hits + s->walk_misses;
	w->mean_walked = w->completed ? (double)s->nodes_walked / (double)w->completed : 0;
	w->max_walked = hist_max_slot(s->chain_walked_hist, PFT_HIST_SLOTS);
	w->max_hit_pos = hist_max_slot(s->hit_pos_hist, PFT_HIST_SLOTS);

	/*
	 * A walk the self-check cannot confirm counts against it: a read
	 * fault on every lookup (a wrong cache address, say) must not pass
	 * as "no disagreement". Truncated walks are long chains, not errors.
	 */
	w->checked = s->self_agree + s->self_disagree + s->read_faults;
	w->agree_pct = w->checked ? 100.0 * (double)s->self_agree / (double)w->checked : 100.0;
	/* 128 bits: run files may carry counts up to 2^63, and 1000 x that wraps */
	w->self_check_ok = (unsigned __int128)s->self_agree * 1000 >=
			   (unsigned __int128)w->checked * PFT_SELF_CHECK_PERMILLE;

	/*
	 * The old macro visits the same nodes as today's walk and issues
	 * prefetch(pos->next) at each: one per node. The one of NULL comes
	 * at the chain's last node, which every miss on a non-empty bucket
	 * and every hit on the tail reach.
	 */
	p->issued = s->nodes_walked;
	p->null = (s->walk_misses - s->walk_empty) + s->next_null_at_hit;
	p->nonnull_only = p->issued - p->null;
	p->none = 0;
	p->exact = s->truncated == 0 && s->read_faults == 0;
}
