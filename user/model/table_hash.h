/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's bucket functions, one entry each: the name run files give
 * it, the bucket of a key, and the keys it reads. A recipe points at its
 * entry (user/trace/recipe_*.c); a new bucket function is a new entry
 * here and a line in table_hashes[] (table_hash.c), and nothing else.
 * Pure functions, tested without BPF.
 */
#ifndef PFT_TABLE_HASH_H
#define PFT_TABLE_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "pftrace.h"   /* struct snap_key */

/* The words of a key that hold kernel addresses (struct table_keys.addresses). */
#define TABLE_KEY_K0 1u
#define TABLE_KEY_K1 2u

/*
 * What a table's keys are, as bpf/NAME.bpf.c's snap_key_of() records
 * them. Bucket functions over the same keys (the same struct) are
 * alternatives to one another: whatif lays the keys out under each.
 */
struct table_keys {
	/* bytes of k0 and k1 in a run file's packed records (little-endian) */
	unsigned int k0_bytes, k1_bytes;
	/*
	 * What another boot of the same load changes: the words that are
	 * kernel addresses (drawn anew, the bucket function kept), or, with
	 * none, the whole bucket (uniformly random); nothing when the keys
	 * are the same on every boot.
	 */
	unsigned int addresses;
	bool same_every_boot;
	/* the sizes whatif tries unasked, as log2; 0: the kernel's -1 to +3 */
	unsigned int whatif_bits_min, whatif_bits_max;
};

struct table_hash {
	const char *name;                 /* as run files name it: "m_hash" */
	/* the bucket of K in a table of SLOTS buckets (a power of two, unless any_size) */
	__u64 (*bucket)(__u64 slots, const struct snap_key *k);
	const struct table_keys *keys;
	/* why the kernel's own layout may differ from the one predicted; NULL: only a wrong hash */
	const char *identity_caveat;
	/* any bucket count (reciprocal_scale()), where the others mask: powers of two only */
	bool any_size;
	/* the sizes the kernel allocates are multiples of this (conntrack's: 512); 0: any */
	unsigned int size_step;
};

/* Whether a table of SLOTS buckets can be bucketed by H: a power of two, unless it takes any. */
bool table_hash_takes(const struct table_hash *h, __u64 slots);
/* log2 of SLOTS, a power of two */
unsigned int table_slot_bits(__u64 slots);

/* Largest number of bucket functions: the registry is checked against it when built. */
#define TABLE_HASHES_MAX 16

/*
 * The kernel's bucket functions, by the names run files use:
 *   xor, murmur3, jhash   AVC (ssid, tsid, tclass): <= 6.18, 6.19+, and
 *                         jhash_3words(ssid, tsid, tclass, 0) as a third choice
 *   d_hash                dcache: the name hash's top bits
 *   inode_hash            fs/inode.c hash(sb, ino)
 *   m_hash                fs/namespace.c m_hash(mnt, dentry)
 *   ehash                 the full inet_ehashfn() value & mask
 *   hash_conntrack        reciprocal_scale() of the raw hash_conntrack_raw() value
 *   conntrack_mask        the same raw hash masked (not the kernel's: a foil)
 */
extern const struct table_hash table_hash_xor, table_hash_murmur3, table_hash_jhash,
	table_hash_d_hash, table_hash_inode, table_hash_m_hash, table_hash_ehash,
	table_hash_conntrack, table_hash_conntrack_mask;

/* The I-th of the registry, in its order; NULL past the end. */
const struct table_hash *table_hash_at(int i);
/* Its place in the registry (0 ..), or -1 for one outside it. */
int table_hash_index(const struct table_hash *h);
/* The registry's entry called NAME, or NULL. */
const struct table_hash *table_hash_named(const char *name);
/* The I-th name of the registry, NULL past the end (a knob's values). */
const char *table_hash_name_at(int i);
/* Whether a table bucketed by KERNEL can be laid out under ALT: the same keys. */
bool table_hash_compatible(const struct table_hash *kernel, const struct table_hash *alt);

/* The AVC's three bucket functions, before the mask */
__u32 avc_hash_xor(__u32 ssid, __u32 tsid, __u16 tclass);
__u32 avc_hash_murmur3(__u32 ssid, __u32 tsid, __u16 tclass);
__u32 avc_hash_jhash(__u32 ssid, __u32 tsid, __u16 tclass);

#endif
