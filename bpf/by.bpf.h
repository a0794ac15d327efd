/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BY_BPF_H
#define BY_BPF_H

#include <bpf/bpf_core_read.h>
#include "settings.bpf.h"
#include "counters.bpf.h"

/*
 * --by: the lookup's walk, charged to its comm, thread group, cgroup or
 * network namespace. A bounded hash; a key that finds it full is
 * counted as dropped.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);   /* PFT_BY_MAX with --by */
	__type(key, struct by_key);
	__type(value, struct by_counts);
} by_counts SEC(".maps");

/* The current task's network namespace, its inode number (0: it has none, exiting) */
static __always_inline __u64 task_netns(void)
{
	struct task_struct *task = (void *)bpf_get_current_task();

	return BPF_CORE_READ(task, nsproxy, net_ns, ns.inum);
}

/*
 * A global function (verified once); PACKED as for account_walk(), OWNER
 * the lookup's own namespace where the recipe knows it (struct chain_walk).
 */
__noinline int account_by(__u64 packed, __u64 owner)
{
	struct by_key key = {};
	struct by_counts zero = {}, *c;
	struct chain_counters *s;

	if (walk_config.by == PFT_BY_COMM)
		bpf_get_current_comm(key.comm, sizeof(key.comm));
	else if (walk_config.by == PFT_BY_PID)
		key.id = bpf_get_current_pid_tgid() >> 32;
	else if (walk_config.by == PFT_BY_NETNS)
		key.id = owner ? owner : task_netns();
	else
		key.id = bpf_get_current_cgroup_id();
	c = bpf_map_lookup_elem(&by_counts, &key);
	if (!c) {
		bpf_get_current_comm(zero.comm, sizeof(zero.comm));
		/* EEXIST: another CPU inserted it first; look again */
		bpf_map_update_elem(&by_counts, &key, &zero, BPF_NOEXIST);
		c = bpf_map_lookup_elem(&by_counts, &key);
	}
	if (!c) {
		s = stats_slot();
		if (s)
			stat_add(s->by_dropped, 1);
		return 0;
	}
	shared_add(c->lookups, 1);
	shared_add(c->nodes, WALK_NODES(packed));
	if (!(packed & KERNEL_FOUND))
		shared_add(c->misses, 1);
	return 0;
}

#endif /* BY_BPF_H */
