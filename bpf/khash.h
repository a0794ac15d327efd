/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own hash functions that bucket pftrace's tables, in one
 * place for both sides: the recipes compute buckets with them in BPF,
 * and whatif lays keys out with them in user space. The includer
 * provides __u32 and __u64 (vmlinux.h, or linux/types.h).
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

KHASH_INLINE __u64 khash_rol64(__u64 w, __u32 s)
{
	return (w << s) | (w >> (64 - s));
}

/* lib/siphash.c SIPHASH_PERMUTATION() */
#define KHASH_SIPROUND(v0, v1, v2, v3) do {					\
	v0 += v1; v1 = khash_rol64(v1, 13); v1 ^= v0; v0 = khash_rol64(v0, 32);	\
	v2 += v3; v3 = khash_rol64(v3, 16); v3 ^= v2;				\
	v0 += v3; v3 = khash_rol64(v3, 21); v3 ^= v0;				\
	v2 += v1; v1 = khash_rol64(v1, 17); v1 ^= v2; v2 = khash_rol64(v2, 32);	\
} while (0)

/*
 * lib/siphash.c siphash() (SipHash-2-4) of LEN bytes keyed by (K0, K1):
 * the NFULL words W[] as they lie in memory, then TAIL, the last
 * LEN % 8 bytes (little-endian, 0 when none).
 */
KHASH_INLINE __u64 khash_siphash(const __u64 *w, int nfull, __u64 tail, __u32 len,
				 __u64 k0, __u64 k1)
{
	__u64 v0 = 0x736f6d6570736575ULL ^ k0, v1 = 0x646f72616e646f6dULL ^ k1;
	__u64 v2 = 0x6c7967656e657261ULL ^ k0, v3 = 0x7465646279746573ULL ^ k1;
	__u64 b = ((__u64)len << 56) | tail;
	int i;

	for (i = 0; i < nfull && i < 8; i++) {
		v3 ^= w[i];
		KHASH_SIPROUND(v0, v1, v2, v3);
		KHASH_SIPROUND(v0, v1, v2, v3);
		v0 ^= w[i];
	}
	v3 ^= b;
	KHASH_SIPROUND(v0, v1, v2, v3);
	KHASH_SIPROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	KHASH_SIPROUND(v0, v1, v2, v3);
	KHASH_SIPROUND(v0, v1, v2, v3);
	KHASH_SIPROUND(v0, v1, v2, v3);
	KHASH_SIPROUND(v0, v1, v2, v3);
	return (v0 ^ v1) ^ (v2 ^ v3);
}

/*
 * net/netfilter/nf_conntrack_core.c hash_conntrack_raw(), from the
 * tuple's first five words TW (struct nf_conntrack_tuple, 40 bytes; the
 * 40th, dst.dir, is never hashed), the zone's id in the entry's
 * direction, the namespace's hash_mix and the secret nf_conntrack_hash_rnd
 * (K0, K1). Two forms, both SipHash:
 *  - TUPLE39 (6.12, 6.19, 7.2): the tuple up to dst.__nfct_hash_offsetend
 *    (39 bytes), keyed by the secret with the zone in key[0] and
 *    hash_mix in key[1];
 *  - else (6.1): a 48-byte struct of the source, the destination
 *    address, the zone, hash_mix, the destination port and the
 *    protocol, keyed by the secret alone.
 * The kernel keeps the low 32 bits.
 */
KHASH_INLINE __u32 nf_ct_hash_raw(const __u64 *tw, __u32 zone, __u32 mix, __u64 k0, __u64 k1,
				  int tuple39)
{
	__u64 c[6];

	if (tuple39)
		return (__u32)khash_siphash(tw, 4, tw[4] & 0x00ffffffffffffffULL, 39,
					    k0 ^ zone, k1 ^ mix);
	c[0] = tw[0];
	c[1] = tw[1];
	c[2] = tw[2];
	c[3] = tw[3];
	c[4] = (tw[4] & 0xffffffffULL) | (__u64)zone << 32;
	c[5] = mix | ((tw[4] >> 32) & 0xffff) << 32 | ((tw[4] >> 48) & 0xff) << 48;
	return (__u32)khash_siphash(c, 6, 0, 48, k0, k1);
}

/* include/linux/kernel.h reciprocal_scale(): HASH into [0, SLOTS) without a division */
KHASH_INLINE __u64 khash_reciprocal_scale(__u32 hash, __u64 slots)
{
	return ((__u64)hash * slots) >> 32;
}

#endif
