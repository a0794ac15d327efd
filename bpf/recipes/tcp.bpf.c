// SPDX-License-Identifier: GPL-2.0
/*
 * Recipe: the TCP established hash (IPv4), searched for every segment
 * that arrives on a connection (early demux or tcp_v4_rcv()).
 *
 * Mirrors net/ipv4/inet_hashtables.c: __inet_lookup_established()
 * hashes with inet_ehashfn():
 *   jhash_3words(daddr, saddr, hnum << 16 | sport,
 *                inet_ehash_secret + net->hash_mix)
 * takes ehash[hash & ehash_mask] and walks it with
 * sk_nulls_for_each_rcu() comparing sk_hash, then the net, the address
 * pair and the port pair (inet_match()). Checked on Debian's 5.10, 6.1,
 * 6.12 and 6.19. The secret is a static in 5.10/6.1 and a field of
 * net_hotdata from 6.9; the loader finds its address. From 6.15 the
 * local port is added to the hash instead of mixed into it
 * (lport + jhash_3words(daddr, saddr, 0 << 16 | sport, ...)), so that
 * consecutive ports land in consecutive buckets. 6.19 dropped the
 * hashinfo parameter: the table is net->ipv4.tcp_death_row.hashinfo.
 *
 * These chains are hlist_nulls: they end in an odd "nulls" marker that
 * encodes the bucket, never in NULL. The bound-device check of
 * inet_match() is left out (VRF setups only).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "walk.bpf.h"
#include "khash.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 ehash_secret_addr = 0;
const volatile bool ehash_adds_lport = false;   /* 6.15+ */
const volatile __u64 tcp_hashinfo_addr = 0;     /* for snapshots: init_net's table */

struct ehash_key {
	__u64 net;
	__u64 addrpair;   /* skc_addrpair: daddr (ours) << 32 | saddr */
	__u32 portpair;   /* skc_portpair: hnum << 16 | sport */
	__u32 hash;
};

#define SK_OFF(field) bpf_core_field_offset(struct sock_common, field)
/* the window: the address pair at the start through skc_nulls_node */
#define SK_LO 0
#define SK_LEN (SK_OFF(skc_nulls_node) + 8)
#define SK_FIELD(win, member, type) NODE_FIELD(win, SK_LO, struct sock_common, member, type)

static bool __always_inline sock_matches(const struct node_window *win, const void *key)
{
	const struct ehash_key *k = key;

	/* inet_match() in one branch: keeps the verifier's loop walk linear */
	return ((SK_FIELD(win, skc_hash, __u32) ^ k->hash) |
		(SK_FIELD(win, skc_net, __u64) ^ k->net) |
		(SK_FIELD(win, skc_addrpair, __u64) ^ k->addrpair) |
		(SK_FIELD(win, skc_portpair, __u32) ^ k->portpair)) == 0;
}

DEFINE_WALK_STEP(sock_step, PFT_END_NULLS, struct sock_common, skc_nulls_node, SK_LO, SK_LEN,
		 sock_matches)

/* NET_KEY: net as a plain integer (ARG_SCALAR() for fexit); NET typed when TYPED */
static __always_inline void tcp_walk(enum pft_body body, struct chain_walk *w, __u64 net_key,
				     __u64 net, __u64 hashinfo, __u32 saddr, __u16 sport, __u32 daddr,
				     __u16 hnum, bool typed)
{
	struct ehash_key k = {
		.net = net_key,
		.addrpair = (__u64)daddr << 32 | saddr,
		.portpair = (__u32)hnum << 16 | sport,
	};
	struct inet_hashinfo *hi;
	__u32 mask, mix;
	__u64 ehash, first;

	if (!hashinfo)
		hashinfo = (__u64)ARG_FIELD(typed, net, struct net, ipv4.tcp_death_row.hashinfo);
	hi = (void *)hashinfo;
	mix = ARG_FIELD(typed, net, struct net, hash_mix);
	if (ehash_adds_lport)
		k.hash = hnum + jhash_3words(daddr, saddr, sport, kread_u32(ehash_secret_addr) + mix);
	else
		k.hash = jhash_3words(daddr, saddr, k.portpair, kread_u32(ehash_secret_addr) + mix);
	mask = ARG_FIELD(typed, hi, struct inet_hashinfo, ehash_mask);
	/* a plain integer: the bucket is found by arithmetic on it */
	ehash = (__u64)BPF_CORE_READ(hi, ehash);
	if (!ehash) {
		walk_faulted(w);
		return;
	}
	note_table_slots((__u64)mask + 1);
	kload_u64(ehash + (__u64)(k.hash & mask) * sizeof(struct inet_ehash_bucket), &first);
	walk_chain(w, first, PFT_END_NULLS, SK_OFF(skc_nulls_node), sock_step, &k, sizeof(k));
	/* softirq: the segment's namespace is the lookup's net, not the interrupted task's */
	if (SETTING(body, by) == PFT_BY_NETNS)
		w->owner = ARG_FIELD(typed, net, struct net, ns.inum);
	count_key(body, k.hash, 0, w);
}

static __always_inline int tcp_exit(enum pft_body body, __u64 net_key, __u64 net, __u64 hashinfo,
				    __u32 saddr, __u16 sport, __u32 daddr, __u16 hnum, __u64 ret)
{
	__u64 now = lat_now(body);   /* first: the call's time ends here */
	struct chain_walk w;

	if (!sample_this_call(body))
		return 0;
	tcp_walk(body, &w, net_key, net, hashinfo, saddr, sport, daddr, hnum, true);
	account_lookup_at(body, &w, ret, now);
	return 0;
}

/* (net, hashinfo, saddr, sport, daddr, hnum, dif, sdif): up to 6.18 */
SEC("fexit/__inet_lookup_established")
int WALK_EXIT_PROG(fexit_inet_lookup_established_8, __u64 net, __u64 hashinfo, __u32 saddr,
		   __u16 sport, __u32 daddr, __u16 hnum, int dif, int sdif, __u64 ret)
{
	return tcp_exit(body, ARG_SCALAR(ctx, 0, net), net, hashinfo, saddr, sport, daddr, hnum,
			ret);
}

/* (net, saddr, sport, daddr, hnum, dif, sdif): 6.19 */
SEC("fexit/__inet_lookup_established")
int WALK_EXIT_PROG(fexit_inet_lookup_established_7, __u64 net, __u32 saddr, __u16 sport,
		   __u32 daddr, __u16 hnum, int dif, int sdif, __u64 ret)
{
	return tcp_exit(body, ARG_SCALAR(ctx, 0, net), net, 0, saddr, sport, daddr, hnum, ret);
}

const volatile __u32 tcp_nparams = 8;

SEC("fentry/__inet_lookup_established")
int BPF_PROG(fentry_inet_lookup_established)
{
	lat_enter();
	return 0;
}

/* the sixth argument's register (hnum), which libbpf 1.1 has no macro for */
#if defined(__TARGET_ARCH_arm64)
#define KPROBE_PARM6(regs) (((const struct user_pt_regs *)(regs))->regs[5])
#else
#define KPROBE_PARM6(regs) BPF_CORE_READ(regs, r9)
#endif

SEC("kprobe/__inet_lookup_established")
int BPF_KPROBE(kprobe_inet_lookup_established)
{
	struct pt_regs *regs = ctx;
	struct chain_walk w;

	if (!sample_this_call(PFT_BODY_SETTINGS))
		return 0;
	if (tcp_nparams == 8)
		tcp_walk(PFT_BODY_SETTINGS, &w, PT_REGS_PARM1(regs), PT_REGS_PARM1(regs), PT_REGS_PARM2(regs),
			 PT_REGS_PARM3(regs), PT_REGS_PARM4(regs), PT_REGS_PARM5(regs),
			 KPROBE_PARM6(regs), false);
	else
		tcp_walk(PFT_BODY_SETTINGS, &w, PT_REGS_PARM1(regs), PT_REGS_PARM1(regs), 0, PT_REGS_PARM2(regs),
			 PT_REGS_PARM3(regs), PT_REGS_PARM4(regs), PT_REGS_PARM5(regs), false);
	stash_walk(&w);
	lat_enter();
	return 0;
}

SEC("kretprobe/__inet_lookup_established")
int BPF_KRETPROBE(kretprobe_inet_lookup_established, __u64 ret)
{
	account_stashed(ret);
	return 0;
}

/* The whole table, for snapshots: tcp_hashinfo.ehash[ehash_mask + 1] */
#define SNAP_LINK SK_OFF(skc_nulls_node)
#define SNAP_END PFT_END_NULLS

static __always_inline int snap_locate(struct snap_state *st)
{
	if (!tcp_hashinfo_addr)
		return -1;
	st->table = kread_u64(tcp_hashinfo_addr + bpf_core_field_offset(struct inet_hashinfo, ehash));
	st->slots = (__u64)kread_u32(tcp_hashinfo_addr +
				     bpf_core_field_offset(struct inet_hashinfo, ehash_mask)) + 1;
	st->stride = bpf_core_type_size(struct inet_ehash_bucket);
	return 0;
}

static __always_inline __u64 snap_first(__u64 head)
{
	return head;
}

/* k0: skc_hash, the full hash the bucket is taken from (hash & ehash_mask) */
static __always_inline void snap_key_of(__u64 entry, struct snap_key *k)
{
	k->k0 = kread_u32(entry + SK_OFF(skc_hash));
	k->k1 = 0;
}

#include "snapshot.bpf.h"
