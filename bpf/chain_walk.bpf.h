/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The chain walk every recipe shares: follow a hash bucket the way the
 * kernel's iterator does, bounded, one node per call of the recipe's
 * step (DEFINE_WALK_STEP). A recipe supplies the first node of the
 * bucket, where in an entry its list node and key fields lie, and a
 * function that says whether an entry holds the wanted key.
 */
#ifndef CHAIN_WALK_BPF_H
#define CHAIN_WALK_BPF_H

#include "counters.bpf.h"
#include "kread.bpf.h"

static __always_inline bool chain_at_end(__u64 pos, enum pft_chain_end end)
{
	/* hlist_nulls chains end in an odd marker that encodes the bucket */
	if (end == PFT_END_NULLS)
		return pos & 1;
	return pos == 0;
}

typedef bool (*node_match_fn)(const struct node_window *win, const void *key);
/* a node's next pointer, from its window (DEFINE_WALK_STEP) */
typedef __u64 (*node_next_fn)(const struct node_window *win);

/* a step's result, and a kernel address, by its top two bits */
#define STEP_TAG(v) ((v) >> 62)
#define STEP_HIT (1ULL << 62)
#define STEP_FAULT (2ULL << 62)

/*
 * One node of a chain, in a global function of its recipe (see
 * DEFINE_WALK_STEP): the verifier checks a global function once, so a
 * walk of PFT_MAX_WALK steps costs it a call per step instead of the
 * whole window read and match again at every step (127,013 instructions
 * verified for the dcache on 6.12, 516 ms of start-up under QEMU).
 *
 * The result is one tagged word: the next pointer (a kernel address, top
 * bits 11) or the chain's end (0, or a nulls marker: top bits 00) when
 * the entry does not match; STEP_HIT, with bit 0 set when the hit node
 * was the last, when it does; STEP_FAULT (the probe-read build's) when
 * the window is unreadable or its next pointer is neither an end nor a
 * kernel address.
 */

/* What the visit of one node found, and so how a walk ends. */
enum node_kind {
	NODE_NEXT,          /* no match: the walk goes on to the next node */
	NODE_END,           /* no match, and the chain ends here */
	NODE_HIT,           /* a match, with nodes after it */
	NODE_HIT_LAST,      /* a match on the chain's last node */
	NODE_FAULT,         /* (probe reads) unreadable, or a next neither an end nor a kernel address */
	NODE_TRUNCATED,     /* (a walk only) PFT_MAX_WALK nodes, and the chain goes on */
};

#ifdef PFT_DIRECT_LOADS
/*
 * Whether NEXT ends the chain, in the direct build: a next pointer that
 * is no kernel address does, as an unreadable entry does (KERNEL_VIEW),
 * so that a step's tagged word never carries one. NULL is one. In a
 * nulls list a 0 can only be an unreadable next; it ends the walk as a
 * miss, which the self-check shows.
 */
static __always_inline bool direct_chain_end(__u64 next, enum pft_chain_end end)
{
	/* a nulls marker (the bucket's number, shifted, and bit 0) is one too */
	return STEP_TAG(next) != 3;
}
#endif

/* A node from its window WIN: its kind, and in *NEXT its next pointer. */
static __always_inline enum node_kind node_visit(const struct node_window *win,
						 enum pft_chain_end end, __u32 link, __u32 lo,
						 node_next_fn next_of, node_match_fn match,
						 const void *key, __u64 *next)
{
	bool last;

#ifdef PFT_DIRECT_LOADS
	*next = next_of(win);
	last = direct_chain_end(*next, end);
#else
	/* the list node's offset, which the step has already: next is its first member */
	*next = WIN(win, lo, __u64, link);
	if (!chain_at_end(*next, end) && STEP_TAG(*next) != 3)
		return NODE_FAULT;
	last = chain_at_end(*next, end);
#endif
	if (match(win, key))
		return last ? NODE_HIT_LAST : NODE_HIT;
	return last ? NODE_END : NODE_NEXT;
}

/* A visit as the tagged word a step returns, and back. */
static __always_inline __u64 step_word(enum node_kind kind, __u64 next)
{
	if (kind == NODE_FAULT)
		return STEP_FAULT;
	if (kind == NODE_HIT || kind == NODE_HIT_LAST)
		return STEP_HIT | (kind == NODE_HIT_LAST);
	return next;   /* a kernel address (top bits 11), or the chain's end (00) */
}

static __always_inline enum node_kind step_kind(__u64 v)
{
	switch (STEP_TAG(v)) {
	case 1:
		return v & 1 ? NODE_HIT_LAST : NODE_HIT;
	case 2:
		return NODE_FAULT;
	case 3:
		return NODE_NEXT;
	default:
		return NODE_END;
	}
}

#ifdef PFT_DIRECT_LOADS
/*
 * A node by direct loads: the window is the entry itself, each field
 * one load (a copy to the stack first would cost a load, a store
 * and a compare per word), and nothing is put on the stack. The view starts
 * at the entry, so that a field's offset in the load is its offset in
 * the entry (NODE_FIELD).
 */
static __always_inline enum node_kind visit_direct(__u64 pos, enum pft_chain_end end,
						   __u32 link, node_next_fn next_of,
						   node_match_fn match, const void *key,
						   __u64 *next)
{
	return node_visit((const struct node_window *)KERNEL_VIEW(pos - link), end, link, 0,
			  next_of, match, key, next);
}
#endif

static __always_inline __u64 walk_step(__u64 pos, enum pft_chain_end end, __u32 link, __u32 lo,
				       __u32 len, node_next_fn next_of, node_match_fn match,
				       const void *key)
{
#ifdef PFT_DIRECT_LOADS
	/* the tagged word built at once: by way of a node_kind costs ~10 instructions more */
	const struct node_window *win = (const struct node_window *)KERNEL_VIEW(pos - link);
	__u64 next = next_of(win);
	bool last = direct_chain_end(next, end);

	if (match(win, key))
		return STEP_HIT | last;
	return last ? 0 : next;
#else
	enum node_kind kind;
	__u64 next = 0;
	struct node_window copy;

	if (len > PFT_WINDOW_BYTES)
		len = PFT_WINDOW_BYTES;
	if (bpf_probe_read_kernel(&copy, len, (void *)(pos - link + lo)))
		return STEP_FAULT;
	kind = node_visit(&copy, end, link, lo, next_of, match, key, &next);
	return step_word(kind, next);
#endif
}

typedef __u64 (*walk_step_fn)(__u64 pos, __u64 k0, __u64 k1, __u64 k2);

/* The walk's outcome: KIND, of its Nth node, at POS. */
static __always_inline void walk_end(struct chain_walk *w, enum node_kind kind, __u64 pos,
				     __u32 n, __u32 link)
{
	switch (kind) {
	case NODE_HIT:
	case NODE_HIT_LAST:
		w->found = pos - link;
		w->result = kind == NODE_HIT_LAST ? WALK_RESULT(WALK_HIT | WALK_NEXT_NULL, n) :
						    WALK_RESULT(WALK_HIT, n);
		break;
	case NODE_FAULT:
		w->result = WALK_RESULT(WALK_FAULT, n);
		break;
	case NODE_TRUNCATED:
		w->result = WALK_RESULT(WALK_TRUNCATED, n);
		break;
	default:
		w->result = WALK_RESULT(0, n);
	}
}

/*
 * The first node of a walk, and the walk's outcome where it ends there:
 * true, with *NEXT, when the walk goes on. Most chains are a node or
 * two long, and a call to a global function costs its prologue and
 * epilogue (about 20 instructions on x86): where the direct loads
 * serve, the first node is visited inline, and the verifier checks that
 * copy once, before the loop. Inline, its kind is a constant at each
 * place the visit decides it, and a hit there becomes the result word
 * directly, not by way of a step's tagged word. The probe-read build
 * calls the step: its 256-byte window on the caller's stack as well
 * would pass BPF's 512 bytes for a call chain.
 */
static __always_inline bool walk_first_step(struct chain_walk *w, __u64 pos,
					    enum pft_chain_end end, __u32 link,
					    node_next_fn next_of, node_match_fn match,
					    walk_step_fn step, const __u64 *kw, __u64 *next)
{
	enum node_kind kind;

#ifdef PFT_DIRECT_LOADS
	kind = visit_direct(pos, end, link, next_of, match, kw, next);
#else
	*next = step(pos, kw[0], kw[1], kw[2]);
	kind = step_kind(*next);
#endif
	if (kind == NODE_NEXT)
		return true;
	walk_end(w, kind, pos, 1, link);
	return false;
}

/*
 * A recipe's step: NAME(pos, k0, k1, k2), its key passed as three words
 * (every recipe's key fits in 24 bytes), scalars only so that 5.10's
 * verifier takes it, and NAME_first() for a walk's first node.
 * Its entries are struct T, chained by their list node NODE (whose next
 * pointer is its first member, whatever the list's kind); the window
 * the probe-read build copies is LEN bytes from the entry's offset LO.
 * lo and len are CO-RE constants of the recipe.
 */
#define DEFINE_WALK_STEP(name, end, T, node, lo, len, match)			\
static __always_inline __u64 name##_next(const struct node_window *win)	\
{										\
	return NODE_FIELD(win, lo, T, node.next, __u64);			\
}										\
__noinline __u64 name(__u64 pos, __u64 k0, __u64 k1, __u64 k2)			\
{										\
	__u64 kw[3] = { k0, k1, k2 };						\
										\
	return walk_step(pos, end, bpf_core_field_offset(T, node), lo, len,	\
			 name##_next, match, kw);				\
}										\
static __always_inline bool name##_first(struct chain_walk *w, __u64 pos,	\
					 const __u64 *kw, __u64 *next)		\
{										\
	return walk_first_step(w, pos, end, bpf_core_field_offset(T, node),	\
			       name##_next, match, name, kw, next);		\
}

typedef bool (*walk_first_fn)(struct chain_walk *w, __u64 pos, const __u64 *kw, __u64 *next);

/*
 * hlist_node, hlist_bl_node and hlist_nulls_node all keep their "next"
 * pointer as the first member: one walk serves the three list kinds.
 * link is the list node's offset in the entry, STEP the recipe's step
 * (DEFINE_WALK_STEP) and KEY, KEYLEN bytes, what it looks for.
 */
#define walk_chain(w, first, end, link, step, key, keylen) \
	walk_chain_steps(w, first, end, link, step##_first, step, key, keylen, false)

/*
 * The same, where the key's first word is a typed pointer (an fexit
 * argument, which the matcher only compares): the first node takes it
 * as it is, and the steps, which take plain integers only, a copy
 * (typed_as_scalar()), which only a walk that goes on past its first
 * node (a few in a hundred) pays.
 */
#define walk_chain_typed_key0(w, first, end, link, step, key, keylen) \
	walk_chain_steps(w, first, end, link, step##_first, step, key, keylen, true)

static __always_inline void walk_chain_steps(struct chain_walk *w, __u64 first,
					     enum pft_chain_end end, __u32 link,
					     walk_first_fn step_first, walk_step_fn step,
					     const void *key, __u32 keylen, bool typed_key0)
{
	__u64 kw[3] = {}, pos = first, v;
	__u32 n;

	w->found = 0;
	w->owner = 0;
	if (chain_at_end(pos, end)) {
		w->result = 0;
		return;
	}
	__builtin_memcpy(kw, key, keylen <= sizeof(kw) ? keylen : sizeof(kw));
	if (!step_first(w, pos, kw, &v))
		return;
	if (typed_key0)
		kw[0] = typed_as_scalar(kw[0]);
	/*
	 * n: the nodes visited, the one V is the verdict on included. A
	 * verdict is a next node while its top bits are 11. The loop keeps
	 * its test in the usual place: 5.10's verifier refuses a loop the
	 * compiler closes by falling through into its head.
	 */
	for (n = 1; n < PFT_MAX_WALK && STEP_TAG(v) == 3; n++) {
		pos = v;
		v = step(pos, kw[0], kw[1], kw[2]);
	}
	/* a next node still to visit: the walk gave up */
	walk_end(w, STEP_TAG(v) == 3 ? NODE_TRUNCATED : step_kind(v), pos, n, link);
}

#endif /* CHAIN_WALK_BPF_H */
