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

#define MAX_ERRNO 4095

struct inode_key {
	__u64 sb;
	__u64 ino;
};

static bool __always_inline inode_matches(__u64 node, const void *key)
{
	const struct inode_key *k = key;
	struct inode *inode = (void *)(node - bpf_core_field_offset(struct inode, i_hash));

	/* one branch, not two: keeps the verifier's loop walk linear */
	return ((BPF_CORE_READ(inode, i_ino) ^ k->ino) |
		((__u64)BPF_CORE_READ(inode, i_sb) ^ k->sb)) == 0;
}

static __always_inline void inode_walk(struct chain_walk *w, __u64 sb, __u64 head, __u64 ino)
{
	struct inode_key k = { .sb = as_scalar(sb), .ino = ino };
	__u32 shift = kread_u32(i_hash_shift_addr);

	if (shift && shift < 32)
		note_table_slots(1ULL << shift);
	walk_chain(w, kread_u64(head), PFT_END_NULL, inode_matches, &k);
}

/* the kernel's verdict: an error pointer (-ESTALE) is a found inode too */
static __always_inline __u64 inode_found(__u64 ret, const struct chain_walk *w)
{
	if (ret >= (__u64)-MAX_ERRNO)
		return w->hit ? w->found - bpf_core_field_offset(struct inode, i_hash) : ret;
	return ret;
}

static __always_inline int inode_exit(__u64 sb, __u64 head, __u64 ino, __u64 ret)
{
	struct chain_walk w;
	__u64 entry;

	if (!sample_this_call())
		return 0;
	inode_walk(&w, sb, head, ino);
	entry = w.hit ? w.found - bpf_core_field_offset(struct inode, i_hash) : 0;
	account_lookup(&w, entry, inode_found(ret, &w));
	return 0;
}

SEC("fexit/find_inode_fast")
int BPF_PROG(fexit_find_inode_fast_3, __u64 sb, __u64 head, __u64 ino, __u64 ret)
{
	return inode_exit(sb, head, ino, ret);
}

SEC("fexit/find_inode_fast")
int BPF_PROG(fexit_find_inode_fast_4, __u64 sb, __u64 head, __u64 ino, __u64 locked,
	     __u64 ret)
{
	return inode_exit(sb, head, ino, ret);
}

SEC("fexit/find_inode_fast")
int BPF_PROG(fexit_find_inode_fast_5, __u64 sb, __u64 head, __u64 ino, __u64 locked,
	     __u64 isnew, __u64 ret)
{
	return inode_exit(sb, head, ino, ret);
}

SEC("kprobe/find_inode_fast")
int BPF_KPROBE(kprobe_find_inode_fast, __u64 sb, __u64 head, __u64 ino)
{
	struct chain_walk w;

	if (!sample_this_call())
		return 0;
	inode_walk(&w, sb, head, ino);
	stash_walk(&w, w.hit ? w.found - bpf_core_field_offset(struct inode, i_hash) : 0);
	return 0;
}

SEC("kretprobe/find_inode_fast")
int BPF_KRETPROBE(kretprobe_find_inode_fast, __u64 ret)
{
	__u64 tid = bpf_get_current_pid_tgid();
	struct pending_walk *p = bpf_map_lookup_elem(&pending_walks, &tid);

	if (!p)
		return 0;
	account_lookup(&p->walk, p->entry, inode_found(ret, &p->walk));
	bpf_map_delete_elem(&pending_walks, &tid);
	return 0;
}
