// SPDX-License-Identifier: GPL-2.0
/*
 * Recipe: the dentry cache hash (dcache), the table behind every path
 * component lookup.
 *
 * Mirrors fs/dcache.c: d_hash() picks
 *   dentry_hashtable + (name->hash >> d_hash_shift)
 * and __d_lookup_rcu() (RCU path walk) or __d_lookup() (ref walk) follow
 * that hlist_bl chain comparing d_parent, d_unhashed(), the name's hash
 * and length, then the name. Checked on Debian's 5.10, 6.1, 6.12, 6.19.
 *
 * hlist_bl keeps a lock in bit 0 of the head pointer: it is masked off.
 * From 6.11 d_hash() uses runtime constants, but dentry_hashtable and
 * d_hash_shift still hold the values (marked __used for debuggers).
 * The name bytes are not compared: parent, hash and length already pin
 * a dentry down, and a same-length 32-bit hash collision under one
 * parent would show up in the self-check. Parents with DCACHE_OP_COMPARE
 * (case-insensitive names) are matched on parent and hash, as
 * __d_lookup_rcu_op_compare() does before calling d_compare().
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "walk.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 dentry_hashtable_addr = 0;  /* &dentry_hashtable */
const volatile __u64 d_hash_shift_addr = 0;      /* &d_hash_shift */

#define DCACHE_OP_COMPARE_FLAG 0x2  /* DCACHE_OP_COMPARE, 2.6.38 to 7.2 */

struct dentry_key {
	/*
	 * A plain integer, or in the direct build's fexit programs the
	 * typed argument itself (dcache_walk()): the matcher only compares
	 * it, which the verifier allows a program with CAP_PERFMON, and
	 * the conversion (ARG_SCALAR()) cost a cast and a checked load,
	 * 7 guest ns a call (6.12 -icount).
	 */
	__u64 parent;
	__u64 hash_len;   /* qstr.hash_len: hash in the low 32 bits, length above */
};

#define D_OFF(field) bpf_core_field_offset(struct dentry, field)
/* the window: d_hash (the list node) through d_name.hash_len */
#define D_LO (D_OFF(d_hash) & ~7U)
#define D_LEN (D_OFF(d_name.hash_len) + 8 - D_LO)
#define D_FIELD(win, member) NODE_FIELD(win, D_LO, struct dentry, member, __u64)

/*
 * Whether PARENT (typed, or a plain integer) compares its children's names itself
 * (DCACHE_OP_COMPARE: case-insensitive names, for one). Read only for a
 * node of the same parent and hash but another length, where the
 * answer decides the match. Read at every call, it would cost a
 * dcache call 22 guest ns more (6.12 -icount).
 */
static bool __always_inline parent_compares_names(__u64 parent)
{
#ifdef PFT_DIRECT_LOADS
	return NODE_FIELD(KERNEL_VIEW(parent), 0, struct dentry, d_flags, __u32) &
	       DCACHE_OP_COMPARE_FLAG;
#else
	return kread_u32(parent + D_OFF(d_flags)) & DCACHE_OP_COMPARE_FLAG;
#endif
}

/* __d_lookup_rcu()'s tests, in its order (a compare, not a XOR, on the parent: see struct dentry_key) */
static bool __always_inline dentry_matches(const struct node_window *win, const void *key)
{
	const struct dentry_key *k = key;
	__u64 hash_len;

	if (D_FIELD(win, d_parent) != k->parent)
		return false;
	/*
	 * d_unhashed() (pprev == NULL) is read only at a node that would
	 * match: a node of another name costs no load of it.
	 */
	hash_len = D_FIELD(win, d_name.hash_len) ^ k->hash_len;
	if (hash_len == 0)
		return D_FIELD(win, d_hash.pprev) != 0;
	/* a parent that compares names itself matches on the hash alone */
	return (__u32)hash_len == 0 && D_FIELD(win, d_hash.pprev) != 0 &&
	       parent_compares_names(k->parent);
}

DEFINE_WALK_STEP(dentry_step, PFT_END_NULL, struct dentry, d_hash, D_LO, D_LEN, dentry_matches)

/*
 * dentry_hashtable | d_hash_shift, both __ro_after_init: read on first
 * use, and kept in one word, so that a call loads one value and no CPU
 * can see the table without its shift. The table is at least cache-line
 * aligned (alloc_large_system_hash()), which leaves the low 5 bits to
 * the shift; a table that is not is refused, and its walks fault.
 */
__u64 dcache_table_shift;
#define DCACHE_SHIFT_BITS 31ULL

/*
 * dentry_hashtable | d_hash_shift (dcache_table_shift): read and
 * checked once, when the table's size is noted too; 0 while unreadable.
 */
static __always_inline __u64 dcache_table(void)
{
	__u64 cached = dcache_table_shift;
	__u64 table;
	__u32 s;

	if (!cached) {
		s = kread_u32(d_hash_shift_addr);
		table = kread_u64(dentry_hashtable_addr);
		if (!table || (table & DCACHE_SHIFT_BITS) || s == 0 || s >= 32)
			return 0;
		note_table_slots(1ULL << (32 - s));
		cached = table | s;
		dcache_table_shift = cached;
	}
	return cached;
}

/* PARENT_KEY: the parent (struct dentry_key); NAME typed when TYPED */
static __always_inline void dcache_key(struct dentry_key *k, __u64 parent_key, __u64 name,
				       bool typed)
{
	k->parent = parent_key;
	/*
	 * The verifier refuses a typed 8-byte load of the union's hash_len
	 * ("access beyond the end of member hash": 5.10, and still 6.x for
	 * a trusted pointer), which once cost the dcache its fexit on 5.10.
	 * The direct-load build reads it through its untrusted view, one
	 * load (9 guest ns a call less than two, 6.12 -icount); else hash
	 * and len apart, joined as hashlen_create() does.
	 */
#ifdef PFT_DIRECT_LOADS
	if (typed)
		k->hash_len = NODE_FIELD(KERNEL_VIEW(name), 0, struct qstr, hash_len, __u64);
	else
#endif
		k->hash_len = (__u64)ARG_FIELD(typed, name, struct qstr, len) << 32 |
			      ARG_FIELD(typed, name, struct qstr, hash);
}

/* TYPED: K's parent is a typed pointer (struct dentry_key) */
static __always_inline void dcache_walk(struct chain_walk *w, const struct dentry_key *k,
					bool typed)
{
	__u64 table = dcache_table(), first;

	if (!table) {
		walk_faulted(w);
		return;
	}
	kload_u64((table & ~DCACHE_SHIFT_BITS) +
		  ((__u32)k->hash_len >> (table & DCACHE_SHIFT_BITS)) * sizeof(struct hlist_bl_head),
		  &first);
	if (typed)
		walk_chain_typed_key0(w, first & ~1ULL, PFT_END_NULL, D_OFF(d_hash), dentry_step,
				      k, sizeof(*k));
	else
		walk_chain(w, first & ~1ULL, PFT_END_NULL, D_OFF(d_hash), dentry_step, k,
			   sizeof(*k));
}

/* PARENT: typed (the direct build), or a plain integer */
static __always_inline int dcache_exit(enum pft_body body, __u64 parent, __u64 name, __u64 ret)
{
	__u64 now = lat_now(body);   /* first: the call's time ends here */
	struct dentry_key k;
	struct chain_walk w;

	if (!sample_this_call(body))
		return 0;
	dcache_key(&k, parent, name, true);
#ifdef PFT_DIRECT_LOADS
	dcache_walk(&w, &k, true);
#else
	dcache_walk(&w, &k, false);
#endif
	count_key(body, k.hash_len, 0, &w);
	account_lookup_at(body, &w, ret, now);
	return 0;
}

static __always_inline int dcache_entry(__u64 parent, __u64 name)
{
	struct dentry_key k;
	struct chain_walk w;

	if (!sample_this_call(PFT_BODY_SETTINGS))
		return 0;
	dcache_key(&k, parent, name, false);
	dcache_walk(&w, &k, false);
	count_key(PFT_BODY_SETTINGS, k.hash_len, 0, &w);
	stash_walk(&w);
	lat_enter();
	return 0;
}

/* __d_lookup_rcu(parent, name, seqp): RCU path walk */
SEC("fexit/__d_lookup_rcu")
int WALK_EXIT_PROG(fexit_d_lookup_rcu_3, __u64 parent, __u64 name, __u64 seqp, __u64 ret)
{
#ifdef PFT_DIRECT_LOADS
	return dcache_exit(body, parent, name, ret);
#else
	return dcache_exit(body, ARG_SCALAR(ctx, 0, parent), name, ret);
#endif
}

SEC("fentry/__d_lookup_rcu")
int BPF_PROG(fentry_d_lookup_rcu)
{
	lat_enter();
	return 0;
}

SEC("kprobe/__d_lookup_rcu")
int BPF_KPROBE(kprobe_d_lookup_rcu, __u64 parent, __u64 name)
{
	return dcache_entry(parent, name);
}

SEC("kretprobe/__d_lookup_rcu")
int BPF_KRETPROBE(kretprobe_d_lookup_rcu, __u64 ret)
{
	account_stashed(ret);
	return 0;
}

/* __d_lookup(parent, name): ref walk, when RCU walk had to give up */
SEC("fexit/__d_lookup")
int WALK_EXIT_PROG(fexit_d_lookup_2, __u64 parent, __u64 name, __u64 ret)
{
#ifdef PFT_DIRECT_LOADS
	return dcache_exit(body, parent, name, ret);
#else
	return dcache_exit(body, ARG_SCALAR(ctx, 0, parent), name, ret);
#endif
}

SEC("fentry/__d_lookup")
int BPF_PROG(fentry_d_lookup)
{
	lat_enter();
	return 0;
}

SEC("kprobe/__d_lookup")
int BPF_KPROBE(kprobe_d_lookup, __u64 parent, __u64 name)
{
	return dcache_entry(parent, name);
}

SEC("kretprobe/__d_lookup")
int BPF_KRETPROBE(kretprobe_d_lookup, __u64 ret)
{
	account_stashed(ret);
	return 0;
}

/* The whole table, for snapshots: dentry_hashtable[1 << (32 - d_hash_shift)] */
#define SNAP_LINK D_OFF(d_hash)
#define SNAP_END PFT_END_NULL

static __always_inline int snap_locate(struct snap_state *st)
{
	__u32 shift = kread_u32(d_hash_shift_addr);

	if (!dentry_hashtable_addr || !shift || shift >= 32)
		return -1;
	st->table = kread_u64(dentry_hashtable_addr);
	st->slots = 1ULL << (32 - shift);
	st->stride = sizeof(struct hlist_bl_head);
	return 0;
}

/* hlist_bl: bit 0 of the head is the bucket's lock */
static __always_inline __u64 snap_first(__u64 head)
{
	return head & ~1ULL;
}

/* k0: d_name.hash_len (the 32-bit name hash the bucket comes from, and the length) */
static __always_inline void snap_key_of(__u64 entry, struct snap_key *k)
{
	k->k0 = kread_u64(entry + D_OFF(d_name.hash_len));
	k->k1 = 0;
}

#include "snapshot.bpf.h"
