// SPDX-License-Identifier: GPL-2.0
/*
 * Recipe: the mount hash, asked "what is mounted on this dentry of this
 * mount?" at every mount point a path walk crosses.
 *
 * Mirrors fs/namespace.c: m_hash(mnt, dentry) folds the two pointers
 *   tmp = mnt / L1_CACHE_BYTES + dentry / L1_CACHE_BYTES
 *   tmp += tmp >> m_hash_shift
 *   bucket = mount_hashtable[tmp & m_hash_mask]
 * and __lookup_mnt() walks that hlist comparing &mnt_parent->mnt and
 * mnt_mountpoint. Checked on Debian's 5.10, 6.1, 6.12 and 6.19.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "walk.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 mount_hashtable_addr = 0;
const volatile __u64 m_hash_shift_addr = 0;
const volatile __u64 m_hash_mask_addr = 0;

#define L1_CACHE_BYTES 64   /* x86-64 */

struct mount_key {
	__u64 mnt;      /* struct vfsmount * */
	__u64 dentry;
};

#define M_OFF(field) bpf_core_field_offset(struct mount, field)
/* the window: mnt_hash (the list node) through mnt_mountpoint */
#define M_LO (M_OFF(mnt_hash) & ~7U)
#define M_LEN (M_OFF(mnt_mountpoint) + 8 - M_LO)

static bool __always_inline mount_matches(const struct node_window *win, const void *key)
{
	const struct mount_key *k = key;
	__u64 parent = NODE_FIELD(win, M_LO, struct mount, mnt_parent, __u64);

	/* one branch, not two: keeps the verifier's loop walk linear */
	return (((parent + M_OFF(mnt)) ^ k->mnt) |
		(NODE_FIELD(win, M_LO, struct mount, mnt_mountpoint, __u64) ^ k->dentry)) == 0;
}

DEFINE_WALK_STEP(mount_step, PFT_END_NULL, struct mount, mnt_hash, M_LO, M_LEN, mount_matches)

/* __ro_after_init: read on first use (the shift may be 0: re-read, cheap) */
__u64 mount_hashtable_cached;
__u32 m_hash_shift_cached, m_hash_mask_cached;

/* m_hash_mask, and the table's size noted once, when first read */
static __always_inline __u32 mount_mask(void)
{
	__u32 mask = m_hash_mask_cached;

	if (!mask) {
		mask = m_hash_mask_cached = kread_u32(m_hash_mask_addr);
		note_table_slots((__u64)mask + 1);
	}
	return mask;
}

/* MNT, DENTRY: plain integers (ARG_SCALAR() for fexit), keys only */
static __always_inline void mount_walk(enum pft_body body, struct chain_walk *w, __u64 mnt,
				       __u64 dentry)
{
	struct mount_key k = {
		.mnt = mnt,
		.dentry = dentry,
	};
	__u64 table = READ_ONCE_CACHED(mount_hashtable_cached, mount_hashtable_addr, kread_u64), tmp;
	__u64 first;
	__u32 shift = READ_ONCE_CACHED(m_hash_shift_cached, m_hash_shift_addr, kread_u32);
	__u32 mask = mount_mask();

	if (!table) {
		walk_faulted(w);
		return;
	}
	tmp = k.mnt / L1_CACHE_BYTES + k.dentry / L1_CACHE_BYTES;
	tmp += tmp >> (shift & 63);
	kload_u64(table + (tmp & mask) * sizeof(struct hlist_head), &first);
	walk_chain(w, first, PFT_END_NULL, M_OFF(mnt_hash), mount_step, &k, sizeof(k));
	count_key(body, k.mnt, k.dentry, w);
}

static __always_inline int mount_exit(enum pft_body body, __u64 mnt, __u64 dentry, __u64 ret)
{
	__u64 now = lat_now(body);   /* first: the call's time ends here */
	struct chain_walk w;

	if (!sample_this_call(body))
		return 0;
	mount_walk(body, &w, mnt, dentry);
	account_lookup_at(body, &w, ret, now);
	return 0;
}

SEC("fexit/__lookup_mnt")
int WALK_EXIT_PROG(fexit_lookup_mnt_2, __u64 mnt, __u64 dentry, __u64 ret)
{
	return mount_exit(body, ARG_SCALAR(ctx, 0, mnt), ARG_SCALAR(ctx, 1, dentry), ret);
}

SEC("fentry/__lookup_mnt")
int BPF_PROG(fentry_lookup_mnt)
{
	lat_enter();
	return 0;
}

SEC("kprobe/__lookup_mnt")
int BPF_KPROBE(kprobe_lookup_mnt, __u64 mnt, __u64 dentry)
{
	struct chain_walk w;

	if (!sample_this_call(PFT_BODY_SETTINGS))
		return 0;
	mount_walk(PFT_BODY_SETTINGS, &w, mnt, dentry);
	stash_walk(&w);
	lat_enter();
	return 0;
}

SEC("kretprobe/__lookup_mnt")
int BPF_KRETPROBE(kretprobe_lookup_mnt, __u64 ret)
{
	account_stashed(ret);
	return 0;
}

/* The whole table, for snapshots: mount_hashtable[m_hash_mask + 1] */
#define SNAP_LINK M_OFF(mnt_hash)
#define SNAP_END PFT_END_NULL

static __always_inline int snap_locate(struct snap_state *st)
{
	if (!mount_hashtable_addr)
		return -1;
	st->table = kread_u64(mount_hashtable_addr);
	st->slots = (__u64)kread_u32(m_hash_mask_addr) + 1;
	st->stride = sizeof(struct hlist_head);
	return 0;
}

static __always_inline __u64 snap_first(__u64 head)
{
	return head;
}

/* k0: &mnt_parent->mnt, k1: mnt_mountpoint: m_hash()'s two inputs */
static __always_inline void snap_key_of(__u64 entry, struct snap_key *k)
{
	k->k0 = kread_u64(entry + M_OFF(mnt_parent)) + M_OFF(mnt);
	k->k1 = kread_u64(entry + M_OFF(mnt_mountpoint));
}

#include "snapshot.bpf.h"
