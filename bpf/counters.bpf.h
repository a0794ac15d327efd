/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU maps a lookup is accounted in (chain_counters and
 * agreed_walks, laid out in pftrace.h), and the result word a walk
 * ends with, which keys its add.
 */
#ifndef COUNTERS_BPF_H
#define COUNTERS_BPF_H

#include "pftrace.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct chain_counters);
} chain_counters SEC(".maps");

/* lookups whose walk found what the kernel found, one add each (pftrace.h) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PFT_AGREED_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} agreed_walks SEC(".maps");

/*
 * A walk's outcome. The result word is what account_agreed() keys its
 * add by, and what account_walk() takes (a global function takes
 * scalars only, on 5.10): WALK_* flags in its high 32 bits, and in its
 * low 32 the lookup's agreed_walks key, its row (from the flags) times
 * PFT_HIST_SLOTS plus the nodes visited. Both are set where the walk
 * ends, where the flags are constants, so that the key costs the
 * common path nothing (WALK_RESULT).
 */
#define WALK_HIT       (1ULL << 32)
#define WALK_NEXT_NULL (1ULL << 33)  /* the hit node was the last of its chain */
#define WALK_TRUNCATED (1ULL << 34)
#define WALK_FAULT     (1ULL << 35)
#define KERNEL_FOUND   (1ULL << 36)  /* added by account_lookup() */

/*
 * The agreed_walks row of a result word: its WALK_HIT, WALK_NEXT_NULL,
 * WALK_TRUNCATED and WALK_FAULT bits (at most one of the last two, and
 * then neither of the first), packed into 0-4 by arithmetic alone. A
 * branch on the result would have the verifier track the node count
 * exactly, and check what follows once for each place the walk can end.
 */
#define AGREED_BITS(r) ((__u32)((__u64)(r) >> 32) & 15)
#define AGREED_ROW(r) ((AGREED_BITS(r) & 3) | ((AGREED_BITS(r) >> 1) & 6))
_Static_assert(AGREED_ROW(0) == PFT_AGREED_MISS &&
	       AGREED_ROW(WALK_HIT) == PFT_AGREED_HIT &&
	       AGREED_ROW(WALK_HIT | WALK_NEXT_NULL) == PFT_AGREED_HIT_LAST &&
	       AGREED_ROW(WALK_TRUNCATED) == PFT_AGREED_TRUNCATED &&
	       AGREED_ROW(WALK_FAULT) == PFT_AGREED_FAULT,
	       "agreed_walks rows follow the result word's bits");

/* The result word of a walk that visited N nodes and ended as FLAGS say. */
#define WALK_RESULT(flags, n) ((flags) + AGREED_ROW(flags) * PFT_HIST_SLOTS + (n))
/* Its agreed_walks key, and the nodes it visited */
#define WALK_KEY(r) ((__u32)(r))
#define WALK_NODES(r) (WALK_KEY(r) - AGREED_ROW(r) * PFT_HIST_SLOTS)

struct chain_walk {
	__u64 found;     /* address of the matching entry, 0 if none */
	__u64 result;    /* WALK_RESULT(): WALK_HIT, WALK_NEXT_NULL, ... and the nodes visited */
	/*
	 * --by netns: the namespace (its inode number) of a lookup that
	 * names one (conntrack's and TCP's net argument: they run in
	 * softirq, in whichever task was interrupted); 0 takes the current
	 * task's (walk_owner_netns()).
	 */
	__u64 owner;
};

/* a walk that could not start: the bucket's head was unreadable */
static __always_inline void walk_faulted(struct chain_walk *w)
{
	w->found = 0;
	w->owner = 0;
	w->result = WALK_RESULT(WALK_FAULT, 0);
}

static __always_inline struct chain_counters *stats_slot(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&chain_counters, &zero);
}

#endif /* COUNTERS_BPF_H */
