// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "table_hash.h"
#include "khash.h"

#define GOLDEN_RATIO_64 0x61C8864680B583EBULL   /* include/linux/hash.h */
#define L1_CACHE_BYTES 64                         /* x86-64 */

/* k0 = ssid | tsid << 32, k1 = tclass; SIDs are the same on every boot */
static const struct table_keys avc_keys = {
	.k0_bytes = 8, .k1_bytes = 2, .same_every_boot = true,
	/* the AVC's 512 slots are a build-time constant: whatif tries 2^9 to 2^14 */
	.whatif_bits_min = 9, .whatif_bits_max = 14,
};

/* security/selinux/avc.c avc_hash(), up to 6.18 (before the mask) */
__u32 avc_hash_xor(__u32 ssid, __u32 tsid, __u16 tclass)
{
	return av_hash_xor(ssid, tsid, tclass);
}

/* security/selinux/include/hash.h av_hash(), 6.19+ (before the mask) */
__u32 avc_hash_murmur3(__u32 ssid, __u32 tsid, __u16 tclass)
{
	return av_hash_murmur3(ssid, tsid, tclass);
}

/* include/linux/jhash.h jhash_3words(ssid, tsid, tclass, 0) */
__u32 avc_hash_jhash(__u32 ssid, __u32 tsid, __u16 tclass)
{
	return jhash_3words(ssid, tsid, tclass, 0);
}

unsigned int table_slot_bits(__u64 slots)
{
	return slots ? (unsigned int)__builtin_ctzll(slots) : 0;
}

bool table_hash_takes(const struct table_hash *h, __u64 slots)
{
	return h && slots && (h->any_size || !(slots & (slots - 1)));
}

#define AVC_BUCKET(fn)								\
static __u64 fn##_bucket(__u64 slots, const struct snap_key *k)			\
{										\
	return fn((__u32)k->k0, (__u32)(k->k0 >> 32), (__u16)k->k1) & (slots - 1); \
}
AVC_BUCKET(avc_hash_xor)
AVC_BUCKET(avc_hash_murmur3)
AVC_BUCKET(avc_hash_jhash)

const struct table_hash table_hash_xor = { "xor", avc_hash_xor_bucket, &avc_keys };
const struct table_hash table_hash_murmur3 = { "murmur3", avc_hash_murmur3_bucket, &avc_keys };
const struct table_hash table_hash_jhash = { "jhash", avc_hash_jhash_bucket, &avc_keys };

/* fs/dcache.c d_hash(): hash >> d_hash_shift, shift = 32 - bits; k0 = d_name.hash_len */
static __u64 d_hash_bucket(__u64 slots, const struct snap_key *k)
{
	unsigned int bits = table_slot_bits(slots);

	return bits ? (__u32)k->k0 >> (32 - bits) : 0;
}

/* name hashes are salted per boot: another boot, other buckets */
static const struct table_keys dcache_keys = { .k0_bytes = 4 };

const struct table_hash table_hash_d_hash = { "d_hash", d_hash_bucket, &dcache_keys };

/* fs/inode.c hash(sb, hashval), i_hash_shift = bits; k0 = sb, k1 = ino */
static __u64 inode_hash_bucket(__u64 slots, const struct snap_key *k)
{
	__u64 tmp = (k->k1 * k->k0) ^ (GOLDEN_RATIO_64 + k->k1) / L1_CACHE_BYTES;

	tmp = tmp ^ ((tmp ^ GOLDEN_RATIO_64) >> table_slot_bits(slots));
	return tmp & (slots - 1);
}

static const struct table_keys inode_keys = {
	.k0_bytes = 8, .k1_bytes = 8, .addresses = TABLE_KEY_K0,
};

const struct table_hash table_hash_inode = {
	"inode_hash", inode_hash_bucket, &inode_keys,
	"some inodes are not hashed by (i_sb, i_ino) (iget5_locked() filesystems: btrfs, "
	"overlayfs, fuse)",
};

/* fs/namespace.c m_hash(mnt, dentry), m_hash_shift = bits; k0 = mnt, k1 = dentry */
static __u64 m_hash_bucket(__u64 slots, const struct snap_key *k)
{
	__u64 tmp = k->k0 / L1_CACHE_BYTES + k->k1 / L1_CACHE_BYTES;

	tmp = tmp + (tmp >> table_slot_bits(slots));
	return tmp & (slots - 1);
}

static const struct table_keys mount_keys = {
	.k0_bytes = 8, .k1_bytes = 8, .addresses = TABLE_KEY_K0 | TABLE_KEY_K1,
};

const struct table_hash table_hash_m_hash = { "m_hash", m_hash_bucket, &mount_keys };

/* the full inet_ehashfn() value, masked; keyed by a boot-time secret */
static __u64 ehash_bucket(__u64 slots, const struct snap_key *k)
{
	return k->k0 & (slots - 1);
}

static const struct table_keys tcp_keys = { .k0_bytes = 4 };

const struct table_hash table_hash_ehash = { "ehash", ehash_bucket, &tcp_keys };

/*
 * net/netfilter/nf_conntrack_core.c: reciprocal_scale() of the raw
 * hash_conntrack_raw() value, which a boot-time secret keys; k0 = the
 * raw hash. Any size: nf_ct_alloc_hashtable() rounds a request up to a
 * page of list heads, 512 of them (x86-64, 4 KiB pages, 6.1 to 7.2).
 */
static __u64 conntrack_bucket(__u64 slots, const struct snap_key *k)
{
	return khash_reciprocal_scale((__u32)k->k0, slots);
}

static const struct table_keys conntrack_keys = { .k0_bytes = 4 };

const struct table_hash table_hash_conntrack = {
	"hash_conntrack", conntrack_bucket, &conntrack_keys, NULL, .any_size = true, .size_step = 512,
};

/*
 * The same raw hash masked, as a power-of-two table would take it: not
 * the kernel's (its high bits choose the bucket, a mask its low ones),
 * so taken for the kernel's own (whatif -C current.hash) it must fail
 * the identity check and the lab's resize proof; beside it, what a mask
 * would do with the same entries.
 */
static __u64 conntrack_mask_bucket(__u64 slots, const struct snap_key *k)
{
	return (__u32)k->k0 & (slots - 1);
}

const struct table_hash table_hash_conntrack_mask = { "conntrack_mask", conntrack_mask_bucket,
						       &conntrack_keys };

/* The registry, in the order whatif lists and times them. */
static const struct table_hash *const table_hashes[] = {
	&table_hash_xor, &table_hash_murmur3, &table_hash_jhash, &table_hash_d_hash,
	&table_hash_inode, &table_hash_m_hash, &table_hash_ehash, &table_hash_conntrack,
	&table_hash_conntrack_mask,
};
#define NHASHES ((int)(sizeof(table_hashes) / sizeof(table_hashes[0])))
_Static_assert(NHASHES <= TABLE_HASHES_MAX, "raise TABLE_HASHES_MAX");

const struct table_hash *table_hash_at(int i)
{
	return i >= 0 && i < NHASHES ? table_hashes[i] : NULL;
}

int table_hash_index(const struct table_hash *h)
{
	int i;

	for (i = 0; i < NHASHES; i++)
		if (table_hashes[i] == h)
			return i;
	return -1;
}

const struct table_hash *table_hash_named(const char *name)
{
	int i;

	for (i = 0; name && i < NHASHES; i++)
		if (!strcmp(name, table_hashes[i]->name))
			return table_hashes[i];
	return NULL;
}

const char *table_hash_name_at(int i)
{
	const struct table_hash *h = table_hash_at(i);

	return h ? h->name : NULL;
}

bool table_hash_compatible(const struct table_hash *kernel, const struct table_hash *alt)
{
	return kernel && alt && kernel->keys == alt->keys;
}
