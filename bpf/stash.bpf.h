/* SPDX-License-Identifier: GPL-2.0 */
#ifndef STASH_BPF_H
#define STASH_BPF_H

#include "latency.bpf.h"

/*
 * kprobe + kretprobe: the walk runs at entry (the state the kernel is
 * about to walk) and is accounted at return, when the verdict is known.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct chain_walk);
} pending_walks SEC(".maps");

static __always_inline void stash_walk(const struct chain_walk *w)
{
	__u64 tid = bpf_get_current_pid_tgid();
	struct chain_counters *s;

	if (bpf_map_update_elem(&pending_walks, &tid, w, BPF_ANY)) {
		s = stats_slot();
		if (s)
			stat_add(s->lost, 1);
	}
}

/* The walk stashed at entry, or NULL (call not sampled, or entry lost). */
static __always_inline struct chain_walk *stashed_walk(__u64 *tid)
{
	if (walk_config.walk_off)
		return NULL;
	*tid = bpf_get_current_pid_tgid();
	return bpf_map_lookup_elem(&pending_walks, tid);
}

static __always_inline void account_stashed(__u64 kernel_found)
{
	__u64 now = lat_now(PFT_BODY_SETTINGS);
	struct chain_walk *w;
	__u64 tid;

	w = stashed_walk(&tid);
	if (!w)
		return;
	account_lookup_at(PFT_BODY_SETTINGS, w, kernel_found, now);
	bpf_map_delete_elem(&pending_walks, &tid);
}

#endif /* STASH_BPF_H */
