// SPDX-License-Identifier: GPL-2.0
/*
 * --only-command: the command pftrace runs, and every process it forks,
 * in filter_tgids, the map every target's walk consults (walk.bpf.h).
 * The loader creates the map, puts the command's pid in it before the
 * command may exec, and gives the same map to this object and to every
 * target. A raw tracepoint, not tp_btf, so 5.10 and the build host
 * attach it too.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "pftrace.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);   /* the loader's map replaces it */
	__type(key, __u32);
	__type(value, __u8);
} filter_tgids SEC(".maps");

/* forks of a followed process that found filter_tgids full */
__u64 follow_dropped;
/* processes added: the loader reports them */
__u64 follow_added;

SEC("raw_tp/sched_process_fork")
int BPF_PROG(follow_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 parent_tgid = bpf_get_current_pid_tgid() >> 32;
	__u32 child_tgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	/* a new thread of a followed process is already in */
	if (child_tgid == parent_tgid || !bpf_map_lookup_elem(&filter_tgids, &parent_tgid))
		return 0;
	if (bpf_map_update_elem(&filter_tgids, &child_tgid, &one, BPF_NOEXIST) == 0)
		__sync_fetch_and_add(&follow_added, 1);
	else if (!bpf_map_lookup_elem(&filter_tgids, &child_tgid))
		__sync_fetch_and_add(&follow_dropped, 1);
	return 0;
}
