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

#define DCACHE_OP_COMPARE_FLAG 0x2  /* DCACHE_OP_COMPARE, 2.6.38 to 6.19 */

struct dentry_key {
	__u64 parent;
	__u64 hash_len;   /* qstr.hash_len: hash in the low 32 bits, length above */
	__u64 hash_mask;  /* which bits of hash_len must match */
};

#define D_OFF(field) bpf_core_field_offset(struct dentry, field)
/* the window: d_hash (the list node) through d_name.hash_len */
#define D_LO (D_OFF(d_hash) & ~7U)
#define D_LEN (D_OFF(d_name.hash_len) + 8 - D_LO)
#define D_FIELD(win, member) NODE_FIELD(win, D_LO, struct dentry, member, __u64)

static bool __always_inline dentry_matches(const struct node_window *win, const void *key)
{
	const struct dentry_key *k = key;
	__u64 parent = D_FIELD(win, d_parent);
	__u64 pprev = D_FIELD(win, d_hash.pprev);
	__u64 hash_len = D_FIELD(win, d_name.hash_len);

	/* d_unhashed() is pprev == NULL: fold it in as "differs" */
	return ((parent ^ k->parent) | ((hash_len ^ k->hash_len) & k->hash_mask) |
		(((pprev | -pprev) >> 63) ^ 1)) == 0;
}

DEFINE_WALK_STEP(dentry_step, PFT_END_NULL, struct dentry, d_hash, D_LO, D_LEN, dentry_matches)

/* __ro_after_init: read on first use */
__u64 dentry_hashtable_cached;
__u32 d_hash_shift_cached;

/* d_hash_shift, and the table's size noted once, when first read */
static __always_inline __u32 dcache_shift(void)
{
	__u32 shift = d_hash_shift_cached;

	if (!shift) {
		shift = d_hash_shift_cached = kread_u32(d_hash_shift_addr);
		if (shift && shift < 32)
			note_table_slots(1ULL << (32 - shift));
	}
	return shift;
}

/* PARENT_KEY: parent as a plain integer (ARG_SCALAR() for fexit) */
static __always_inline void dcache_walk(bool lean, struct chain_walk *w, __u64 parent_key,
					__u64 parent, __u64 name, bool typed)
{
	struct dentry_key k = { .parent = parent_key };
	__u64 table = READ_ONCE_CACHED(dentry_hashtable_cached, dentry_hashtable_addr, kread_u64);
	__u32 shift = dcache_shift();
	__u64 first;

	/*
	 * hash and len apart, joined as hashlen_create() does: the
	 * verifier refuses a typed 8-byte load of the union's hash_len
	 * through a trusted pointer ("access beyond the end of member
	 * hash"), which cost the dcache its fexit on 5.10. One load
	 * through the direct build's untrusted view measured no faster,
	 * and the verifier walked 14% more (make bench, 2026-12-06).
	 */
	k.hash_len = (__u64)ARG_FIELD(typed, name, struct qstr, len) << 32 |
		     ARG_FIELD(typed, name, struct qstr, hash);
	k.hash_mask = ARG_FIELD(typed, parent, struct dentry, d_flags) & DCACHE_OP_COMPARE_FLAG ?
		      0xffffffffULL : ~0ULL;
	if (!table || shift == 0 || shift >= 32) {
		walk_faulted(w);
		return;
	}
	kload_u64(table + ((__u32)k.hash_len >> shift) * sizeof(struct hlist_bl_head), &first);
	walk_chain(w, first & ~1ULL, PFT_END_NULL, D_OFF(d_hash), dentry_step, &k, sizeof(k));
	count_key(lean, k.hash_len, 0, w);
}

static __always_inline int dcache_exit(bool lean, __u64 parent_key, __u64 parent, __u64 name,
				       __u64 ret)
{
	__u64 now = lat_now(lean);   /* first: the call's time ends here */
	struct chain_walk w;

	if (!sample_this_call(lean))
		return 0;
	dcache_walk(lean, &w, parent_key, parent, name, true);
	account_lookup_at(lean, &w, ret, now);
	return 0;
}

static __always_inline int dcache_entry(__u64 parent, __u64 name)
{
	struct chain_walk w;

	if (!sample_this_call(false))
		return 0;
	dcache_walk(false, &w, parent, parent, name, false);
	stash_walk(&w);
	lat_enter();
	return 0;
}

/* __d_lookup_rcu(parent, name, seqp): RCU path walk */
SEC("fexit/__d_lookup_rcu")
int BPF_PROG(fexit_d_lookup_rcu_3, __u64 parent, __u64 name, __u64 seqp, __u64 ret)
{
	return WALK_AS_CONFIGURED(dcache_exit, ARG_SCALAR(ctx, 0, parent), parent, name, ret);
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
int BPF_PROG(fexit_d_lookup_2, __u64 parent, __u64 name, __u64 ret)
{
	return WALK_AS_CONFIGURED(dcache_exit, ARG_SCALAR(ctx, 0, parent), parent, name, ret);
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
