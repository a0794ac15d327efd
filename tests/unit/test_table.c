// SPDX-License-Identifier: GPL-2.0
/*
 * The table model: shapes, ideal hashing, the kernel's bucket functions,
 * what-if layouts with their order bounds, and the packed keys of a run
 * file. Expected values come from the formulas worked by hand or from an
 * independent implementation (Python), never from this code's output.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cmocka_prelude.h"
#include "table.h"
#include "verdict.h"
#include "whatif.h"

static void test_shape_from_chains(void **state)
{
	__u32 chain[8] = { 0, 3, 1, 0, 0, 3, 0, 1 };
	struct table_shape s, t;

	assert_int_equal(table_shape_from_chains(&s, chain, 8), 0);
	assert_int_equal(s.entries, 8);
	assert_int_equal(s.used, 4);
	assert_int_equal(s.longest, 3);
	assert_int_equal(s.by_len[0], 4);
	assert_int_equal(s.by_len[1], 2);
	assert_int_equal(s.by_len[2], 0);
	assert_int_equal(s.by_len[3], 2);
	chain[7] = 0, chain[6] = 1;   /* same shape, other buckets */
	assert_int_equal(table_shape_from_chains(&t, chain, 8), 0);
	assert_true(table_shape_equal(&s, &t));
	table_shape_free(&t);
	chain[1] = 2, chain[3] = 1;   /* same counts, other shape */
	assert_int_equal(table_shape_from_chains(&t, chain, 8), 0);
	assert_false(table_shape_equal(&s, &t));
	table_shape_free(&t);
	table_shape_free(&s);
}

static void test_uniform(void **state)
{
	__u32 *chain = calloc(512, sizeof(*chain));
	struct table_shape s;
	struct uniform_expect u;
	int i;

	/* one entry per bucket: m (1 - (1 - 1/m)^n) = 323.83 expected used */
	for (i = 0; i < 512; i++)
		chain[i] = 1;
	assert_int_equal(table_shape_from_chains(&s, chain, 512), 0);
	uniform_expectation(&s, &u);
	assert_true(u.used > 323.82 && u.used < 323.84);
	/* perfectly even loads: no dispersion at all, p = 1 */
	assert_true(u.dispersion < 1e-9);
	assert_true(u.p_value > 0.999);
	/* the longest chain of 512 balls in 512 bins is about 4 to 5 */
	assert_true(u.longest > 4.0 && u.longest < 5.5);
	table_shape_free(&s);
	/* all in one bucket: clustered beyond doubt */
	memset(chain, 0, 512 * sizeof(*chain));
	chain[7] = 512;
	assert_int_equal(table_shape_from_chains(&s, chain, 512), 0);
	uniform_expectation(&s, &u);
	assert_true(u.p_value < 1e-12);
	table_shape_free(&s);
	free(chain);
}

static void test_avc_hashes(void **state)
{
	struct snap_key k = { .k0 = 1 | 2ULL << 32, .k1 = 3 };

	/* xor: 1 ^ 2 << 2 ^ 3 << 4 = 1 ^ 8 ^ 48 = 57 */
	assert_int_equal(avc_hash_xor(1, 2, 3), 57);
	assert_int_equal(table_hash_xor.bucket(512, &k), 57);
	/* av_hash() (6.19), by an independent implementation */
	assert_int_equal(avc_hash_murmur3(1, 2, 3), 0xb465da4b);
	assert_int_equal(avc_hash_murmur3(7, 5, 7), 0xa199a758);
	assert_int_equal(table_hash_murmur3.bucket(512, &k), 0xb465da4b & 511);
	assert_true(table_hash_compatible(&table_hash_xor, &table_hash_jhash));
	assert_false(table_hash_compatible(&table_hash_d_hash, &table_hash_xor));
	assert_ptr_equal(table_hash_named("murmur3"), &table_hash_murmur3);
	assert_null(table_hash_named("md5"));
}

static void test_other_buckets(void **state)
{
	struct snap_key d = { .k0 = 0xdeadbeefULL | 5ULL << 32 };
	struct snap_key t = { .k0 = 0x12345678 };

	/* d_hash: the top bits of the 32-bit name hash, whatever the length */
	assert_int_equal(table_hash_d_hash.bucket(16, &d), 0xd);
	assert_int_equal(table_hash_d_hash.bucket(65536, &d), 0xdead);
	/* ehash: the low bits of the full hash */
	assert_int_equal(table_hash_ehash.bucket(256, &t), 0x78);
	/* hash_conntrack: reciprocal_scale() of the raw hash, any size (ten x 512) */
	assert_int_equal(table_hash_conntrack.bucket(5120, &t), (0x12345678ULL * 5120) >> 32);
	assert_true(table_hash_takes(&table_hash_conntrack, 5120));
	assert_false(table_hash_takes(&table_hash_ehash, 5120));
	assert_true(table_hash_takes(&table_hash_ehash, 4096));
	/* the foil: the same keys, masked (low bits), powers of two only */
	assert_int_equal(table_hash_conntrack_mask.bucket(4096, &t), 0x678);
	assert_true(table_hash_compatible(&table_hash_conntrack, &table_hash_conntrack_mask));
	assert_false(table_hash_takes(&table_hash_conntrack_mask, 5120));
}

/*
 * Run files name the bucket functions: those names, in the registry's
 * order (whatif lists its timings in it), each found by its name and
 * its place, and no two entries alike.
 */
static void test_hash_registry(void **state)
{
	static const char *const names[] = { "xor", "murmur3", "jhash", "d_hash", "inode_hash",
					      "m_hash", "ehash", "hash_conntrack", "conntrack_mask" };
	const struct table_hash *h;
	int i, n = (int)(sizeof(names) / sizeof(names[0]));

	for (i = 0; i < n; i++) {
		h = table_hash_at(i);
		assert_non_null(h);
		assert_string_equal(h->name, names[i]);
		assert_string_equal(table_hash_name_at(i), names[i]);
		assert_ptr_equal(table_hash_named(names[i]), h);
		assert_int_equal(table_hash_index(h), i);
		assert_non_null(h->bucket);
		assert_true(h->keys->k0_bytes > 0);
	}
	assert_null(table_hash_at(n));
	assert_null(table_hash_name_at(n));
	assert_null(table_hash_at(-1));
	assert_int_equal(table_hash_index(NULL), -1);
	assert_null(table_hash_named(NULL));
	/* the AVC's three lay out the same keys; the others only their own */
	assert_true(table_hash_compatible(&table_hash_murmur3, &table_hash_jhash));
	assert_false(table_hash_compatible(&table_hash_inode, &table_hash_m_hash));
	assert_false(table_hash_compatible(NULL, &table_hash_xor));
}

/* keys whose d_hash bucket (2 bits) is their top two bits */
static struct snap_key dkey(unsigned int bucket, unsigned int n)
{
	struct snap_key k = { .k0 = (__u64)(bucket << 30 | n) };

	return k;
}

static void test_weighed_walks(void **state)
{
	struct snap_key keys[4] = { dkey(1, 1), dkey(1, 2), dkey(1, 3), dkey(2, 1) };
	struct key_count counts[3] = {
		{ .key = dkey(1, 1), .hits = 10 },
		{ .key = dkey(1, 2), .hits = 1 },
		{ .key = dkey(1, 3), .hits = 1 },
	};
	struct layout_prediction p;

	assert_int_equal(predict_layout(&p, &table_hash_d_hash, 2, keys, 4, counts, 3, true), 0);
	assert_int_equal(p.shape.used, 2);
	assert_int_equal(p.shape.longest, 3);
	/* 12 hits in a chain of 3: (3 + 1) / 2 = 2 each */
	assert_true(p.mean_walk > 1.999 && p.mean_walk < 2.001);
	/* best order: 10 at 1, 1 at 2, 1 at 3 = 15 / 12; worst: 10 at 3, 2, 1 = 33 / 12 */
	assert_true(p.mean_walk_lo > 1.2499 && p.mean_walk_lo < 1.2501);
	assert_true(p.mean_walk_hi > 2.7499 && p.mean_walk_hi < 2.7501);
	assert_int_equal(p.lookups_weighed, 12);
	layout_prediction_free(&p);

	/* a miss of a key the table never held walks the whole chain, exactly */
	counts[0].key = dkey(1, 9);
	counts[0].hits = 0;
	counts[0].misses = 4;
	assert_int_equal(predict_layout(&p, &table_hash_d_hash, 2, keys, 4, counts, 1, true), 0);
	assert_true(p.mean_walk == 3 && p.mean_walk_lo == 3 && p.mean_walk_hi == 3);
	layout_prediction_free(&p);
	/* out of range sizes are refused */
	assert_int_equal(predict_layout(&p, &table_hash_d_hash, PFT_TABLE_MAX_BITS + 1, keys, 4,
					NULL, 0, false), -EINVAL);
}

static void test_packed_keys(void **state)
{
	struct snap_key keys[2] = { { .k0 = 0x0000000700000005ULL, .k1 = 7 },
				    { .k0 = 0x123456789ULL, .k1 = 0xffff } };
	struct key_count c = { .key = { .k0 = 42, .k1 = 1 }, .hits = 1ULL << 40, .misses = 3 };
	struct snap_key *back;
	struct key_count *cback;
	char *text;

	text = keys_encode(&table_hash_murmur3, keys, 2);
	assert_non_null(text);
	/* 2 records of 10 bytes: 20 bytes, 28 base64 characters */
	assert_int_equal(strlen(text), 28);
	assert_int_equal(keys_decode(&table_hash_murmur3, text, &back), 2);
	assert_memory_equal(back, keys, sizeof(keys));
	free(back);
	/* the same text read as 16-byte inode keys is not whole records */
	assert_int_equal(keys_decode(&table_hash_inode, text, &back), -1);
	free(back);
	assert_int_equal(keys_decode(&table_hash_xor, "not base64!", &back), -1);
	free(back);
	free(text);
	text = key_counts_encode(&table_hash_inode, &c, 1);
	assert_int_equal(key_counts_decode(&table_hash_inode, text, &cback), 1);
	assert_memory_equal(cback, &c, sizeof(c));
	free(cback);
	free(text);
}

/* xorshift64*: the simulation's own generator, the same on every run */
static __u64 sim_next(__u64 *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545F4914F6CDD1DULL;
}

/*
 * whatif --entries' model against fills drawn here: 400 tables of 1000
 * buckets (not a power of two's worth: 1000) with 3000 entries each,
 * buckets by reciprocal_scale() of a random 32-bit hash, as conntrack's.
 * The means must fall within a few standard errors of the model's.
 */
static void test_uniform_fill(void **state)
{
	enum { TABLES = 400, SLOTS = 1000, ENTRIES = 3000 };
	static __u32 chain[SLOTS];
	double used = 0, used_sq = 0, longest = 0, hit = 0, sum_by_len = 0, expect_hit;
	struct uniform_fill f;
	__u64 x = 38, k;
	int t, i;

	assert_int_equal(uniform_fill(&f, SLOTS, ENTRIES), 0);
	for (t = 0; t < TABLES; t++) {
		__u64 u = 0, l = 0, walked = 0;

		memset(chain, 0, sizeof(chain));
		for (i = 0; i < ENTRIES; i++)
			chain[((sim_next(&x) >> 32) * SLOTS) >> 32]++;
		for (i = 0; i < SLOTS; i++) {
			u += chain[i] > 0;
			l = chain[i] > l ? chain[i] : l;
			/* each entry of a chain of L at positions 1..L: L (L + 1) / 2 nodes */
			walked += (__u64)chain[i] * (chain[i] + 1) / 2;
		}
		used += (double)u;
		used_sq += (double)u * (double)u;
		longest += (double)l;
		hit += (double)walked / ENTRIES;
	}
	used /= TABLES;
	/* E[used] = m (1 - (1 - 1/m)^n) = 950.3; its standard error over 400 tables ~0.3 */
	assert_true(fabs(used - f.used) < 4 * f.used_sd / sqrt(TABLES));
	assert_true(fabs(sqrt(used_sq / TABLES - used * used) - f.used_sd) < 0.15 * f.used_sd);
	/* the longest chain, under the Poisson approximation: within a tenth of a node */
	assert_true(fabs(longest / TABLES - f.longest) < 0.1);
	assert_true(f.longest_lo <= f.longest && f.longest <= f.longest_hi);
	/* a hit walks 1 + (n - 1) / 2m = 2.4995 */
	expect_hit = 1 + (ENTRIES - 1) / (2.0 * SLOTS);
	assert_true(fabs(f.walk_hit - expect_hit) < 1e-9 && fabs(hit / TABLES - expect_hit) < 0.01);
	assert_true(fabs(f.walk_miss - 3.0) < 1e-9);
	for (k = 0; k <= f.max_len; k++)
		sum_by_len += f.by_len[k];
	assert_true(fabs(sum_by_len - SLOTS) < 0.01 * SLOTS);
	uniform_fill_free(&f);
	assert_int_equal(uniform_fill(&f, 0, 10), -EINVAL);
}

/*
 * The walks of layouts on other boots, for conntrack's any-size buckets
 * (reciprocal_scale(), no mask): 3000 keys each looked up once, in 1536
 * buckets (not a power of two) and in 100000 (more than 8 per key, where
 * only the touched buckets are reset). Each layout is uniformly random,
 * so the mean over layouts is a hit's 1 + (n - 1) / 2m within a percent.
 */
static void test_redrawn_any_size(void **state)
{
	enum { KEYS = 3000 };
	static const __u64 sizes[] = { 1536, 100000 };
	static struct snap_key keys[KEYS];
	static struct key_count counts[KEYS];
	struct layout_prediction p;
	double expect;
	__u64 x = 36;
	int i, s;

	for (i = 0; i < KEYS; i++) {
		keys[i].k0 = sim_next(&x) >> 32;
		counts[i].key = keys[i];
		counts[i].hits = 1;
	}
	for (s = 0; s < 2; s++) {
		assert_int_equal(predict_layout(&p, &table_hash_conntrack, sizes[s], keys, KEYS,
						counts, KEYS, true), 0);
		expect = 1 + (KEYS - 1) / (2.0 * (double)sizes[s]);
		assert_true(fabs(p.redrawn_walk - expect) < 0.01 * expect);
		assert_true(p.redrawn_walk_lo <= p.redrawn_walk && p.redrawn_walk <= p.redrawn_walk_hi);
		layout_prediction_free(&p);
	}
}

static int hash_timings, node_timings;

static struct estimate fixed_hash_cost(const struct table_hash *h, __u64 slots)
{
	struct estimate e = { 2, 1, 3 };

	hash_timings++;
	return e;
}

static struct estimate fixed_node_cost(void)
{
	struct estimate e = { 10, 9, 11 };

	node_timings++;
	return e;
}

/*
 * whatif's model on the four keys of test_weighed_walks (2^2 buckets,
 * chains 0, 3, 1, 0): the kernel's layout first and exactly the
 * snapshot, then the kernel's -1..+3 sizes; a verdict for each but the
 * first, each priced by the one node and the one hash timing.
 */
static void test_whatif_model(void **state)
{
	struct snap_key keys[4] = { dkey(1, 1), dkey(1, 2), dkey(1, 3), dkey(2, 1) };
	struct key_count counts[1] = { { .key = dkey(1, 3), .hits = 6 } };
	__u32 chain[4] = { 0, 3, 1, 0 };
	struct table_snapshot snap = { .hash = &table_hash_d_hash, .bits = 2, .keys = keys,
				       .nkeys = 4, .counted = true, .counts = counts, .ncounts = 1 };
	struct target_report t = { .traced = "d_lookup", .snapshot = &snap };
	struct whatif_costs c = { .time_hash = fixed_hash_cost, .time_node = fixed_node_cost };
	struct whatif_ask ask = { .forced_current = NULL };
	struct whatif_table *w = malloc(sizeof(*w));
	static const __u64 sizes[] = { 4, 2, 8, 16, 32 };
	int i;

	assert_int_equal(table_shape_from_chains(&snap.shape, chain, 4), 0);
	assert_int_equal(whatif_weigh(w, &ask, &t, &snap, &c), 0);
	assert_true(w->identity && w->priced);
	assert_int_equal(w->nlayouts, 5);
	for (i = 0; i < 5; i++) {
		assert_ptr_equal(w->layouts[i].p.hash, &table_hash_d_hash);
		assert_int_equal(w->layouts[i].p.slots, sizes[i]);
		assert_int_equal(w->layouts[i].has_verdict, i > 0);
	}
	/* the third of its chain, in its order: 3 nodes; any order of 3: 1 to 3, mean 2 */
	assert_true(w->layouts[0].p.mean_walk_in_order == 3 && w->layouts[0].p.mean_walk == 2);
	assert_true(w->node_cost.median == 10 && w->layouts[1].v.cost_per_node == 10);
	assert_int_equal(hash_timings, 1);
	assert_int_equal(node_timings, 1);
	whatif_table_free(w);
	/* another hash taken for the kernel's must read the same keys */
	ask.forced_current = &table_hash_xor;
	assert_int_equal(whatif_weigh(w, &ask, &t, &snap, &c), -EINVAL);
	whatif_table_free(w);
	table_shape_free(&snap.shape);
	free(w);
}

static void test_verdict(void **state)
{
	struct estimate node = { 10, 8, 12 }, now = { 2, 1.5, 2.5 }, alt = { 6, 5, 7 };
	struct verdict v;

	/*
	 * 4 nodes now (4 exactly at the kernel's order), 2 for the
	 * alternative, 1.5 to 3 in the best and worst order; a node 10 ns
	 * [8, 12]; a hash 4 ns [2.5, 5.5] dearer.
	 */
	verdict_compute(4, 2, 4, 1.5, 3, node, now, alt, &v);
	assert_true(fabs(v.nodes_saved - 2) < 1e-9);
	assert_true(fabs(v.nodes_saved_lo - 1) < 1e-9 && fabs(v.nodes_saved_hi - 2.5) < 1e-9);
	assert_true(fabs(v.saved_ns - 20) < 1e-9);
	assert_true(fabs(v.hash_extra - 4) < 1e-9);
	assert_true(fabs(v.net + 16) < 1e-9);
	/* saved in [1 x 8, 2.5 x 12] = [8, 30]: net [2.5 - 30, 5.5 - 8] = [-27.5, -2.5] */
	assert_true(fabs(v.net_lo + 27.5) < 1e-9);
	assert_true(fabs(v.net_hi + 2.5) < 1e-9);
	assert_true(v.pays_off);
	/* the interval always holds the point value (here today's order is luckier) */
	verdict_compute(4, 2, 3, 1.5, 3, node, now, alt, &v);
	assert_true(v.nodes_saved_lo <= v.nodes_saved && v.nodes_saved <= v.nodes_saved_hi);
	assert_true(fabs(v.nodes_saved_lo - 0) < 1e-9 && fabs(v.nodes_saved_hi - 2) < 1e-9);
	/* a layout that walks more and hashes dearer never pays */
	verdict_compute(2, 3, 2, 2.5, 3.5, node, now, alt, &v);
	assert_true(v.nodes_saved < 0 && v.net > 0 && !v.pays_off && v.net_lo > 0);
	/* an order that could cost the saving back is no clear gain */
	verdict_compute(4, 2, 4, 1, 4.2, node, now, alt, &v);
	assert_true(v.net < 0 && v.net_lo < 0 && v.net_hi > 0 && !v.pays_off);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape_from_chains),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_avc_hashes),
		cmocka_unit_test(test_other_buckets),
		cmocka_unit_test(test_hash_registry),
		cmocka_unit_test(test_uniform_fill),
		cmocka_unit_test(test_redrawn_any_size),
		cmocka_unit_test(test_weighed_walks),
		cmocka_unit_test(test_packed_keys),
		cmocka_unit_test(test_whatif_model),
		cmocka_unit_test(test_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
