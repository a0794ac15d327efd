/* SPDX-License-Identifier: GPL-2.0 */
/* The AVC recipe's settings, shared by bpf/avc.bpf.c and user/trace/recipe_avc.c. */
#ifndef PFT_AVC_H
#define PFT_AVC_H

/* The AVC's bucket function, per kernel version (in avc_bucket_rule, below). */
enum pft_avc_hash {
	PFT_AVC_HASH_XOR = 0,       /* up to 6.18: ssid ^ tsid<<2 ^ tclass<<4 */
	PFT_AVC_HASH_MURMUR3 = 1,   /* 6.19+: av_hash(), MurmurHash3-based */
};

/*
 * The bucket rule (rodata "avc_bucket_rule"): the mask, slots - 1, with
 * this bit set for the MurmurHash3 function. One word, so that a call
 * loads one setting to find its bucket, not two.
 */
#define PFT_AVC_RULE_MURMUR3 (1U << 30)

#endif
