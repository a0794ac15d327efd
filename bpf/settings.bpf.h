/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the loader sets for a recipe's walk (walk_config), what the walk
 * leaves for it (walk_output), and the pause it switches while the
 * programs run (walk_pause); how a counter is added to, and the exit
 * program whose body the settings choose (WALK_EXIT_PROG).
 */
#ifndef SETTINGS_BPF_H
#define SETTINGS_BPF_H

#include "pftrace.h"

const volatile struct walk_config walk_config SEC(".rodata.walk") = {
	.sample_every = 1,
};
struct walk_output walk_output SEC(".data.walk");
/*
 * --sample N: the loader pauses the walks before it detaches the
 * programs and resumes them, until the slice's end, once they are all
 * attached again, so that the counts are of exactly the time between,
 * whatever the kernel does inside an attach or a detach. A detach waits
 * out an RCU-tasks grace period (ftrace's unregister, ~100 ms and more),
 * one target after another, and a paused program costs only its
 * trampoline meanwhile. The slice's end is the walks' own (calls.bpf.h):
 * a loader stopped inside a slice leaves them walking no longer.
 */
struct walk_pause walk_pause SEC(".data.pause");

/*
 * Per-CPU counters (agreed_walks, chain_counters, lat_counters,
 * lat_hist) have one writer: the loader attaches one walking program
 * per object (an fexit, or a kprobe and its kretprobe). The kernel
 * never runs a program while it is already running on the same CPU:
 * kprobe programs nest in none (bpf_prog_active), and since 5.12 an
 * fexit program is skipped, and counted as a recursion miss, when it
 * would run inside itself, which a preempting task (PREEMPT_RT) or an
 * interrupt could otherwise make it do. There the loader sets
 * plain_adds and a counter takes a plain load, add and store. On 5.10
 * an interrupt can nest an fexit program in itself, so the add stays
 * atomic (lock-prefixed on x86, ~20 cycles).
 * The verifier drops the branch not taken: plain_adds is read-only.
 */
#define stat_add_as(plain, field, n)					\
	do {								\
		if (plain)						\
			(field) += (n);					\
		else							\
			__sync_fetch_and_add(&(field), (n));		\
	} while (0)
#define stat_add(field, n) stat_add_as(walk_config.plain_adds, field, n)

/*
 * A setting as one inlined copy of the walk sees it. BODY is a constant
 * at every use: the loader chooses a lean body when every setting is
 * at its default (no --sample-calls, filter, --by, --snapshot key
 * counts or --latency, not the floor, and plain adds), and the exit
 * programs then run a copy compiled for those defaults
 * (WALK_EXIT_PROG). The verifier drops the test of a read-only
 * setting, but not its load: about a dozen x86 instructions a call,
 * which a lean copy does not have. Only the copy chosen is verified.
 */
#define SETTING(body, field) ((body) == PFT_BODY_SETTINGS ? walk_config.field : LEAN_##field)
#define LEAN_walk_off 0
#define LEAN_filter 0
#define LEAN_sample_every 1
#define LEAN_count_keys 0
#define LEAN_latency 0
#define LEAN_by 0
#define LEAN_plain_adds 1
/* whether the walks can be paused (walk_pause): --sample's slices */
#define PAUSABLE(body) ((body) != PFT_BODY_LEAN)

/*
 * An exit program, as BPF_PROG() declares one, whose body runs as the
 * loader chose it (BODY, a constant in each inlined copy):
 *
 *	SEC("fexit/f") int WALK_EXIT_PROG(name, __u64 a, __u64 ret) { ... body ... }
 *
 * The floor (-C walk=off) returns after one load, before any argument
 * is read: the barrier keeps the compiler from loading one, or spilling
 * it, ahead of the test (where it does, the floor costs 4 to 12 guest ns
 * a call more). A body that needs the context itself after a call (a
 * cast is one) has the compiler move it to another register first,
 * which the floor pays: of the recipes, only the mount's (two
 * ARG_SCALAR() casts), one move.
 */
#define WALK_EXIT_PROG(name, args...)						\
name(unsigned long long *ctx);							\
static __always_inline int ____##name(enum pft_body body, unsigned long long *ctx, \
				       ##args);					\
int name(unsigned long long *ctx)						\
{										\
	const __u32 body = walk_config.body;					\
										\
	if (body == PFT_BODY_NONE)						\
		return 0;							\
	barrier();								\
	_Pragma("GCC diagnostic push")						\
	_Pragma("GCC diagnostic ignored \"-Wint-conversion\"")		\
	if (body == PFT_BODY_LEAN)						\
		return ____##name(PFT_BODY_LEAN, ___bpf_ctx_cast(args));	\
	if (body == PFT_BODY_LEAN_PAUSABLE)					\
		return ____##name(PFT_BODY_LEAN_PAUSABLE,			\
				  ___bpf_ctx_cast(args));			\
	return ____##name(PFT_BODY_SETTINGS, ___bpf_ctx_cast(args));	\
	_Pragma("GCC diagnostic pop")						\
}										\
static __always_inline int ____##name(enum pft_body body, unsigned long long *ctx, ##args)

/* Counters in maps shared by every CPU (by_counts, key_counts): atomic. */
#define shared_add(field, n) __sync_fetch_and_add(&(field), (n))

/* The table's bucket count, as the recipe computed it, for the report. */
static __always_inline void note_table_slots(__u64 slots)
{
	/* read first: an unconditional store would bounce the cache line */
	if (walk_output.table_slots != slots)
		walk_output.table_slots = slots;
}

#endif /* SETTINGS_BPF_H */
