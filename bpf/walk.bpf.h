/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The chain walk every recipe shares: follow a hash bucket the way the
 * kernel's iterator does, bounded, and account one lookup into the
 * per-CPU agreed_walks and chain_counters maps. A recipe supplies the
 * first node of the bucket, where in an entry its list node and key
 * fields lie, and a function that says whether an entry holds the
 * wanted key.
 *
 * Cost matters here (every traced lookup pays it): each node costs one
 * probe read of a window holding both the next pointer and the fields
 * compared (or, on 6.2+ where NR_CPUS is 2048 or more, a direct load of
 * each of them), and a lookup whose walk agrees with the kernel one
 * per-CPU add; counts that can be derived (lookups, walk hits, nodes
 * walked, ...) are derived by the loader from these and the histograms.
 */
#ifndef WALK_BPF_H
#define WALK_BPF_H

#include "pftrace.h"

const volatile struct walk_config walk_config SEC(".rodata.walk") = {
	.sample_every = 1,
};
struct walk_output walk_output SEC(".data.walk");
/*
 * --sample N: the loader sets paused before it detaches the programs and
 * clears it once they are all attached again, so that the counts are of
 * exactly the time between, whatever the kernel does inside an attach
 * or a detach. A detach waits out an RCU-tasks grace period (ftrace's
 * unregister, ~100 ms and more), one target after another, and a
 * paused program costs only its trampoline meanwhile.
 */
struct walk_pause walk_pause SEC(".data.pause");

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
};

/* a walk that could not start: the bucket's head was unreadable */
static __always_inline void walk_faulted(struct chain_walk *w)
{
	w->found = 0;
	w->result = WALK_RESULT(WALK_FAULT, 0);
}

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
 * it, ahead of the test (it did, and the floor cost 4 to 12 guest ns a
 * call more). A body that needs the context itself after a call (a
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

static __always_inline struct chain_counters *stats_slot(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&chain_counters, &zero);
}

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

/* Count the call; true when this one is to be walked and accounted. */
static __always_inline bool sample_this_call(enum pft_body body)
{
	struct chain_counters *s;
	__u64 seen;

	/* the benchmark's floor: a program that attaches and does nothing */
	if (SETTING(body, walk_off))
		return false;
	if (PAUSABLE(body) && walk_pause.paused)
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

/*
 * FIELD of the TYPE object at PTR. fexit arguments are typed pointers
 * the program may load from directly (a plain load, fault-safe);
 * kprobe arguments are integers and need a helper call per read. TYPED
 * is a constant at each inlined call site, so only one form is emitted.
 */
#define ARG_FIELD(typed, ptr, type, field) \
	((typed) ? ((type *)(ptr))->field : BPF_CORE_READ((type *)(ptr), field))

/*
 * A __ro_after_init kernel global read once and kept: set before any
 * lookup can happen, never changed after. Racing first readers store
 * the same value.
 */
#define READ_ONCE_CACHED(cache, addr, readfn) \
	((cache) ? (cache) : ((cache) = readfn(addr)))

static __always_inline bool chain_at_end(__u64 pos, enum pft_chain_end end)
{
	/* hlist_nulls chains end in an odd marker that encodes the bucket */
	if (end == PFT_END_NULLS)
		return pos & 1;
	return pos == 0;
}

/*
 * The bytes of one entry the walk reads: [lo, lo + len) of the entry,
 * lo 8-aligned, holding the list node and every field the recipe
 * compares. 256 bytes cover the widest (the inode's, 40 to 224). The
 * probe-read build copies them to the stack; the direct-load build
 * reads each field from the entry itself. (PFT_WINDOW_BYTES: pftrace.h)
 */
struct node_window {
	__u64 qw[PFT_WINDOW_BYTES / 8];
};

/*
 * A field of the probe-read build's window (a copy on the stack from
 * the entry's offset LO), by its offset in the entry (CO-RE relocated).
 * The offset into the window is computed apart and pinned in a register:
 * the verifier allows adding a known scalar to the stack pointer, never
 * subtracting one from it.
 */
static __always_inline const void *win_at(const struct node_window *win, __u32 off, __u32 lo)
{
	__u64 d = (__u64)off - lo;

	barrier_var(d);
	return (const char *)win->qw + d;
}
#define WIN(win, lo, type, off) (*(const type *)win_at((win), (off), (lo)))

/*
 * MEMBER of struct T in a node's window, read as TYPE. The direct-load
 * build's window is the entry itself: there the read is a typed access,
 * which clang compiles to one load whose offset CO-RE relocates, where
 * an offset from bpf_core_field_offset() costs a move and an add before
 * every load (about 10 instructions per AVC node). The probe-read
 * build's window is a copy on the stack, from the entry's offset LO.
 */
#ifdef PFT_DIRECT_LOADS
#define NODE_FIELD(win, lo, T, member, type) (*(const type *)&((const T *)(win))->member)
#else
#define NODE_FIELD(win, lo, T, member, type) WIN(win, lo, type, bpf_core_field_offset(T, member))
#endif

typedef bool (*node_match_fn)(const struct node_window *win, const void *key);
/* a node's next pointer, from its window (DEFINE_WALK_STEP) */
typedef __u64 (*node_next_fn)(const struct node_window *win);

/* a step's result, and a kernel address, by its top two bits */
#define STEP_TAG(v) ((v) >> 62)
#define STEP_HIT (1ULL << 62)
#define STEP_FAULT (2ULL << 62)

#ifdef PFT_DIRECT_LOADS
/*
 * The direct-load build of a recipe (its *.direct.bpf.o), loaded for
 * fexit where the kernel has bpf_rdonly_cast() (6.2+) and its view
 * below holds a window (the loader reads both from BTF): the fields of
 * a node are plain loads, which the verifier makes fault-safe, instead
 * of a bpf_probe_read_kernel() call per node (bench/micro: 7.2 ns a
 * node for the call, 1.5 for the loads, on the build host).
 */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

/*
 * The kernel type an entry is loaded through: struct cpumask is one
 * array of longs, NR_CPUS bits (1 KB on Debian's kernels), and the
 * verifier takes a load of any width inside an array of integers, so
 * the fields (NODE_FIELD, typed as the entry's own struct in C, at the
 * entry's offsets) may be of any type. What the verifier checks is that
 * a load ends within the kernel's cpumask: a kernel whose cpumask is
 * smaller than PFT_WINDOW_BYTES (NR_CPUS under 2048) gets the
 * probe-read build (kernel_takes_direct_loads()), and one whose entry
 * puts a field further out than its cpumask reaches has the direct
 * build refused, and the loader starts over with probe reads. This
 * flavour names the words kload_u64() reads; CO-RE matches it to the
 * kernel's.
 */
struct cpumask___window {
	unsigned long bits[PFT_WINDOW_BYTES / 8];
};
#endif

#ifdef PFT_DIRECT_LOADS
/*
 * ADDR as a pointer the program loads from directly. The loads are
 * fault-safe, whatever the address: the JIT reads 0 from a user-space
 * one without touching it, and a load that faults reads 0 (an
 * exception-table entry), so a walk sees a chain's end there, and the
 * self-check, which compares each walk's result with the kernel's, is
 * what would show it. The direct build therefore tests no address
 * before a load (a test and its branch cost 4 x86 instructions a node)
 * and counts no read fault at a node: it cannot tell one. (A table
 * whose own address cannot be read still faults its walks.)
 */
#define KERNEL_VIEW(addr)							\
	((const struct cpumask___window *)bpf_rdonly_cast((void *)(addr),	\
		bpf_core_type_id_kernel(struct cpumask___window)))

/*
 * A typed pointer V as a plain integer: stored on the stack, and loaded
 * back through the untrusted view, whose load the verifier does not
 * follow to the stack. A cast and a checked load, where as_scalar()'s
 * probe read is a helper call (about 50 instructions more).
 */
static __always_inline __u64 typed_as_scalar(__u64 v)
{
	__u64 in = v;

	return KERNEL_VIEW(&in)->bits[0];
}
#else
#define typed_as_scalar(v) as_scalar(v)
#endif

/*
 * A bucket's head pointer, read once per walk: into *V, 0 or the probe
 * read's error. A direct load where the build has them (one helper call
 * less per lookup).
 */
static __always_inline long kload_u64(__u64 addr, __u64 *v)
{
#ifdef PFT_DIRECT_LOADS
	*v = KERNEL_VIEW(addr)->bits[0];
	return 0;
#else
	*v = 0;
	return bpf_probe_read_kernel(v, sizeof(*v), (void *)addr);
#endif
}

/*
 * An fexit program's pointer argument N (VALUE, BTF-typed) as a plain
 * integer for a key. The direct build loads it from the context itself
 * (the trampoline's saved arguments, an array of words) through an
 * untrusted view: a load the verifier allows at any offset, of a plain
 * integer, with no branch to double what the verifier walks after it.
 * bpf_get_func_arg(), which the verifier inlines, cost 17 instructions
 * a call; a pointer difference from a cached address cost 7 and a
 * branch that doubled the dcache's verification. The probe-read build
 * calls as_scalar().
 */
#ifdef PFT_DIRECT_LOADS
#define ARG_SCALAR(ctx, n, value) (KERNEL_VIEW(ctx)->bits[(n)])
#else
#define ARG_SCALAR(ctx, n, value) as_scalar(value)
#endif

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
 * one load (a copy to the stack first cost a load, a store and a
 * compare per word), and nothing is put on the stack. The view starts
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
	/* the tagged word built at once: by way of a node_kind it cost ~10 instructions more */
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

static __always_inline void hist_bump(__u32 plain, __u64 *hist, __u64 slot)
{
	if (slot > PFT_MAX_WALK)
		slot = PFT_MAX_WALK;
	stat_add_as(plain, hist[slot], 1);
}

/*
 * Account a lookup whose walk did not find what the kernel found
 * (account_agreed() takes the others), from its walk's result word and
 * the verdict bits account_lookup() adds: the kernel's verdict, then,
 * for a walk that completed, its length, hit position and the
 * disagreement. Lookups, walk hits and misses, nodes walked and
 * agreements follow from these and agreed_walks (the loader's
 * chain_counters_add_agreed()).
 *
 * A global (not inlined) function: the verifier checks it once, on its
 * own, instead of once for each of the up to PFT_MAX_WALK places the
 * walk can end (inlined, the AVC program took 179,410 instructions to
 * verify on 6.12, against 9,617: 720 ms more start-up under QEMU).
 */
__noinline int account_walk(__u64 packed)
{
	struct chain_counters *s = stats_slot();
	__u32 walked = WALK_NODES(packed);
	/*
	 * Read once (the flag is volatile): a read per add left a dead load
	 * behind each, once the verifier had dropped the branch not taken.
	 */
	const __u32 plain = walk_config.plain_adds;

	if (!s)
		return 0;
	if (packed & KERNEL_FOUND)
		stat_add_as(plain, s->hits, 1);
	else
		stat_add_as(plain, s->misses, 1);

	if (packed & WALK_FAULT) {
		stat_add_as(plain, s->read_faults, 1);
		return 0;
	}
	if (packed & WALK_TRUNCATED) {
		stat_add_as(plain, s->truncated, 1);
		return 0;
	}
	hist_bump(plain, s->chain_walked_hist, walked);
	if (packed & WALK_HIT) {
		hist_bump(plain, s->hit_pos_hist, walked);
		if (packed & WALK_NEXT_NULL)
			stat_add_as(plain, s->next_null_at_hit, 1);
	}
	/* completed, and not what the kernel found */
	stat_add_as(plain, s->self_disagree, 1);
	return 0;
}

/*
 * A lookup whose walk found what the kernel found: one add, inline, by
 * how the walk ended and the nodes it visited. Through a map key rather
 * than an index into a map value, which the verifier would track
 * exactly. The lookup of a per-CPU array is inlined where the JIT has
 * per-CPU instructions (6.10+ on x86); a helper call before.
 *
 * The key is the result word itself, stored whole: its low 32 bits, the
 * first four bytes on a little-endian machine, are WALK_KEY(). From
 * 6.14 the verifier tracks a constant key of an array's lookup exactly
 * (to drop the NULL check), and at each of the walk's exits the key is
 * a constant: tracked, the AVC's program took 32,369 instructions to
 * verify on 6.19 and 7.2, against 4,098 on 6.12. It tracks only a key
 * stored with the key's own size, so an 8-byte store is never tracked,
 * and costs nothing (an OR with a zero from .bss, which this replaced,
 * cost 3 x86 instructions a call).
 */
static __always_inline void account_agreed(enum pft_body body, __u64 result)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	__u64 key = result;
#else
	__u64 key = result << 32;
#endif
	__u64 *n = bpf_map_lookup_elem(&agreed_walks, &key);

	if (n)
		stat_add_as(SETTING(body, plain_adds), *n, 1);
}

/*
 * Account one lookup: the kernel's verdict (kernel_found != 0 means it
 * found the key) and our walk's view, whose found entry must be the
 * very object the kernel returned.
 */
/*
 * --by: the lookup's walk, charged to its comm, thread group or cgroup.
 * A bounded hash; a key that finds it full is counted as dropped.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);   /* PFT_BY_MAX with --by */
	__type(key, struct by_key);
	__type(value, struct by_counts);
} by_counts SEC(".maps");

/* A global function (verified once); PACKED as for account_walk(). */
__noinline int account_by(__u64 packed)
{
	struct by_key key = {};
	struct by_counts zero = {}, *c;
	struct chain_counters *s;

	if (walk_config.by == PFT_BY_COMM)
		bpf_get_current_comm(key.comm, sizeof(key.comm));
	else if (walk_config.by == PFT_BY_PID)
		key.id = bpf_get_current_pid_tgid() >> 32;
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

static __always_inline void account_lookup(enum pft_body body, const struct chain_walk *w,
					   __u64 kernel_found)
{
	/* the one test on the common path, and on values the verifier does not know */
	if (w->found == kernel_found)
		account_agreed(body, w->result);
	else
		account_walk(w->result | (kernel_found ? KERNEL_FOUND : 0));
	if (SETTING(body, by))
		account_by(w->result | (kernel_found ? KERNEL_FOUND : 0));
}

/*
 * Lookups by key, for whatif's weighting (--snapshot): a hash map whose
 * size the loader sets (1 entry when not counting). A key that finds
 * the map full is counted as dropped, never silently lost.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, struct snap_key);
	__type(value, struct key_hits);
} key_counts SEC(".maps");

/* A global function: verified once, and it takes scalars only (5.10). */
__noinline int count_key_walk(__u64 k0, __u64 k1, __u32 hit)
{
	struct snap_key key = { .k0 = k0, .k1 = k1 };
	struct key_hits zero = {}, *kh;
	struct chain_counters *s;

	kh = bpf_map_lookup_elem(&key_counts, &key);
	if (!kh) {
		/* EEXIST: another CPU inserted it first; look again */
		bpf_map_update_elem(&key_counts, &key, &zero, BPF_NOEXIST);
		kh = bpf_map_lookup_elem(&key_counts, &key);
	}
	if (!kh) {
		s = stats_slot();
		if (s)
			stat_add(s->keys_dropped, 1);
		return 0;
	}
	if (hit)
		shared_add(kh->hits, 1);
	else
		shared_add(kh->misses, 1);
	return 0;
}

static __always_inline void count_key(enum pft_body body, __u64 k0, __u64 k1,
				      const struct chain_walk *w)
{
	if (SETTING(body, count_keys) && !(w->result & (WALK_FAULT | WALK_TRUNCATED)))
		count_key_walk(k0, k1, (w->result & WALK_HIT) != 0);
}

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

#endif /* WALK_BPF_H */
