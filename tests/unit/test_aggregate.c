// SPDX-License-Identifier: GPL-2.0
/* The numbers a patch would quote: sums over CPUs, self-check, prefetch model. */
#include <string.h>
#include "cmocka_prelude.h"
#include "aggregate.h"

/* Ten lookups on chains of one (Linus's case): 8 hits, 2 misses on empty buckets. */
static void short_chains(struct chain_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->lookups = 10;
	s->hits = 8;
	s->misses = 2;
	s->walk_hits = 8;
	s->walk_misses = 2;
	s->walk_empty = 2;
	s->next_null_at_hit = 8;
	s->nodes_walked = 8;
	s->self_agree = 10;
	s->chain_walked_hist[0] = 2;
	s->chain_walked_hist[1] = 8;
	s->hit_pos_hist[1] = 8;
}

static void test_prefetch_model_short_chains(void **state)
{
	struct chain_stats s;
	struct walk_summary w;

	short_chains(&s);
	walk_summarize(&s, &w);
	/* one prefetch per node visited, and every one of them of NULL */
	assert_int_equal(w.prefetch.issued, 8);
	assert_int_equal(w.prefetch.null, 8);
	assert_int_equal(w.prefetch.nonnull_only, 0);
	assert_int_equal(w.prefetch.none, 0);
	assert_true(w.prefetch.exact);
	assert_int_equal(w.completed, 10);
	assert_int_equal(w.max_walked, 1);
	assert_int_equal(w.max_hit_pos, 1);
	assert_true(w.mean_walked > 0.79 && w.mean_walked < 0.81);
}

static void test_prefetch_model_long_chain(void **state)
{
	struct chain_stats s;
	struct walk_summary w;

	/*
	 * One chain of 4 nodes: a hit at position 2 (next not NULL), a hit
	 * on the tail (position 4) and a miss walking all 4.
	 */
	memset(&s, 0, sizeof(s));
	s.lookups = 3;
	s.walk_hits = 2;
	s.walk_misses = 1;
	s.next_null_at_hit = 1;
	s.nodes_walked = 2 + 4 + 4;
	s.self_agree = 3;
	s.truncated = 0;
	walk_summarize(&s, &w);
	assert_int_equal(w.prefetch.issued, 10);
	assert_int_equal(w.prefetch.null, 2);       /* the tail hit and the miss */
	assert_int_equal(w.prefetch.nonnull_only, 8);
}

static void test_self_check_threshold(void **state)
{
	struct chain_stats s;
	struct walk_summary w;

	memset(&s, 0, sizeof(s));
	s.self_agree = 999;
	s.self_disagree = 1;
	walk_summarize(&s, &w);
	assert_true(w.self_check_ok);            /* exactly 99.9% */
	s.self_agree = 998;
	s.self_disagree = 2;
	walk_summarize(&s, &w);
	assert_false(w.self_check_ok);
	/* unreadable walks are not confirmations */
	s.self_agree = 0;
	s.self_disagree = 0;
	s.read_faults = 5;
	walk_summarize(&s, &w);
	assert_false(w.self_check_ok);
	assert_int_equal(w.checked, 5);
	/* no lookups at all: nothing to contradict */
	memset(&s, 0, sizeof(s));
	walk_summarize(&s, &w);
	assert_true(w.self_check_ok);
	assert_int_equal(w.max_walked, -1);
}

static void test_sum_and_sub(void **state)
{
	struct chain_counters percpu[3], sum;
	struct chain_stats total, cpu2, delta;

	memset(percpu, 0, sizeof(percpu));
	percpu[0].hits = 1;
	percpu[1].hits = 20;
	percpu[2].hits = 300;
	percpu[2].misses = 5;
	percpu[2].chain_walked_hist[PFT_MAX_WALK] = 7;
	percpu[2].hit_pos_hist[PFT_MAX_WALK] = 7;
	chain_counters_sum(&sum, percpu, 3, sizeof(percpu[0]));
	assert_int_equal(sum.hits, 321);
	assert_int_equal(sum.chain_walked_hist[PFT_MAX_WALK], 7);
	chain_stats_from_counters(&total, &sum, 1);
	chain_stats_from_counters(&cpu2, &percpu[2], 1);
	assert_int_equal(total.lookups, 326);
	assert_int_equal(total.nodes_walked, 7 * PFT_MAX_WALK);
	chain_stats_sub(&delta, &total, &cpu2);
	assert_int_equal(delta.lookups, 21);
	assert_int_equal(delta.hits, 21);
	assert_int_equal(delta.chain_walked_hist[PFT_MAX_WALK], 0);
}

/* agreed_walks as a batch lookup gives it: 2 CPUs, key by key */
static void test_add_agreed(void **state)
{
	static __u64 percpu[PFT_AGREED_SLOTS * 2];
	struct chain_counters c;
	struct chain_stats s;

#define AGREED(row, n, cpu) percpu[((row) * PFT_HIST_SLOTS + (n)) * 2 + (cpu)]
	memset(percpu, 0, sizeof(percpu));
	memset(&c, 0, sizeof(c));
	AGREED(PFT_AGREED_MISS, 0, 0) = 4;       /* empty buckets */
	AGREED(PFT_AGREED_MISS, 2, 1) = 1;       /* a miss walking 2 nodes */
	AGREED(PFT_AGREED_HIT, 1, 0) = 2;        /* hits at 1, more after */
	AGREED(PFT_AGREED_HIT, 1, 1) = 3;
	AGREED(PFT_AGREED_HIT_LAST, 3, 1) = 6;   /* hits at 3, the chain's last */
	AGREED(PFT_AGREED_HIT_LAST, PFT_MAX_WALK, 0) = 1;
	AGREED(PFT_AGREED_TRUNCATED, PFT_MAX_WALK, 1) = 2;   /* the kernel found nothing */
	AGREED(PFT_AGREED_FAULT, 3, 0) = 1;
	/* what account_walk() counted: a disagreeing hit at 1, a fault */
	c.hits = 2;
	c.chain_walked_hist[1] = 1;
	c.hit_pos_hist[1] = 1;
	c.self_disagree = 1;
	c.read_faults = 1;
	chain_counters_add_agreed(&c, percpu, 2);
#undef AGREED
	chain_stats_from_counters(&s, &c, 1);
	assert_int_equal(s.hits, 2 + 5 + 6 + 1);
	assert_int_equal(s.misses, 5 + 3);
	assert_int_equal(s.lookups, 22);
	assert_int_equal(s.truncated, 2);
	assert_int_equal(s.read_faults, 2);
	assert_int_equal(s.next_null_at_hit, 7);
	assert_int_equal(s.walk_hits, 13);
	assert_int_equal(s.walk_misses, 5);
	assert_int_equal(s.walk_empty, 4);
	assert_int_equal(s.nodes_walked, 2 + 1 + 5 + 18 + PFT_MAX_WALK);
	assert_int_equal(s.self_agree, 17);
	assert_int_equal(s.hit_pos_hist[3], 6);
	assert_int_equal(s.chain_walked_hist[1], 6);
}

static void test_derive(void **state)
{
	struct chain_stats s;

	/* what BPF writes for: 2 misses on empty buckets, 6 hits at 1,
	 * 1 hit at 3 (not the tail), 1 miss walking 3 nodes; one of the
	 * hits disagreed with the kernel; one kprobe entry was lost */
	memset(&s, 0, sizeof(s));
	s.hits = 7;
	s.misses = 3;
	s.chain_walked_hist[0] = 2;
	s.chain_walked_hist[1] = 6;
	s.chain_walked_hist[3] = 2;
	s.hit_pos_hist[1] = 6;
	s.hit_pos_hist[3] = 1;
	s.next_null_at_hit = 6;
	s.self_disagree = 1;
	s.lost = 1;
	chain_stats_derive(&s, 1);
	assert_int_equal(s.lookups, 10);
	assert_int_equal(s.walk_hits, 7);
	assert_int_equal(s.walk_misses, 3);
	assert_int_equal(s.walk_empty, 2);
	assert_int_equal(s.nodes_walked, 6 + 3 + 3);
	assert_int_equal(s.self_agree, 9);
	assert_int_equal(s.calls, 11);
	/* sampled: BPF counted calls itself */
	s.calls = 160;
	chain_stats_derive(&s, 16);
	assert_int_equal(s.calls, 160);
}

static void test_hist_helpers(void **state)
{
	__u64 slots[PFT_HIST_SLOTS] = { 0 };

	assert_int_equal(hist_max_slot(slots, PFT_HIST_SLOTS), -1);
	slots[3] = 2;
	slots[40] = 5;
	assert_int_equal(hist_max_slot(slots, PFT_HIST_SLOTS), 40);
	assert_int_equal(hist_total(slots, PFT_HIST_SLOTS), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefetch_model_short_chains),
		cmocka_unit_test(test_prefetch_model_long_chain),
		cmocka_unit_test(test_self_check_threshold),
		cmocka_unit_test(test_sum_and_sub),
		cmocka_unit_test(test_add_agreed),
		cmocka_unit_test(test_hist_helpers),
		cmocka_unit_test(test_derive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
