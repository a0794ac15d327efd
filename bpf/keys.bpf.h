/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KEYS_BPF_H
#define KEYS_BPF_H

#include "settings.bpf.h"
#include "counters.bpf.h"

/*
 * Lookups by key, for whatif's weighting (--snapshot): a hash map whose
 * size the loader sets (1 entry when not counting). A key that finds
 * the map full is counted as dropped, never silently lost.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, struct snap_key);
	__type(value, struct key_hits);
} key_counts SEC(".maps");

/* A global function: verified once, and it takes scalars only (5.10). */
__noinline int count_key_walk(__u64 k0, __u64 k1, __u32 hit)
{
	struct snap_key key = { .k0 = k0, .k1 = k1 };
	struct key_hits zero = {}, *kh;
	struct chain_counters *s;

	kh = bpf_map_lookup_elem(&key_counts, &key);
	if (!kh) {
		/* EEXIST: another CPU inserted it first; look again */
		bpf_map_update_elem(&key_counts, &key, &zero, BPF_NOEXIST);
		kh = bpf_map_lookup_elem(&key_counts, &key);
	}
	if (!kh) {
		s = stats_slot();
		if (s)
			stat_add(s->keys_dropped, 1);
		return 0;
	}
	if (hit)
		shared_add(kh->hits, 1);
	else
		shared_add(kh->misses, 1);
	return 0;
}

static __always_inline void count_key(enum pft_body body, __u64 k0, __u64 k1,
				      const struct chain_walk *w)
{
	if (SETTING(body, count_keys) && !(w->result & (WALK_FAULT | WALK_TRUNCATED)))
		count_key_walk(k0, k1, (w->result & WALK_HIT) != 0);
}

#endif /* KEYS_BPF_H */
