/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LATENCY_BPF_H
#define LATENCY_BPF_H

#include "settings.bpf.h"
#include "calls.bpf.h"
#include "account.bpf.h"

/*
 * --latency. The entry program (fentry, or the end of the kprobe
 * handler, after its walk) stamps the time per task; the exit program
 * reads the time first thing, before its own walk, and accounts the
 * difference by the nodes its walk visited. The maps have one entry
 * when latency is off (the loader sizes them).
 */
struct lat_start {
	__u64 t;
	__u32 cpu;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u64);
	__type(value, struct lat_start);
} lat_starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} lat_cycles SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lat_counters);
} lat_counters SEC(".maps");

/* 4 KB per node count and CPU: the loader makes it PFT_LAT_NODES for --latency */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lat_hist);
} lat_hist SEC(".maps");

static __always_inline __u64 lat_now(enum pft_body body)
{
	struct bpf_perf_event_value v;

	/* first, the one test every call makes when latency is off */
	if (!SETTING(body, latency))
		return 0;
	if (walk_config.latency == PFT_LAT_NS)
		return bpf_ktime_get_ns();
	if (walk_config.latency != PFT_LAT_CYCLES)
		return 0;
	if (bpf_perf_event_read_value(&lat_cycles, BPF_F_CURRENT_CPU, &v, sizeof(v)))
		return 0;
	return v.counter;
}

/*
 * The stamp's key: the task, except for every CPU's idle task (tid 0),
 * whose softirqs (TCP receive, above all) run on all CPUs at once: there
 * the CPU tells them apart.
 */
static __always_inline __u64 lat_key(void)
{
	__u64 tid = bpf_get_current_pid_tgid();

	return (__u32)tid ? tid : (1ULL << 63) | bpf_get_smp_processor_id();
}

static __always_inline void lat_enter(void)
{
	struct lat_start s;
	__u64 tid;

	if (!walk_config.latency || (walk_config.filter && !task_passes()))
		return;
	tid = lat_key();
	s.cpu = bpf_get_smp_processor_id();
	s.pad = 0;
	s.t = lat_now(PFT_BODY_SETTINGS);   /* last: what follows the stamp is the function */
	bpf_map_update_elem(&lat_starts, &tid, &s, BPF_ANY);
}

/* A global function (verified once): the lookup that ended at NOW walked PACKED. */
__noinline int account_latency(__u64 now, __u64 packed)
{
	__u64 tid = lat_key(), d;
	__u32 zero = 0, n = WALK_NODES(packed), b;
	struct lat_counters *c = bpf_map_lookup_elem(&lat_counters, &zero);
	struct lat_start *s = bpf_map_lookup_elem(&lat_starts, &tid);
	struct lat_hist *h;

	if (!c)
		return 0;
	if (!s || !now) {
		stat_add(c->lost, 1);
		return 0;
	}
	if (walk_config.latency == PFT_LAT_CYCLES && s->cpu != bpf_get_smp_processor_id()) {
		stat_add(c->migrated, 1);
		bpf_map_delete_elem(&lat_starts, &tid);
		return 0;
	}
	/* a stamp from the future is another call's: not this one's time */
	if (now < s->t) {
		stat_add(c->lost, 1);
		bpf_map_delete_elem(&lat_starts, &tid);
		return 0;
	}
	d = now - s->t;
	bpf_map_delete_elem(&lat_starts, &tid);
	if (packed & (WALK_TRUNCATED | WALK_FAULT))
		return 0;
	if (n >= PFT_LAT_NODES)
		n = PFT_LAT_NODES - 1;
	/* opaque here, so that clang keeps the masks below for the verifier */
	barrier_var(n);
	b = (__u32)(d >> (walk_config.lat_shift & 31));
	if (b >= PFT_LAT_BUCKETS)
		b = PFT_LAT_BUCKETS - 1;
	/* masks the verifier can see: n also goes through the stack as the key */
	stat_add(c->count[n & (PFT_LAT_NODES - 1)], 1);
	stat_add(c->sum[n & (PFT_LAT_NODES - 1)], d);
	h = bpf_map_lookup_elem(&lat_hist, &n);
	if (h)
		stat_add(h->bucket[b & (PFT_LAT_BUCKETS - 1)], 1);
	return 0;
}

/* account_lookup(), and with --latency the call's time, ended at NOW */
static __always_inline void account_lookup_at(enum pft_body body, const struct chain_walk *w,
					      __u64 kernel_found, __u64 now)
{
	account_lookup(body, w, kernel_found);
	if (SETTING(body, latency))
		account_latency(now, w->result);
}

#endif /* LATENCY_BPF_H */
