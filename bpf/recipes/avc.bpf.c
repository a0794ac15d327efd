// SPDX-License-Identifier: GPL-2.0
/*
 * Recipe: the SELinux access vector cache (AVC).
 *
 * Mirrors security/selinux/avc.c: avc_lookup() -> avc_search_node(),
 * which hashes (ssid, tsid, tclass) to one of avc_cache.slots[] and walks
 * that hlist with hlist_for_each_entry_rcu() comparing ae.ssid, ae.tclass
 * and ae.tsid. Checked against Debian's 5.10, 6.1, 6.12 and 6.19 kernels.
 *
 * avc_has_perm_noaudit() is where Linus's 2011 profile pointed, but it is
 * notrace (inline) on current kernels; every AVC lookup goes through
 * avc_lookup(), so that is what this recipe traces.
 *
 * Differences between kernels, all decided by the loader:
 *  - up to 6.3 avc_lookup() takes the cache as its first argument; from
 *    6.4 it does not and the cache is the global selinux_avc (kallsyms);
 *  - 6.19 replaced the XOR bucket function with a MurmurHash3 one and made
 *    the slot count a build option, so the slot count comes from BTF.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "avc.h"
#include "khash.h"
#include "walk.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile bool avc_cache_is_arg = false;
const volatile __u64 avc_global_addr = 0;
/* 6.4+: &selinux_avc.avc_cache.slots[0], which the loader computes once */
const volatile __u64 avc_slots_addr = 0;
const volatile __u32 avc_slots = 512;   /* for snapshots */
const volatile __u32 avc_bucket_rule = 511;   /* avc.h: mask | PFT_AVC_RULE_MURMUR3 */
/* struct avc_entry keeps tsid right after ssid (the loader reads its BTF) */
const volatile bool avc_key_pair = false;

struct avc_key {
	__u32 ssid;
	__u32 tsid;
	__u16 tclass;
};

static __always_inline __u32 avc_bucket(const struct avc_key *k)
{
	const __u32 rule = avc_bucket_rule;
	const __u32 mask = rule & (PFT_AVC_RULE_MURMUR3 - 1);

	if (rule >= PFT_AVC_RULE_MURMUR3)   /* a compare, which leaves nothing once dropped */
		return av_hash_murmur3(k->ssid, k->tsid, k->tclass) & mask;
	return av_hash_xor(k->ssid, k->tsid, k->tclass) & mask;
}

#define AVC_OFF(field) bpf_core_field_offset(struct avc_node, field)
#define AVC_FIELD(win, member, type) NODE_FIELD(win, 0, struct avc_node, member, type)

static bool __always_inline avc_node_matches(const struct node_window *win, const void *key)
{
	const struct avc_key *k = key;
	const __u64 *kw = key;

	/*
	 * avc_search_node() compares ssid, tclass, tsid in turn; one
	 * combined test gives the same answer with a single branch, which
	 * keeps the verifier's walk of the bounded loop linear. Where
	 * struct avc_entry keeps tsid right after ssid (every kernel so
	 * far), one 64-bit load reads both, against the key's first word
	 * (struct avc_key: ssid, then tsid). The loader's flag says so: a
	 * test of CO-RE offsets here would leave its arithmetic behind at
	 * every node, once the verifier had dropped the branch not taken.
	 * The direct build has no test at all (the flag's load, 2 x86
	 * instructions a node): the loader takes it only where they pair
	 * (avc_key_pair(), the recipe's direct_layout).
	 */
#ifndef PFT_DIRECT_LOADS
	if (avc_key_pair)
#endif
		return ((AVC_FIELD(win, ae.ssid, __u64) ^ kw[0]) |
			(AVC_FIELD(win, ae.tclass, __u16) ^ k->tclass)) == 0;
#ifndef PFT_DIRECT_LOADS
	return ((AVC_FIELD(win, ae.ssid, __u32) ^ k->ssid) |
		(AVC_FIELD(win, ae.tclass, __u16) ^ k->tclass) |
		(AVC_FIELD(win, ae.tsid, __u32) ^ k->tsid)) == 0;
#endif
}

DEFINE_WALK_STEP(avc_step, PFT_END_NULL, struct avc_node, list, 0, AVC_OFF(list) + 8,
		 avc_node_matches)

static __always_inline void avc_walk(enum pft_body body, struct chain_walk *w, __u64 avc,
				     const struct avc_key *k)
{
	__u64 first = 0, slots = avc_slots_addr, head;

	/* the table's size is the loader's avc_slots: it notes it itself */
	if (avc)
		slots = avc + bpf_core_field_offset(struct selinux_avc, avc_cache) +
			bpf_core_field_offset(struct avc_cache, slots);
	/* a struct hlist_head is its first pointer, and nothing else */
	head = slots + (__u64)avc_bucket(k) * sizeof(struct hlist_head);
	if (kload_u64(head, &first)) {
		walk_faulted(w);
		return;
	}
	/* the window: the entry's key at its start up to list.next */
	walk_chain(w, first, PFT_END_NULL, AVC_OFF(list), avc_step, k, sizeof(*k));
	count_key(body, k->ssid | (__u64)k->tsid << 32, k->tclass, w);
}

static __always_inline int avc_fexit(enum pft_body body, __u64 avc, __u32 ssid, __u32 tsid,
				     __u16 tclass, __u64 ret)
{
	__u64 now = lat_now(body);   /* first: the call's time ends here */
	struct avc_key k = { .ssid = ssid, .tsid = tsid, .tclass = tclass };
	struct chain_walk w;

	if (!sample_this_call(body))
		return 0;
	avc_walk(body, &w, avc, &k);
	account_lookup_at(body, &w, ret, now);
	return 0;
}

/*
 * fexit programs read their arguments at fixed context offsets, so each
 * parameter layout gets its own program, named by its parameter count;
 * the loader keeps the one that matches the kernel's BTF. Arguments are
 * taken as plain integers (the verifier forbids variable offsets on
 * BTF-typed pointers).
 */
SEC("fexit/avc_lookup")
int WALK_EXIT_PROG(fexit_avc_lookup_4, __u64 avc, __u32 ssid, __u32 tsid,
		   __u16 tclass, __u64 ret)
{
#ifdef PFT_DIRECT_LOADS
	/* 6.2 and 6.3: the bucket's address is arithmetic, which the verifier refuses on a typed pointer */
	avc = ARG_SCALAR(ctx, 0, avc);
#endif
	return avc_fexit(body, avc, ssid, tsid, tclass, ret);
}

SEC("fexit/avc_lookup")
int WALK_EXIT_PROG(fexit_avc_lookup_3, __u32 ssid, __u32 tsid, __u16 tclass, __u64 ret)
{
	return avc_fexit(body, 0, ssid, tsid, tclass, ret);
}

SEC("fentry/avc_lookup")
int BPF_PROG(fentry_avc_lookup)
{
	lat_enter();
	return 0;
}

SEC("kprobe/avc_lookup")
int BPF_KPROBE(kprobe_avc_lookup)
{
	struct avc_key k;
	struct chain_walk w;
	__u64 avc = 0;

	if (!sample_this_call(PFT_BODY_SETTINGS))
		return 0;
	if (avc_cache_is_arg) {
		avc = PT_REGS_PARM1(ctx);
		k.ssid = PT_REGS_PARM2(ctx);
		k.tsid = PT_REGS_PARM3(ctx);
		k.tclass = PT_REGS_PARM4(ctx);
	} else {
		k.ssid = PT_REGS_PARM1(ctx);
		k.tsid = PT_REGS_PARM2(ctx);
		k.tclass = PT_REGS_PARM3(ctx);
	}
	avc_walk(PFT_BODY_SETTINGS, &w, avc, &k);
	stash_walk(&w);
	lat_enter();   /* last: the walk above is not the function's time */
	return 0;
}

SEC("kretprobe/avc_lookup")
int BPF_KRETPROBE(kretprobe_avc_lookup, __u64 ret)
{
	account_stashed(ret);
	return 0;
}

/* The whole cache, for snapshots: selinux_avc.avc_cache.slots[] */
#define SNAP_LINK AVC_OFF(list)
#define SNAP_END PFT_END_NULL

static __always_inline int snap_locate(struct snap_state *st)
{
	if (!avc_global_addr)
		return -1;
	st->table = avc_global_addr + bpf_core_field_offset(struct selinux_avc, avc_cache) +
		    bpf_core_field_offset(struct avc_cache, slots);
	st->slots = avc_slots;
	st->stride = sizeof(struct hlist_head);
	return 0;
}

static __always_inline __u64 snap_first(__u64 head)
{
	return head;
}

/* k0: ssid | tsid << 32, k1: tclass */
static __always_inline void snap_key_of(__u64 entry, struct snap_key *k)
{
	k->k0 = kread_u32(entry + AVC_OFF(ae.ssid)) |
		(__u64)kread_u32(entry + AVC_OFF(ae.tsid)) << 32;
	k->k1 = (__u16)kread_u32(entry + AVC_OFF(ae.tclass));
}

#include "snapshot.bpf.h"
