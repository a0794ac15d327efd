// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <netinet/in.h>
#include <arpa/nameser.h>
#include <resolv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "table.h"
#include "khash.h"

int table_shape_from_chains(struct table_shape *s, const __u32 *chain, __u64 buckets)
{
	__u64 i;

	memset(s, 0, sizeof(*s));
	s->buckets = buckets;
	for (i = 0; i < buckets; i++) {
		s->entries += chain[i];
		s->used += chain[i] > 0;
		if (chain[i] > s->longest)
			s->longest = chain[i];
	}
	s->by_len = calloc(s->longest + 1, sizeof(*s->by_len));
	if (!s->by_len)
		return -ENOMEM;
	for (i = 0; i < buckets; i++)
		s->by_len[chain[i]]++;
	return 0;
}

void table_shape_free(struct table_shape *s)
{
	free(s->by_len);
	s->by_len = NULL;
}

bool table_shape_equal(const struct table_shape *a, const struct table_shape *b)
{
	return a->entries == b->entries && a->buckets == b->buckets && a->used == b->used &&
	       a->longest == b->longest && a->by_len && b->by_len &&
	       !memcmp(a->by_len, b->by_len, (a->longest + 1) * sizeof(*a->by_len));
}

/*
 * P(X > k) for X ~ Poisson(lambda), summed from the tail's own terms:
 * 1 - P(X <= k) would lose everything below double precision, and the
 * expected maximum needs those tails down to about 1e-12 / buckets.
 */
static double poisson_upper(double lambda, __u64 k)
{
	double lterm = -lambda + (double)(k + 1) * log(lambda) - lgamma((double)k + 2);
	double term = exp(lterm), sum = 0;
	__u64 j;

	/* past e^-700 the terms underflow: the normal approximation, continuity-corrected */
	if (lambda > 700)
		return 0.5 * erfc(((double)k + 0.5 - lambda) / sqrt(2 * lambda));
	if (term == 0)
		return (double)k < lambda ? 1 : 0;
	for (j = k + 1; term > 0 && j < k + 100000; j++) {
		sum += term;
		if (term < sum * 1e-17)
			break;
		term *= lambda / (double)(j + 1);
	}
	return sum > 1 ? 1 : sum;
}

void uniform_expectation(const struct table_shape *s, struct uniform_expect *u)
{
	double m = (double)s->buckets, n = (double)s->entries, mean, d = 0, tail;
	__u64 k;

	memset(u, 0, sizeof(*u));
	u->p_value = 1.0;
	if (s->buckets == 0)
		return;
	/* each bucket stays empty with probability (1 - 1/m)^n */
	u->used = m * -expm1(n * log1p(-1.0 / m));
	mean = n / m;
	if (mean <= 0)
		return;
	/*
	 * E[max] = sum over k >= 0 of P(max > k), with bucket loads taken as
	 * independent Poisson(mean): P(max <= k) = P(X <= k)^m.
	 */
	/* far below the mean every bucket passes k: P(max > k) is 1 there */
	k = mean > 1600 ? (__u64)(mean - 40 * sqrt(mean)) : 0;
	u->longest = (double)k;
	for (; k < u->longest + 100000; k++) {
		double upper = poisson_upper(mean, k);

		/* P(max > k) = 1 - (1 - upper)^m */
		tail = -expm1(m * log1p(-upper));
		u->longest += tail;
		if (tail < 1e-12)
			break;
	}
	for (k = 0; k <= s->longest; k++)
		d += (double)s->by_len[k] * ((double)k - mean) * ((double)k - mean);
	u->dispersion = d / mean;
	u->df = s->buckets - 1 > (__u64)0x7fffffff ? 0x7fffffff : (int)(s->buckets - 1);
	u->p_value = chi_square_p(u->dispersion, u->df);
}

/* P(X = k) for X ~ Poisson(lambda), from logs: no overflow at large k */
static double poisson_pmf(double lambda, __u64 k)
{
	if (lambda <= 0)
		return k == 0;
	return exp(-lambda + (double)k * log(lambda) - lgamma((double)k + 1));
}

/*
 * The longest of SLOTS chains, each Poisson(LAMBDA) (the multinomial's
 * usual approximation, as in uniform_expectation()): P(max <= k) =
 * P(X <= k)^slots. Its mean, and the smallest k whose P(max <= k)
 * reaches 2.5% and 97.5%.
 */
static void longest_of(double lambda, double m, struct uniform_fill *f)
{
	__u64 k = lambda > 1600 ? (__u64)(lambda - 40 * sqrt(lambda)) : 0, end;
	double below;

	f->longest = (double)k;
	f->longest_lo = f->longest_hi = -1;
	for (end = k + 100000; k < end; k++) {
		/* P(max <= k) = (1 - P(X > k))^m */
		below = exp(m * log1p(-poisson_upper(lambda, k)));
		if (f->longest_lo < 0 && below >= 0.025)
			f->longest_lo = (double)k;
		if (f->longest_hi < 0 && below >= 0.975)
			f->longest_hi = (double)k;
		f->longest += 1 - below;
		if (1 - below < 1e-12 && f->longest_hi >= 0)
			break;
	}
}

int uniform_fill(struct uniform_fill *f, __u64 slots, __u64 entries)
{
	double m = (double)slots, n = (double)entries, lambda = n / m, a, b, var;
	__u64 k;

	memset(f, 0, sizeof(*f));
	if (!slots)
		return -EINVAL;
	f->slots = slots;
	f->entries = entries;
	/* a bucket stays empty with probability a = (1 - 1/m)^n, two with b = (1 - 2/m)^n */
	a = exp(n * log1p(-1.0 / m));
	b = slots > 2 ? exp(n * log1p(-2.0 / m)) : 0;
	f->used = m * -expm1(n * log1p(-1.0 / m));
	var = m * a + m * (m - 1) * b - m * m * a * a;
	f->used_sd = sqrt(fmax(0, var));
	longest_of(lambda, m, f);
	f->walk_hit = entries ? 1 + (n - 1) / (2 * m) : 0;
	f->walk_miss = lambda;
	f->max_len = (__u64)f->longest_hi + 1;
	f->by_len = calloc(f->max_len + 1, sizeof(*f->by_len));
	if (!f->by_len)
		return -ENOMEM;
	for (k = 0; k <= f->max_len; k++)
		f->by_len[k] = m * poisson_pmf(lambda, k);
	return 0;
}

void uniform_fill_free(struct uniform_fill *f)
{
	free(f->by_len);
	f->by_len = NULL;
}

static int key_cmp(const void *a, const void *b)
{
	const struct snap_key *x = a, *y = b;

	if (x->k0 != y->k0)
		return x->k0 < y->k0 ? -1 : 1;
	if (x->k1 != y->k1)
		return x->k1 < y->k1 ? -1 : 1;
	return 0;
}

/* one counted key of a layout: its bucket, and whether the table holds it */
struct placed_count {
	__u64 bucket;
	const struct key_count *c;
	bool present;
};

static int placed_cmp(const void *a, const void *b)
{
	const struct placed_count *x = a, *y = b;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	if (x->c->hits != y->c->hits)
		return x->c->hits > y->c->hits ? -1 : 1;   /* most hit first */
	return 0;
}

/*
 * Weigh the counted lookups over the chains of a layout (chain[b]
 * entries in bucket b): the point value and the best- and worst-order
 * bounds of struct layout_prediction.
 */
static void weigh_lookups(struct layout_prediction *p, const __u32 *chain,
			  struct placed_count *pc, __u64 n)
{
	double point = 0, lo = 0, hi = 0, weighed = 0;
	__u64 i = 0, j, len, absent, rank;

	qsort(pc, n, sizeof(*pc), placed_cmp);
	while (i < n) {
		__u64 b = pc[i].bucket, first = i;

		/* hits of keys that have since left the table count back in */
		for (absent = 0; i < n && pc[i].bucket == b; i++)
			absent += pc[i].c->hits && !pc[i].present;
		len = chain[b] + absent;
		for (j = first, rank = 0; j < i; j++) {
			const struct key_count *c = pc[j].c;
			double h = (double)c->hits, m = (double)c->misses, l = (double)len;

			if (c->hits) {
				point += h * (l + 1) / 2;
				lo += h * (double)(rank + 1);
				hi += h * (l - (double)rank);
				rank++;
			}
			if (pc[j].present) {
				point += m * ((double)chain[b] - 1) / 2;
				hi += m * ((double)chain[b] - 1);
			} else {
				point += m * (double)chain[b];
				lo += m * (double)chain[b];
				hi += m * (double)chain[b];
			}
			weighed += h + m;
		}
	}
	/* a hostile file's counts can pass 2^64 in sum: no conversion past it */
	p->lookups_weighed = weighed < 1.8e19 ? (__u64)weighed : UINT64_MAX;
	if (weighed > 0) {
		p->mean_walk = point / weighed;
		p->mean_walk_lo = lo / weighed;
		p->mean_walk_hi = hi / weighed;
	}
}

/* splitmix64: a key and a layout's seed to a uniform 64-bit value */
static __u64 mix64(__u64 x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

static __u64 key_draw(const struct snap_key *k, __u64 seed)
{
	return mix64(k->k0 ^ mix64(k->k1 ^ seed));
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A kernel address of the direct map, 64-byte aligned, drawn from ADDR and SEED. */
static __u64 redrawn_address(__u64 addr, __u64 seed)
{
	return 0xffff888000000000ULL | (mix64(addr ^ seed) & 0x3fffffffc0ULL);
}

/*
 * A uniformly random bucket of SLOTS from the 64-bit DRAW: its low bits
 * for a power of two, else reciprocal_scale() of its high 32 bits, as
 * conntrack's buckets are (any count, no mask).
 */
static inline __u64 uniform_bucket(__u64 draw, __u64 slots)
{
	if (!(slots & (slots - 1)))
		return draw & (slots - 1);
	return khash_reciprocal_scale((__u32)(draw >> 32), slots);
}

/*
 * K's bucket in a layout where what changes from boot to boot is drawn
 * anew: the superblock and mount addresses the inode and mount hashes
 * mix in (each address the same way wherever it occurs, so that keys
 * sharing a superblock keep sharing it), under the kernel's own bucket
 * function; anything else, the dcache's salted name hashes, TCP's
 * secret-keyed hash and the AVC's keys, a uniformly random bucket.
 */
static __u64 redrawn_bucket(const struct table_hash *h, __u64 slots,
			    const struct snap_key *k, __u64 seed)
{
	struct snap_key r = *k;

	if (!h->keys->addresses)
		return uniform_bucket(key_draw(k, seed), slots);
	if (h->keys->addresses & TABLE_KEY_K0)
		r.k0 = redrawn_address(k->k0, seed);
	if (h->keys->addresses & TABLE_KEY_K1)
		r.k1 = redrawn_address(k->k1, seed);
	return h->bucket(slots, &r);
}

/*
 * Every key into CHAIN at its uniformly random bucket of a layout, as
 * redrawn_bucket() places it: key_draw()'s inner mix of k1 and the seed
 * taken once for a run of keys with the same k1 (all of them, for the
 * dcache and TCP, whose keys have no k1), which halves the cost.
 */
static void place_uniform(__u32 *chain, __u64 m, const struct snap_key *keys, __u64 nkeys,
			  __u64 seed)
{
	__u64 i, k1 = 0, inner = mix64(seed);

	for (i = 0; i < nkeys; i++) {
		if (keys[i].k1 != k1) {
			k1 = keys[i].k1;
			inner = mix64(k1 ^ seed);
		}
		chain[uniform_bucket(mix64(keys[i].k0 ^ inner), m)]++;
	}
}

/* struct layout_prediction's redrawn_walk*: layouts of the same keys on other boots. */
static int redrawn_walks(struct layout_prediction *p, const struct snap_key *keys, __u64 nkeys,
			 const struct placed_count *pc, __u64 ncounts)
{
	__u64 m = p->slots, i, seed, b, len, ahead;
	double w[PFT_REDRAWN_LAYOUTS], sum = 0, sq = 0, nodes, weighed;
	double work = (double)nkeys + (double)ncounts + 1;
	/* fewer layouts for a big table: about 2e8 key placements in all */
	int layouts = work * PFT_REDRAWN_LAYOUTS > 2e8 ? (int)fmax(40, 2e8 / work) :
			PFT_REDRAWN_LAYOUTS;
	/* the dcache and TCP: a uniformly random bucket, the key's draw itself */
	bool uniform = !p->hash->keys->addresses;
	__u32 *chain;
	int r;

	p->redrawn_walk = -1;
	/* the AVC's keys (SIDs) are the same on every boot: nothing to draw anew */
	if (p->hash->keys->same_every_boot)
		return 0;
	chain = calloc(m, sizeof(*chain));
	if (!chain)
		return -ENOMEM;
	for (r = 0; r < layouts; r++) {
		seed = mix64((__u64)r + 1);
		if (uniform)
			place_uniform(chain, m, keys, nkeys, seed);
		else
			for (i = 0; i < nkeys; i++)
				chain[redrawn_bucket(p->hash, m, &keys[i], seed)]++;
		nodes = weighed = 0;
		for (i = 0; i < ncounts; i++) {
			const struct key_count *c = pc[i].c;
			__u64 draw = key_draw(&c->key, seed);

			/* the same bucket redrawn_bucket() gives, its draw taken once */
			b = uniform ? uniform_bucket(draw, m) : redrawn_bucket(p->hash, m, &c->key, seed);
			len = chain[b] + !pc[i].present;
			/* where in its chain: uniform over the len places */
			ahead = mix64(draw) % (len ? len : 1);
			nodes += (double)c->hits * (double)(1 + ahead);
			/* a miss: before its own insertion, the entries behind it; never held: all */
			nodes += (double)c->misses * (double)(pc[i].present ? len - 1 - ahead : chain[b]);
			weighed += (double)c->hits + (double)c->misses;
		}
		/* back to zero: all m at once where that is cheaper than the buckets the keys touched */
		if (m <= 8 * nkeys)
			memset(chain, 0, m * sizeof(*chain));
		else
			for (i = 0; i < nkeys; i++)
				chain[redrawn_bucket(p->hash, m, &keys[i], seed)] = 0;
		w[r] = weighed > 0 ? nodes / weighed : 0;
		sum += w[r];
		sq += w[r] * w[r];
	}
	free(chain);
	qsort(w, (size_t)layouts, sizeof(w[0]), double_cmp);
	p->redrawn_walk = sum / layouts;
	p->redrawn_walk_sd = sqrt(fmax(0, sq / layouts - p->redrawn_walk * p->redrawn_walk));
	p->redrawn_walk_lo = w[layouts * 25 / 1000];
	p->redrawn_walk_hi = w[layouts * 975 / 1000 - 1];
	return 0;
}

int predict_layout(struct layout_prediction *p, const struct table_hash *hash, __u64 slots,
		   const struct snap_key *keys, __u64 nkeys,
		   const struct key_count *counts, __u64 ncounts, bool redraw)
{
	__u64 buckets = slots, i;
	struct snap_key *sorted = NULL;
	struct placed_count *pc = NULL;
	__u32 *chain;
	int rc;

	memset(p, 0, sizeof(*p));
	p->hash = hash;
	p->slots = slots;
	p->mean_walk_in_order = -1;
	if (slots < 2 || slots > PFT_TABLE_MAX_SLOTS || !table_hash_takes(hash, slots))
		return -EINVAL;
	chain = calloc(buckets, sizeof(*chain));
	if (!chain)
		return -ENOMEM;
	for (i = 0; i < nkeys; i++)
		chain[hash->bucket(slots, &keys[i])]++;
	rc = table_shape_from_chains(&p->shape, chain, buckets);
	if (!rc && ncounts) {
		sorted = malloc(nkeys * sizeof(*sorted) + 1);
		pc = malloc(ncounts * sizeof(*pc));
		if (!sorted || !pc)
			rc = -ENOMEM;
	}
	if (!rc && ncounts) {
		memcpy(sorted, keys, nkeys * sizeof(*sorted));
		qsort(sorted, nkeys, sizeof(*sorted), key_cmp);
		for (i = 0; i < ncounts; i++) {
			pc[i].c = &counts[i];
			pc[i].bucket = hash->bucket(slots, &counts[i].key);
			pc[i].present = bsearch(&counts[i].key, sorted, nkeys, sizeof(*sorted),
						key_cmp) != NULL;
		}
		weigh_lookups(p, chain, pc, ncounts);
		p->redrawn_walk = -1;
		if (redraw)
			rc = redrawn_walks(p, keys, nkeys, pc, ncounts);
	}
	free(pc);
	free(sorted);
	free(chain);
	if (rc)
		table_shape_free(&p->shape);
	return rc;
}

/* a key with its 1-based position in its chain, and that chain's length */
struct placed_key {
	struct snap_key key;
	__u64 pos;
	__u64 bucket;
};

static int placed_key_cmp(const void *a, const void *b)
{
	return key_cmp(&((const struct placed_key *)a)->key, &((const struct placed_key *)b)->key);
}

int predict_own_layout(struct layout_prediction *p, const struct table_hash *hash, __u64 slots,
		       const struct snap_key *keys, __u64 nkeys,
		       const struct key_count *counts, __u64 ncounts, bool redraw)
{
	struct placed_key *pk, probe, *found;
	__u64 *seen, i, len;
	double nodes = 0, weighed = 0;
	int rc = predict_layout(p, hash, slots, keys, nkeys, counts, ncounts, redraw);

	if (rc || !ncounts)
		return rc;
	pk = malloc(nkeys * sizeof(*pk) + 1);
	seen = calloc(slots, sizeof(*seen));
	if (!pk || !seen) {
		free(pk);
		free(seen);
		return 0;   /* the bounds stand; only the in-order value is missing */
	}
	for (i = 0; i < nkeys; i++) {
		pk[i].key = keys[i];
		pk[i].bucket = hash->bucket(slots, &keys[i]);
		pk[i].pos = ++seen[pk[i].bucket];
	}
	qsort(pk, nkeys, sizeof(*pk), placed_key_cmp);
	for (i = 0; i < ncounts; i++) {
		probe.key = counts[i].key;
		found = bsearch(&probe, pk, nkeys, sizeof(*pk), placed_key_cmp);
		len = seen[hash->bucket(slots, &counts[i].key)];
		if (found) {
			nodes += (double)counts[i].hits * (double)found->pos +
				 (double)counts[i].misses * (double)(len - found->pos);
		} else {
			nodes += (double)counts[i].hits * ((double)len + 1) +
				 (double)counts[i].misses * (double)len;
		}
		weighed += (double)counts[i].hits + (double)counts[i].misses;
	}
	if (weighed > 0)
		p->mean_walk_in_order = nodes / weighed;
	free(pk);
	free(seen);
	return 0;
}

void layout_prediction_free(struct layout_prediction *p)
{
	table_shape_free(&p->shape);
}

void table_snapshot_free(struct table_snapshot *s)
{
	table_shape_free(&s->shape);
	free(s->keys);
	free(s->counts);
	s->keys = NULL;
	s->counts = NULL;
}

void table_key_bytes(const struct table_hash *h, unsigned int *k0, unsigned int *k1)
{
	*k0 = h ? h->keys->k0_bytes : 0;
	*k1 = h ? h->keys->k1_bytes : 0;
}

bool keys_fit_runfile(const struct table_hash *h, __u64 n, __u64 ncounts)
{
	unsigned int b0, b1;

	table_key_bytes(h, &b0, &b1);
	return (n * (b0 + b1) + ncounts * (b0 + b1 + 16)) / 3 * 4 < (12ULL << 20);
}

static unsigned char *put_le(unsigned char *p, __u64 v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		*p++ = (unsigned char)(v >> (8 * i));
	return p;
}

static const unsigned char *get_le(const unsigned char *p, __u64 *v, unsigned int bytes)
{
	unsigned int i;

	*v = 0;
	for (i = 0; i < bytes; i++)
		*v |= (__u64)*p++ << (8 * i);
	return p;
}

/* records of rec bytes each: base64 */
static char *encode_records(const unsigned char *raw, size_t len)
{
	size_t cap = (len + 2) / 3 * 4 + 1;
	char *text = malloc(cap);

	if (text && b64_ntop(raw, len, text, cap) < 0) {
		free(text);
		return NULL;
	}
	return text;
}

static long long decode_records(const char *text, size_t rec, unsigned char **raw)
{
	size_t cap = strlen(text) / 4 * 3 + 3;
	int len;

	*raw = malloc(cap);
	if (!*raw || rec == 0 || cap > INT_MAX)
		return -1;
	len = b64_pton(text, *raw, cap);
	if (len < 0 || (size_t)len % rec)
		return -1;
	return (long long)((size_t)len / rec);
}

char *keys_encode(const struct table_hash *h, const struct snap_key *keys, __u64 n)
{
	unsigned int b0, b1;
	unsigned char *raw, *p;
	char *text;
	__u64 i;

	table_key_bytes(h, &b0, &b1);
	raw = malloc(n * (b0 + b1) + 1);
	if (!raw)
		return NULL;
	for (i = 0, p = raw; i < n; i++)
		p = put_le(put_le(p, keys[i].k0, b0), keys[i].k1, b1);
	text = encode_records(raw, (size_t)(p - raw));
	free(raw);
	return text;
}

long long keys_decode(const struct table_hash *h, const char *text, struct snap_key **out)
{
	unsigned int b0, b1;
	const unsigned char *p;
	unsigned char *raw;
	long long n, i;

	*out = NULL;
	table_key_bytes(h, &b0, &b1);
	n = decode_records(text, b0 + b1, &raw);
	if (n >= 0)
		*out = calloc((size_t)n + 1, sizeof(**out));
	if (n < 0 || !*out) {
		free(raw);
		return -1;
	}
	for (i = 0, p = raw; i < n; i++)
		p = get_le(get_le(p, &(*out)[i].k0, b0), &(*out)[i].k1, b1);
	free(raw);
	return n;
}

char *key_counts_encode(const struct table_hash *h, const struct key_count *c, __u64 n)
{
	unsigned int b0, b1;
	unsigned char *raw, *p;
	char *text;
	__u64 i;

	table_key_bytes(h, &b0, &b1);
	raw = malloc(n * (b0 + b1 + 16) + 1);
	if (!raw)
		return NULL;
	for (i = 0, p = raw; i < n; i++) {
		p = put_le(put_le(p, c[i].key.k0, b0), c[i].key.k1, b1);
		p = put_le(put_le(p, c[i].hits, 8), c[i].misses, 8);
	}
	text = encode_records(raw, (size_t)(p - raw));
	free(raw);
	return text;
}

long long key_counts_decode(const struct table_hash *h, const char *text, struct key_count **out)
{
	unsigned int b0, b1;
	const unsigned char *p;
	unsigned char *raw;
	long long n, i;

	*out = NULL;
	table_key_bytes(h, &b0, &b1);
	n = decode_records(text, b0 + b1 + 16, &raw);
	if (n >= 0)
		*out = calloc((size_t)n + 1, sizeof(**out));
	if (n < 0 || !*out) {
		free(raw);
		return -1;
	}
	for (i = 0, p = raw; i < n; i++) {
		p = get_le(get_le(p, &(*out)[i].key.k0, b0), &(*out)[i].key.k1, b1);
		p = get_le(get_le(p, &(*out)[i].hits, 8), &(*out)[i].misses, 8);
	}
	free(raw);
	return n;
}
