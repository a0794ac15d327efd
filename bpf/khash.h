/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own hash functions that bucket pftrace's tables, in one
 * place for both sides: the recipes compute buckets with them in BPF,
 * and whatif lays keys out with them in user space. The includer
 * provides __u32 (vmlinux.h, or linux/types.h).
 */
#ifndef PFT_KHASH_H
#define PFT_KHASH_H

#define KHASH_INLINE static inline __attribute__((always_inline))

KHASH_INLINE __u32 khash_rol32(__u32 w, __u32 s)
{
	return (w << s) | (w >> (32 - s));
}

/* include/linux/jhash.h: jhash_3words() */
KHASH_INLINE __u32 jhash_3words(__u32 a, __u32 b, __u32 c, __u32 initval)
{
	initval += 0xdeadbeef + (3 << 2);
	a += initval;
	b += initval;
	c += initval;
	c ^= b; c -= khash_rol32(b, 14);
	a ^= c; a -= khash_rol32(c, 11);
	b ^= a; b -= khash_rol32(a, 25);
	c ^= b; c -= khash_rol32(b, 16);
	a ^= c; a -= khash_rol32(c, 4);
	b ^= a; b -= khash_rol32(a, 14);
	c ^= b; c -= khash_rol32(b, 24);
	return c;
}

/* security/selinux/avc.c avc_hash(), up to 6.18, before the mask */
KHASH_INLINE __u32 av_hash_xor(__u32 ssid, __u32 tsid, __u32 tclass)
{
	return ssid ^ (tsid << 2) ^ (tclass << 4);
}

KHASH_INLINE __u32 murmur3_mix(__u32 hash, __u32 v)
{
	v *= 0xcc9e2d51;
	v = khash_rol32(v, 15);
	v *= 0x1b873593;
	hash ^= v;
	hash = khash_rol32(hash, 13);
	return hash * 5 + 0xe6546b64;
}

/* security/selinux/include/hash.h av_hash() (6.19+, MurmurHash3), before the mask */
KHASH_INLINE __u32 av_hash_murmur3(__u32 ssid, __u32 tsid, __u32 tclass)
{
	__u32 h = murmur3_mix(murmur3_mix(murmur3_mix(0, ssid), tsid), tclass);

	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

#endif
