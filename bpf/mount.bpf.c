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

static bool __always_inline mount_matches(__u64 node, const void *key)
{
	const struct mount_key *k = key;
	struct mount *m = (void *)(node - bpf_core_field_offset(struct mount, mnt_hash));
	__u64 parent = (__u64)BPF_CORE_READ(m, mnt_parent);

	/* one branch, not two: keeps the verifier's loop walk linear */
	return (((parent + bpf_core_field_offset(struct mount, mnt)) ^ k->mnt) |
		((__u64)BPF_CORE_READ(m, mnt_mountpoint) ^ k->dentry)) == 0;
}

static __always_inline void mount_walk(struct chain_walk *w, __u64 mnt, __u64 dentry)
{
	struct mount_key k = { .mnt = as_scalar(mnt), .dentry = as_scalar(dentry) };
	__u64 table = kread_u64(mount_hashtable_addr), tmp;
	__u32 shift = kread_u32(m_hash_shift_addr), mask = kread_u32(m_hash_mask_addr);

	if (!table) {
		__builtin_memset(w, 0, sizeof(*w));
		w->fault = 1;
		return;
	}
	note_table_slots((__u64)mask + 1);
	tmp = k.mnt / L1_CACHE_BYTES + k.dentry / L1_CACHE_BYTES;
	tmp += tmp >> (shift & 63);
	walk_chain(w, kread_u64(table + (tmp & mask) * sizeof(struct hlist_head)),
		   PFT_END_NULL, mount_matches, &k);
}

static __always_inline __u64 mount_of(const struct chain_walk *w)
{
	return w->hit ? w->found - bpf_core_field_offset(struct mount, mnt_hash) : 0;
}

SEC("fexit/__lookup_mnt")
int BPF_PROG(fexit_lookup_mnt_2, __u64 mnt, __u64 dentry, __u64 ret)
{
	struct chain_walk w;

	if (!sample_this_call())
		return 0;
	mount_walk(&w, mnt, dentry);
	account_lookup(&w, mount_of(&w), ret);
	return 0;
}

SEC("kprobe/__lookup_mnt")
int BPF_KPROBE(kprobe_lookup_mnt, __u64 mnt, __u64 dentry)
{
	struct chain_walk w;

	if (!sample_this_call())
		return 0;
	mount_walk(&w, mnt, dentry);
	stash_walk(&w, mount_of(&w));
	return 0;
}

SEC("kretprobe/__lookup_mnt")
int BPF_KRETPROBE(kretprobe_lookup_mnt, __u64 ret)
{
	account_stashed(ret);
	return 0;
}
