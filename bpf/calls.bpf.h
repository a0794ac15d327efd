/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which calls are walked: not while paused (--sample's slices), only
 * those of the tasks a filter admits (-p, --cgroup, --only-command),
 * and with --sample-calls one in N.
 */
#ifndef CALLS_BPF_H
#define CALLS_BPF_H

#include "settings.bpf.h"
#include "counters.bpf.h"

/*
 * Whose lookups count: the loader fills these when a filter is given
 * (filter_tgids is shared by every target, and grown by bpf/follow.bpf.c
 * for --only-command); sized 1 otherwise.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8);
} filter_tgids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} filter_cgroup SEC(".maps");

/* true when the current task's lookups are to be counted */
static __always_inline bool task_passes(void)
{
	if (walk_config.filter & PFT_FILTER_TGIDS) {
		__u32 tgid = bpf_get_current_pid_tgid() >> 32;

		if (!bpf_map_lookup_elem(&filter_tgids, &tgid))
			return false;
	}
	if ((walk_config.filter & PFT_FILTER_CGROUP) &&
	    bpf_current_task_under_cgroup(&filter_cgroup, 0) != 1)
		return false;
	return true;
}

/*
 * --sample's pause: between slices, or past the slice's end (the loader
 * pauses the walks a little later than that, when it wakes, or much
 * later when it is stopped). A call inside a slice pays the clock's
 * read, bpf_ktime_get_ns().
 */
static __always_inline bool walk_paused(void)
{
	__u64 until = walk_pause.until_ns;

	if (!until)
		return false;
	return until == PFT_WALK_PAUSED || bpf_ktime_get_ns() > until;
}

/* Count the call; true when this one is to be walked and accounted. */
static __always_inline bool sample_this_call(enum pft_body body)
{
	struct chain_counters *s;
	__u64 seen;

	/* the benchmark's floor: a program that attaches and does nothing */
	if (SETTING(body, walk_off))
		return false;
	if (PAUSABLE(body) && walk_paused())
		return false;
	/* first, and cheap: another tenant's lookup costs a test or one map lookup */
	if (SETTING(body, filter) && !task_passes())
		return false;
	/* unsampled, every call is a lookup: the loader derives calls */
	if (SETTING(body, sample_every) <= 1)
		return true;
	s = stats_slot();
	if (!s)
		return false;
	/*
	 * Not a fetching atomic: BPF_FETCH needs 5.12 and 5.10 refuses it.
	 * On 5.10 an interrupt nesting this program may see the same
	 * "seen"; that only shifts which call is sampled, never a count.
	 */
	seen = s->calls;
	stat_add(s->calls, 1);
	return seen % walk_config.sample_every == 0;
}

#endif /* CALLS_BPF_H */
