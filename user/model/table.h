/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hash table as a whole: its shape (how many buckets hold how many
 * entries), what ideal uniform hashing would give for the same entries
 * and buckets, and the keys of a snapshot laid out again in a table of
 * another size or under another of the kernel's bucket functions
 * (table_hash.h; pftrace whatif). Pure functions, tested without BPF.
 */
#ifndef PFT_TABLE_H
#define PFT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "pftrace.h"   /* struct snap_key */
#include "table_hash.h"

/* Largest table whatif lays out: 2^24 buckets, 64 MiB of counts. */
#define PFT_TABLE_MAX_BITS 24
#define PFT_TABLE_MAX_SLOTS (1ULL << PFT_TABLE_MAX_BITS)

struct table_shape {
	__u64 entries;
	__u64 buckets;
	__u64 used;          /* buckets holding at least one entry */
	__u64 longest;
	__u64 *by_len;       /* by_len[L]: buckets with L entries, L = 0..longest */
};

/* What ideal (uniform random) hashing gives for the same entries and buckets. */
struct uniform_expect {
	double used;         /* expected buckets used */
	double longest;      /* expected longest chain (Poisson approximation) */
	double dispersion;   /* observed index of dispersion, sum (x - mean)^2 / mean */
	int df;
	double p_value;      /* P(dispersion at least this | uniform): small = clustered */
};

/* From the chain length of every bucket. 0 or -ENOMEM. */
int table_shape_from_chains(struct table_shape *s, const __u32 *chain, __u64 buckets);
void table_shape_free(struct table_shape *s);
bool table_shape_equal(const struct table_shape *a, const struct table_shape *b);
void uniform_expectation(const struct table_shape *observed, struct uniform_expect *u);

/*
 * A table of SLOTS buckets filled with ENTRIES entries, each in a bucket
 * of its own drawn uniformly at random (a hash keyed by a secret, as
 * conntrack's SipHash is): whatif --entries. Expectations, and the
 * spread another fill of the same size would show.
 */
struct uniform_fill {
	__u64 slots, entries;
	double used, used_sd;                    /* buckets used, and its standard deviation */
	double longest, longest_lo, longest_hi;  /* the longest chain: mean, 2.5% and 97.5% points */
	double walk_hit;                         /* nodes a hit walks: 1 + (entries - 1) / (2 slots) */
	double walk_miss;                        /* nodes a miss walks: entries / slots */
	double *by_len;                          /* expected buckets with L entries, L = 0..max_len */
	__u64 max_len;
};

/* 0, -EINVAL (no buckets) or -ENOMEM. */
int uniform_fill(struct uniform_fill *f, __u64 slots, __u64 entries);
void uniform_fill_free(struct uniform_fill *f);

/* How often one key was looked up while tracing, by the kernel's verdict. */
struct key_count {
	struct snap_key key;
	__u64 hits;
	__u64 misses;
};

struct layout_prediction {
	const struct table_hash *hash;
	__u64 slots;                 /* buckets: a power of two unless the hash takes any */
	struct table_shape shape;
	/*
	 * Nodes a lookup walks, weighted by the traced lookups. The order
	 * within a chain of the new layout is unknown, so the point value
	 * takes: a hit walks (L + 1) / 2 of its chain of L (the entry
	 * included); a miss of a key the table took afterwards, (L - 1) / 2
	 * (the entries before it); a miss of a key the table never held, all
	 * L. The bounds take the best and the worst order: in each chain the
	 * most looked-up keys first, or last (misses of keys taken later: 0
	 * or L - 1 before them). Any order the kernel ends up with lies
	 * between them.
	 */
	double mean_walk, mean_walk_lo, mean_walk_hi;
	/*
	 * For the snapshot's own layout, whose keys come in chain order: the
	 * walks at that very order (a hit at its position, a miss of a key
	 * taken later past the older entries behind it). Negative when not
	 * computed.
	 */
	double mean_walk_in_order;
	/*
	 * The same lookups over PFT_REDRAWN_LAYOUTS layouts in which what
	 * changes from boot to boot is drawn anew (a fixed seed: the same file
	 * gives the same figures): the superblock and mount addresses the
	 * inode and mount hashes mix in, under the kernel's function; for
	 * the dcache (salted name hashes), TCP (a boot-time secret) and the
	 * AVC (ideal hashing), uniformly random buckets. Each key at a
	 * uniformly random place in its chain. The mean, standard deviation,
	 * and the 2.5% and 97.5% points: what another boot of the same load
	 * should give.
	 */
	double redrawn_walk, redrawn_walk_sd, redrawn_walk_lo, redrawn_walk_hi;
	__u64 lookups_weighed;
};

#define PFT_REDRAWN_LAYOUTS 400

/*
 * Lay KEYS out under (hash, slots) and weigh the walks by COUNTS (may be
 * empty: mean_walk is then 0). REDRAW: the redrawn_walk figures too, by
 * far the most of the cost (hundreds of layouts; -1 without). 0, -EINVAL
 * (a size out of 2 to PFT_TABLE_MAX_SLOTS, or one the hash cannot take)
 * or -ENOMEM.
 */
int predict_layout(struct layout_prediction *p, const struct table_hash *hash, __u64 slots,
		   const struct snap_key *keys, __u64 nkeys,
		   const struct key_count *counts, __u64 ncounts, bool redraw);
/* The same for the snapshot's own layout, KEYS in its chain order: also mean_walk_in_order. */
int predict_own_layout(struct layout_prediction *p, const struct table_hash *hash, __u64 slots,
		       const struct snap_key *keys, __u64 nkeys,
		       const struct key_count *counts, __u64 ncounts, bool redraw);
void layout_prediction_free(struct layout_prediction *p);

/*
 * A whole table as one snapshot saw it (pftrace snapshot, --snapshot),
 * with the keys a rehash needs and, when a trace ran, how often each
 * key was looked up.
 */
struct table_snapshot {
	const struct table_hash *hash;  /* the kernel's bucket function */
	unsigned int bits;           /* log2 of the buckets (shape.buckets) where a power of two, else 0 */
	const char *key_layout;      /* what k0 and k1 hold */
	struct table_shape shape;
	struct uniform_expect uniform;
	struct snap_key *keys;       /* every entry, bucket by bucket */
	__u64 nkeys;
	double took_ms;              /* the walk of every bucket */
	__u64 changed_buckets;       /* buckets that differed on a second walk */
	__u64 cut;                   /* chains cut at PFT_SNAP_MAX_CHAIN */
	__u64 restarts;              /* buckets walked again from their head */
	bool counted;                /* lookups were counted by key */
	struct key_count *counts;
	__u64 ncounts;
	__u64 counts_dropped;        /* lookups of keys the bounded map had no room for */
	__u64 counts_limit;          /* the map's size */
};

void table_snapshot_free(struct table_snapshot *s);

/*
 * Keys in a run file: packed little-endian records, k0 then k1, in as
 * many bytes as the hash reads (AVC 8 + 2, dcache 4, inode and mount
 * 8 + 8, TCP 4), then base64. With counts, each record is followed by
 * hits and misses (8 bytes each). Encoders return a malloc'ed string or
 * NULL; decoders the record count, or -1 when the text is not a whole
 * number of valid records.
 */
void table_key_bytes(const struct table_hash *h, unsigned int *k0, unsigned int *k1);
/* Whether N keys and NCOUNTS counted lookups, base64, fit 12 MB (a run file is at most 16). */
bool keys_fit_runfile(const struct table_hash *h, __u64 n, __u64 ncounts);
char *keys_encode(const struct table_hash *h, const struct snap_key *keys, __u64 n);
long long keys_decode(const struct table_hash *h, const char *text, struct snap_key **out);
char *key_counts_encode(const struct table_hash *h, const struct key_count *c, __u64 n);
long long key_counts_decode(const struct table_hash *h, const char *text, struct key_count **out);

#endif
