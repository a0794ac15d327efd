// SPDX-License-Identifier: GPL-2.0
/*
 * The native micro-benchmark's programs (bench/micro/walk-bench.c): a
 * chain of nodes laid out in a map value, linked by their kernel
 * addresses, walked three ways that a recipe could walk a kernel chain:
 *  - walk_probe8:  one bpf_probe_read_kernel() of the next pointer;
 *  - walk_window:  one probe read of a 64-byte window per node (what
 *                  bpf/walk.bpf.h does: the next pointer and the key);
 *  - walk_direct:  plain loads through bpf_rdonly_cast() (6.2+), which
 *                  the verifier turns into fault-safe loads, no call.
 * and one lookup's accounting, a per-CPU counter bumped two ways:
 *  - adds_plain:   a plain load, add and store (bpf/walk.bpf.h where the
 *                  kernel never nests the program on a CPU);
 *  - adds_atomic:  an atomic add (lock-prefixed on x86).
 * Run by BPF_PROG_TEST_RUN and timed with the kernel's BPF statistics.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#define BENCH_NODES 256

struct bench_node {
	__u64 next;        /* the kernel address of the next node, 0 at the end */
	__u64 key;
	__u64 pad[6];      /* 64 bytes: a cache line each, like a small kernel entry */
};

struct bench_chain {
	struct bench_node n[BENCH_NODES];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bench_chain);
} chain SEC(".maps");

__u32 chain_len = 1;       /* set by user space before link_chain runs */
__u64 wanted_key = ~0ULL;  /* never found: every walk goes to the end */
__u64 walked;              /* nodes walked in all: keeps the loads live */

extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym __weak;

static __always_inline struct bench_chain *the_chain(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&chain, &zero);
}

/* Link the first chain_len nodes by address. */
SEC("raw_tp")
int link_chain(void *ctx)
{
	struct bench_chain *c = the_chain();
	__u32 i;

	if (!c)
		return 1;
	for (i = 0; i < BENCH_NODES; i++) {
		c->n[i].key = i;
		c->n[i].next = i + 1 < chain_len ? (__u64)(unsigned long)&c->n[i + 1] : 0;
	}
	return 0;
}

static __always_inline __u64 first_node(void)
{
	struct bench_chain *c = the_chain();

	return c ? (__u64)(unsigned long)&c->n[0] : 0;
}

SEC("raw_tp")
int walk_probe8(void *ctx)
{
	__u64 pos = first_node(), next;
	int i;

	for (i = 0; i < BENCH_NODES && pos; i++) {
		next = 0;
		bpf_probe_read_kernel(&next, sizeof(next), (void *)pos);
		pos = next;
	}
	walked += i;
	return 0;
}

SEC("raw_tp")
int walk_window(void *ctx)
{
	__u64 pos = first_node();
	struct bench_node w;
	int i;

	for (i = 0; i < BENCH_NODES && pos; i++) {
		if (bpf_probe_read_kernel(&w, sizeof(w), (void *)pos))
			break;
		if (w.key == wanted_key)
			break;
		pos = w.next;
	}
	walked += i;
	return 0;
}

SEC("raw_tp")
int walk_direct(void *ctx)
{
	__u32 id = bpf_core_type_id_kernel(struct hlist_node);
	__u64 pos = first_node();
	int i;

	if (!bpf_rdonly_cast)
		return 1;
	for (i = 0; i < BENCH_NODES && pos; i++) {
		/* next is hlist_node's first member; pprev stands in for the key */
		struct hlist_node *h = bpf_rdonly_cast((void *)pos, id);

		if ((__u64)(unsigned long)h->pprev == wanted_key)
			break;
		pos = (__u64)(unsigned long)h->next;
	}
	walked += i;
	return 0;
}

/* per-CPU counters, as chain_counters is: 8 of them, one line */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[8]);
} counters SEC(".maps");

__u32 add_count = 1;       /* adds per run: set by user space */

/*
 * volatile: one add each time round, which the compiler may not fold
 * into one add of the total, as a real lookup's few adds to different
 * counters cannot be folded either.
 */
SEC("raw_tp")
int adds_plain(void *ctx)
{
	__u32 zero = 0, i;
	__u64 *c = bpf_map_lookup_elem(&counters, &zero);

	if (!c)
		return 1;
	for (i = 0; i < 1024 && i < add_count; i++)
		*(volatile __u64 *)&c[i & 7] += 1;
	return 0;
}

SEC("raw_tp")
int adds_atomic(void *ctx)
{
	__u32 zero = 0, i;
	__u64 *c = bpf_map_lookup_elem(&counters, &zero);

	if (!c)
		return 1;
	for (i = 0; i < 1024 && i < add_count; i++)
		__sync_fetch_and_add(&c[i & 7], 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
