/* SPDX-License-Identifier: GPL-2.0 */
/* The AVC recipe's settings, shared by bpf/avc.bpf.c and user/trace/recipe_avc.c. */
#ifndef PFT_AVC_H
#define PFT_AVC_H

/* The AVC's bucket function (rodata "avc_hash"), per kernel version. */
enum pft_avc_hash {
	PFT_AVC_HASH_XOR = 0,       /* up to 6.18: ssid ^ tsid<<2 ^ tclass<<4 */
	PFT_AVC_HASH_MURMUR3 = 1,   /* 6.19+: av_hash(), MurmurHash3-based */
};

#endif
