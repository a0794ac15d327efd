// SPDX-License-Identifier: GPL-2.0
/*
 * Recipe: the inode cache hash, searched by inode number.
 *
 * Mirrors fs/inode.c: find_inode_fast(sb, head, ino, ...) walks the
 * hlist at head (the caller, iget_locked() or ilookup(), hashed the
 * inode number already) comparing i_ino, then i_sb. The bucket is an
 * argument, so no hash is recomputed. Parameters: 3 on 5.10 and 6.1,
 * 4 on 6.12 (is_inode_hash_locked), 5 on 6.19 (isnew); Debian's four
 * kernels checked. The function returns the inode, NULL, or (6.x, for
 * an inode still being created) ERR_PTR(-ESTALE): that is a hit too.
 * The inode hash table (inode_hashtable, i_hash_shift) is read only to
 * report its size.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "walk.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 i_hash_shift_addr = 0;
const volatile __u64 inode_hashtable_addr = 0;   /* for snapshots */

#define MAX_ERRNO 4095

struct inode_key {
	__u64 sb;
	__u64 ino;
};

#define I_OFF(field) bpf_core_field_offset(struct inode, field)
/* the window: i_sb through i_hash (40 to 224 on the kernels checked) */
#define I_LO (I_OFF(i_sb) & ~7U)
#define I_LEN (I_OFF(i_hash) + 8 - I_LO)

static bool __always_inline inode_matches(const struct node_window *win, const void *key)
{
	const struct inode_key *k = key;

	/* one branch, not two: keeps the verifier's loop walk linear */
	return ((NODE_FIELD(win, I_LO, struct inode, i_ino, __u64) ^ k->ino) |
		(NODE_FIELD(win, I_LO, struct inode, i_sb, __u64) ^ k->sb)) == 0;
}

DEFINE_WALK_STEP(inode_step, PFT_END_NULL, struct inode, i_hash, I_LO, I_LEN, inode_matches)

__u32 i_hash_shift_cached;   /* __ro_after_init: read on first use */

/* the table's size, from i_hash_shift: noted once, when first read */
static __always_inline void inode_note_slots(void)
{
	__u32 shift;

	if (i_hash_shift_cached)
		return;
	shift = i_hash_shift_cached = kread_u32(i_hash_shift_addr);
	if (shift && shift < 32)
		note_table_slots(1ULL << shift);
}

/* SB: a plain integer (ARG_SCALAR() for fexit); HEAD typed when TYPED */
static __always_inline void inode_walk(enum pft_body body, struct chain_walk *w, __u64 sb,
				       __u64 head, __u64 ino, bool typed)
{
	struct inode_key k = { .sb = sb, .ino = ino };

	inode_note_slots();
	walk_chain(w, (__u64)ARG_FIELD(typed, head, struct hlist_head, first), PFT_END_NULL,
		   I_OFF(i_hash), inode_step, &k, sizeof(k));
	count_key(body, k.sb, k.ino, w);
}

/* the kernel's verdict: an error pointer (-ESTALE) is a found inode too */
static __always_inline __u64 inode_found(__u64 ret, const struct chain_walk *w)
{
	if (ret >= (__u64)-MAX_ERRNO)
		return w->found ? w->found : ret;
	return ret;
}

static __always_inline int inode_exit(enum pft_body body, __u64 sb, __u64 head, __u64 ino,
				      __u64 ret)
{
	__u64 now = lat_now(body);   /* first: the call's time ends here */
	struct chain_walk w;

	if (!sample_this_call(body))
		return 0;
	inode_walk(body, &w, sb, head, ino, true);
	account_lookup_at(body, &w, inode_found(ret, &w), now);
	return 0;
}

SEC("fexit/find_inode_fast")
int WALK_EXIT_PROG(fexit_find_inode_fast_3, __u64 sb, __u64 head, __u64 ino, __u64 ret)
{
	return inode_exit(body, ARG_SCALAR(ctx, 0, sb), head, ino, ret);
}

SEC("fexit/find_inode_fast")
int WALK_EXIT_PROG(fexit_find_inode_fast_4, __u64 sb, __u64 head, __u64 ino, __u64 locked,
		   __u64 ret)
{
	return inode_exit(body, ARG_SCALAR(ctx, 0, sb), head, ino, ret);
}

SEC("fexit/find_inode_fast")
int WALK_EXIT_PROG(fexit_find_inode_fast_5, __u64 sb, __u64 head, __u64 ino, __u64 locked,
		   __u64 isnew, __u64 ret)
{
	return inode_exit(body, ARG_SCALAR(ctx, 0, sb), head, ino, ret);
}

SEC("fentry/find_inode_fast")
int BPF_PROG(fentry_find_inode_fast)
{
	lat_enter();
	return 0;
}

SEC("kprobe/find_inode_fast")
int BPF_KPROBE(kprobe_find_inode_fast, __u64 sb, __u64 head, __u64 ino)
{
	struct chain_walk w;

	if (!sample_this_call(PFT_BODY_SETTINGS))
		return 0;
	inode_walk(PFT_BODY_SETTINGS, &w, sb, head, ino, false);
	stash_walk(&w);
	lat_enter();
	return 0;
}

SEC("kretprobe/find_inode_fast")
int BPF_KRETPROBE(kretprobe_find_inode_fast, __u64 ret)
{
	__u64 now = lat_now(PFT_BODY_SETTINGS);
	struct chain_walk *w;
	__u64 tid;

	w = stashed_walk(&tid);
	if (!w)
		return 0;
	account_lookup_at(PFT_BODY_SETTINGS, w, inode_found(ret, w), now);
	bpf_map_delete_elem(&pending_walks, &tid);
	return 0;
}

/* The whole table, for snapshots: inode_hashtable[1 << i_hash_shift] */
#define SNAP_LINK I_OFF(i_hash)
#define SNAP_END PFT_END_NULL

static __always_inline int snap_locate(struct snap_state *st)
{
	__u32 shift = kread_u32(i_hash_shift_addr);

	if (!inode_hashtable_addr || !shift || shift >= 32)
		return -1;
	st->table = kread_u64(inode_hashtable_addr);
	st->slots = 1ULL << shift;
	st->stride = sizeof(struct hlist_head);
	return 0;
}

static __always_inline __u64 snap_first(__u64 head)
{
	return head;
}

/* k0: i_sb, k1: i_ino (hash(sb, ino) of fs/inode.c) */
static __always_inline void snap_key_of(__u64 entry, struct snap_key *k)
{
	k->k0 = kread_u64(entry + I_OFF(i_sb));
	k->k1 = kread_u64(entry + I_OFF(i_ino));
}

#include "snapshot.bpf.h"
