/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The chain walk every recipe shares: follow a hash bucket the way the
 * kernel's iterator does, bounded, and account one lookup into the
 * per-CPU chain_stats map. A recipe supplies only the first node of the
 * bucket and a function that says whether a node holds the wanted key.
 */
#ifndef WALK_BPF_H
#define WALK_BPF_H

#include "pftrace.h"

const volatile struct walk_config walk_config SEC(".rodata.walk") = {
	.sample_every = 1,
};
struct walk_output walk_output SEC(".data.walk");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct chain_stats);
} chain_stats SEC(".maps");

struct chain_walk {
	__u64 found;     /* address of the matching list node, 0 if none */
	__u32 walked;    /* nodes visited */
	__u8 hit;
	__u8 next_null;  /* the hit node was the last of its chain */
	__u8 truncated;
	__u8 fault;
};

/*
 * Counters are bumped with atomic adds although the map is per-CPU: a
 * tracing program can be preempted by another task that enters the same
 * program on the same CPU, and exact counts are the product.
 */
#define stat_add(field, n) __sync_fetch_and_add(&(field), (n))

static __always_inline struct chain_stats *stats_slot(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&chain_stats, &zero);
}

/* Count the call; true when this one is to be walked and accounted. */
static __always_inline bool sample_this_call(void)
{
	struct chain_stats *s;
	__u64 seen;

	/* the benchmark's floor: a program that attaches and does nothing */
	if (walk_config.walk_off)
		return false;
	s = stats_slot();
	if (!s)
		return false;
	/*
	 * Not a fetching atomic: BPF_FETCH needs 5.12 and 5.10 refuses it.
	 * A preempting caller may see the same "seen"; that only shifts
	 * which call is sampled, never a count.
	 */
	seen = s->calls;
	stat_add(s->calls, 1);
	return walk_config.sample_every <= 1 || seen % walk_config.sample_every == 0;
}

/* The table's bucket count, as the recipe computed it, for the report. */
static __always_inline void note_table_slots(__u64 slots)
{
	/* read first: an unconditional store would bounce the cache line */
	if (walk_output.table_slots != slots)
		walk_output.table_slots = slots;
}

/* Read a kernel word; 0 when unreadable (a walk then faults cleanly). */
static __always_inline __u64 kread_u64(__u64 addr)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)addr);
	return v;
}

static __always_inline __u32 kread_u32(__u64 addr)
{
	__u32 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)addr);
	return v;
}

/*
 * An fexit argument declared as a pointer in the kernel's BTF reaches
 * the program as a typed pointer, and the verifier forbids arithmetic
 * on it (the matchers XOR keys). Copying it through the stack with a
 * probe read turns it into a plain integer of the same value.
 */
static __always_inline __u64 as_scalar(__u64 v)
{
	__u64 in = v, out = 0;

	bpf_probe_read_kernel(&out, sizeof(out), &in);
	return out;
}

static __always_inline bool chain_at_end(__u64 pos, enum pft_chain_end end)
{
	/* hlist_nulls chains end in an odd marker that encodes the bucket */
	if (end == PFT_END_NULLS)
		return pos & 1;
	return pos == 0;
}

typedef bool (*node_match_fn)(__u64 node, const void *key);

/*
 * hlist_node, hlist_bl_node and hlist_nulls_node all keep their "next"
 * pointer as the first member, so one walk serves the three list kinds.
 */
static __always_inline void walk_chain(struct chain_walk *w, __u64 first,
				       enum pft_chain_end end,
				       node_match_fn match, const void *key)
{
	__u64 pos = first, next;
	int i;

	__builtin_memset(w, 0, sizeof(*w));
	for (i = 0; i < PFT_MAX_WALK; i++) {
		if (chain_at_end(pos, end))
			return;
		w->walked++;
		if (bpf_probe_read_kernel(&next, sizeof(next),
					  &((struct hlist_node *)pos)->next)) {
			w->fault = 1;
			return;
		}
		if (match(pos, key)) {
			w->hit = 1;
			w->found = pos;
			w->next_null = chain_at_end(next, end);
			return;
		}
		pos = next;
	}
	w->truncated = !chain_at_end(pos, end);
}

static __always_inline void hist_bump(__u64 *hist, __u64 slot)
{
	if (slot > PFT_MAX_WALK)
		slot = PFT_MAX_WALK;
	stat_add(hist[slot], 1);
}

/* chain_walk squeezed into one scalar, for a global function's argument */
#define WALK_HIT       (1ULL << 32)
#define WALK_NEXT_NULL (1ULL << 33)
#define WALK_TRUNCATED (1ULL << 34)
#define WALK_FAULT     (1ULL << 35)
#define KERNEL_FOUND   (1ULL << 36)
#define WALK_AGREES    (1ULL << 37)  /* found what the kernel returned */

static __always_inline __u64 walk_pack(const struct chain_walk *w)
{
	return w->walked | (w->hit ? WALK_HIT : 0) | (w->next_null ? WALK_NEXT_NULL : 0) |
	       (w->truncated ? WALK_TRUNCATED : 0) | (w->fault ? WALK_FAULT : 0);
}

/*
 * Account one lookup from its packed walk and verdict bits.
 *
 * A global (not inlined) function: the verifier checks it once, on its
 * own, instead of once for each of the up to PFT_MAX_WALK places the
 * walk can end, which blew its 1M-instruction budget on the dcache.
 * Global functions take scalars only (5.10), hence the packing.
 */
__noinline int account_walk(__u64 packed)
{
	struct chain_stats *s = stats_slot();
	__u32 walked = (__u32)packed;

	if (!s)
		return 0;
	stat_add(s->lookups, 1);
	if (packed & KERNEL_FOUND)
		stat_add(s->hits, 1);
	else
		stat_add(s->misses, 1);

	if (packed & WALK_FAULT) {
		stat_add(s->read_faults, 1);
		return 0;
	}
	if (packed & WALK_TRUNCATED) {
		stat_add(s->truncated, 1);
		return 0;
	}
	stat_add(s->nodes_walked, walked);
	hist_bump(s->chain_walked_hist, walked);
	if (packed & WALK_HIT) {
		stat_add(s->walk_hits, 1);
		hist_bump(s->hit_pos_hist, walked);
		if (packed & WALK_NEXT_NULL)
			stat_add(s->next_null_at_hit, 1);
	} else {
		stat_add(s->walk_misses, 1);
		if (walked == 0)
			stat_add(s->walk_empty, 1);
	}
	if (packed & WALK_AGREES)
		stat_add(s->self_agree, 1);
	else
		stat_add(s->self_disagree, 1);
	return 0;
}

/*
 * Account one lookup: the kernel's verdict (kernel_found != 0 means it
 * found the key) and our walk's view, whose found node must be the same
 * object (walk_entry is the walk's node converted to the entry address
 * the kernel returns).
 */
static __always_inline void account_lookup(const struct chain_walk *w,
					   __u64 walk_entry, __u64 kernel_found)
{
	__u64 packed = walk_pack(w);

	if (kernel_found)
		packed |= KERNEL_FOUND;
	if ((w->hit ? walk_entry : 0) == kernel_found)
		packed |= WALK_AGREES;
	account_walk(packed);
}

/*
 * kprobe + kretprobe: the walk runs at entry (the state the kernel is
 * about to walk) and is accounted at return, when the verdict is known.
 */
struct pending_walk {
	struct chain_walk walk;
	__u64 entry;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct pending_walk);
} pending_walks SEC(".maps");

static __always_inline void stash_walk(const struct chain_walk *w, __u64 entry)
{
	__u64 tid = bpf_get_current_pid_tgid();
	struct pending_walk p = { .walk = *w, .entry = entry };
	struct chain_stats *s;

	if (bpf_map_update_elem(&pending_walks, &tid, &p, BPF_ANY)) {
		s = stats_slot();
		if (s)
			stat_add(s->lost, 1);
	}
}

static __always_inline void account_stashed(__u64 kernel_found)
{
	__u64 tid = bpf_get_current_pid_tgid();
	struct pending_walk *p;

	if (walk_config.walk_off)
		return;
	p = bpf_map_lookup_elem(&pending_walks, &tid);
	if (!p)
		return; /* call not sampled, or entry state lost (counted) */
	account_lookup(&p->walk, p->entry, kernel_found);
	bpf_map_delete_elem(&pending_walks, &tid);
}

#endif /* WALK_BPF_H */
