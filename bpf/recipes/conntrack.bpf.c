// SPDX-License-Identifier: GPL-2.0
/*
 * Recipe: netfilter's connection-tracking table, in the nf_conntrack
 * module: the hash every packet of a tracked flow is looked up in.
 *
 * Mirrors net/netfilter/nf_conntrack_core.c: __nf_conntrack_find_get(net,
 * zone, tuple, hash), into which ____nf_conntrack_find() is inlined:
 *
 *   nf_conntrack_get_ht(&ct_hash, &hsize);   (under nf_conntrack_generation)
 *   bucket = reciprocal_scale(hash, hsize);  ((u64)hash * hsize >> 32)
 *   hlist_nulls_for_each_entry_rcu(h, n, &ct_hash[bucket], hnnode) {
 *           if (nf_ct_is_expired(ct)) { nf_ct_gc_expired(ct); continue; }
 *           if (nf_ct_key_equal(h, tuple, zone, net)) return h;
 *   }
 *   if (get_nulls_value(n) != bucket) goto begin;   (search_restart)
 *
 * nf_ct_key_equal() is the tuple up to dst.dir (39 bytes), the zone as
 * seen from the node's direction, IPS_CONFIRMED and net_eq(). A match
 * is then taken only if its refcount is not zero and the key still
 * equal (SLAB_TYPESAFE_BY_RCU): else the kernel returns NULL, which the
 * self-check shows as a disagreement and ct_events counts as rejected.
 * hash is hash_conntrack_raw()'s (SipHash on every lab kernel, in two
 * forms: bpf/khash.h), an argument: the walk needs no secret. Every connection is in the table twice, once
 * per direction (nf_conn.tuplehash[2]); a node is a struct
 * nf_conntrack_tuple_hash, and its nf_conn lies before it by its
 * direction. Checked against the disassembly of Debian's nf_conntrack.ko
 * (6.1, 6.12, 6.19, 7.2, 7.2-rt: the same walk, the same layout) and
 * their BTF. One table for every namespace (nf_conntrack_hash and
 * nf_conntrack_htable_size, module globals) on all of them; an upstream
 * change moves it into struct net (net->ct.nf_conntrack_hash), which the
 * loader detects in BTF (ct_table_per_net).
 *
 * A confirm (__nf_conntrack_confirm()) walks the two chains of a new
 * connection too, under the bucket locks; it is not traced (its fexit
 * sees the table after the insert): docs/conntrack.md says why.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "walk.bpf.h"
#include "khash.h"

char LICENSE[] SEC("license") = "GPL";

/* the module's globals, from kallsyms ([nf_conntrack]) */
const volatile __u64 ct_hash_addr = 0;         /* &nf_conntrack_hash (the bucket array's pointer) */
const volatile __u64 ct_size_addr = 0;         /* &nf_conntrack_htable_size */
const volatile __u64 ct_rnd_addr = 0;          /* &nf_conntrack_hash_rnd: snapshots only */
const volatile bool ct_hash_tuple39 = true;    /* hash_conntrack_raw()'s form (khash.h) */
const volatile bool ct_table_per_net = false;  /* net->ct.nf_conntrack_hash (see above) */
const volatile __u64 ct_snap_net = 0;          /* the namespace a per-net table's snapshot walks */

/*
 * The per-namespace layout, for CO-RE: absent from every lab kernel's
 * BTF, read only behind ct_table_per_net (tests/tools/core-check.c
 * lets an ___optional flavour stay unresolved).
 */
struct netns_ct___optional {
	struct hlist_nulls_head *nf_conntrack_hash;
	unsigned int nf_conntrack_htable_size;
} __attribute__((preserve_access_index));

struct net___optional {
	struct netns_ct___optional ct;
} __attribute__((preserve_access_index));

/* nf_ct_tuple_equal() reads the tuple's first 39 bytes: its five words, the last one's low 7 */
#define CT_TUPLE_MASK 0x00ffffffffffffffULL
#define CT_IPS_CONFIRMED 8   /* 1 << IPS_CONFIRMED_BIT */

/*
 * The key a step compares (a global function takes three scalars): the
 * net and the tuple's words 0 and 2 (the source address's first half;
 * the source port, l3num and the destination address's first four
 * bytes) come as arguments and reject nearly every node; the rest waits
 * here, per CPU, for the node that passes them. The first node is
 * visited inline with the rest on the stack: most walks end there, and
 * never fill this.
 */
struct ct_rest {
	__u64 w1, w3, w4;
	__u64 end;        /* the bucket's own nulls marker: (bucket << 1) | 1 */
	__u64 zone;       /* the lookup zone's first word (id, flags, dir): a whole word, no zero-extension */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ct_rest);
} ct_rest SEC(".maps");

/*
 * What the kernel's walk does that the counts above would hide:
 * [CT_EVENT_REJECTED] a match the kernel did not return (its refcount
 * was zero, or SLAB_TYPESAFE_BY_RCU recycled it: a self-check
 * disagreement, counted apart), [CT_EVENT_OFF_CHAIN] a walk that ended
 * in another bucket's nulls marker (an entry moved under it: the kernel
 * restarts such a walk, search_restart), per CPU, read by the loader.
 */
#define CT_EVENT_REJECTED 0
#define CT_EVENT_OFF_CHAIN 1
#define CT_EVENTS 2
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CT_EVENTS);
	__type(key, __u32);
	__type(value, __u64);
} ct_events SEC(".maps");

#define TH struct nf_conntrack_tuple_hash
#define TH_WORD(win, member) NODE_FIELD(win, 0, TH, member, __u64)
#define CT_OFF(field) bpf_core_field_offset(struct nf_conn, field)
/*
 * Word I of a node's tuple, as one 8-byte load: the tuple's members are
 * 4-byte arrays, through which clang would split it in two (every load
 * of the direct build is a guarded one on x86: about 7 instructions more).
 */
#ifdef PFT_DIRECT_LOADS
#define TUPLE_WORD(win, i) \
	(((const __u64 *)((const char *)(win) + bpf_core_field_offset(TH, tuple)))[i])
#else
#define TUPLE_WORD(win, i) WIN(win, 0, __u64, bpf_core_field_offset(TH, tuple) + 8 * (i))
#endif

/* nf_ct_zone_id(zone, dir) from a zone's first word (id, flags, dir) */
static __always_inline __u32 ct_zone_id(__u32 zone_word, __u32 dir)
{
	return (zone_word >> 24) & (1U << dir) ? zone_word & 0xffff : 0;
}

/*
 * nfct_time_stamp, (u32)jiffies. The verifier inlines the helper on a
 * 64-bit JIT (5.5+) as a plain load of jiffies: two instructions, where a
 * load through the kernel's address would be a guarded one.
 */
static __always_inline __u32 ct_now(void)
{
	return (__u32)bpf_jiffies64();
}

/*
 * The nf_conn of node NODE (direction DIR): not expired, confirmed, in
 * NET, and in the lookup's zone (ZONE, its first word) as seen from
 * DIR. The tuple matched.
 */
static __always_inline bool ct_entry_matches(__u64 node, __u64 dir, __u64 net, __u64 zone)
{
	__u64 ct = node - CT_OFF(tuplehash) - dir * bpf_core_type_size(TH), status, ct_net;
	__u32 timeout, zone_word = 0;

#ifdef PFT_DIRECT_LOADS
	const char *c = (const char *)KERNEL_VIEW(ct);
	/* timeout, then the zone: one load (conntrack_direct_layout() checked that they pair) */
	__u64 tz = *(const __u64 *)(c + CT_OFF(timeout));

	timeout = (__u32)tz;
	zone_word = tz >> 32;
	status = *(const __u64 *)(c + CT_OFF(status));
	ct_net = *(const __u64 *)(c + CT_OFF(ct_net));
#else
	timeout = kread_u32(ct + CT_OFF(timeout));
	status = kread_u64(ct + CT_OFF(status));
	ct_net = kread_u64(ct + CT_OFF(ct_net));
	if (bpf_core_field_exists(struct nf_conn, zone))
		zone_word = kread_u32(ct + CT_OFF(zone));
#endif
	/* nf_ct_is_expired(): the kernel skips it (and may free it) */
	if ((__s32)(timeout - ct_now()) <= 0)
		return false;
	if (!(status & CT_IPS_CONFIRMED) || ct_net != net)
		return false;
	/* the same zone word (the default zone's, nearly always): the same id either way */
	return zone_word == zone || ct_zone_id(zone_word, dir) == ct_zone_id(zone, dir);
}

/* A node whose words 0 and 2 matched: the rest of the key R, then its nf_conn. */
static __always_inline bool ct_node_matches(const struct node_window *win, __u64 node, __u64 net,
					    const struct ct_rest *r)
{
	__u64 w4 = TUPLE_WORD(win, 4);

	if ((TUPLE_WORD(win, 1) ^ r->w1) | (TUPLE_WORD(win, 3) ^ r->w3) |
	    ((w4 ^ r->w4) & CT_TUPLE_MASK))
		return false;
	/* dst.dir, the tuple's 40th byte */
	return ct_entry_matches(node, (w4 >> 56) & 1, net, r->zone);
}

static __always_inline void ct_event(__u32 key)
{
	__u64 *n = bpf_map_lookup_elem(&ct_events, &key);

	if (n)
		*n += 1;
}

/*
 * One node: its kind (bpf/chain_walk.bpf.h) and in *NEXT its next
 * pointer, the rest of the key in R: the caller's copy on the stack, or
 * (NULL) the per-CPU one. Inline, each kind is a constant where it is
 * decided: the first node's hit becomes the walk's result directly.
 */
static __always_inline enum node_kind ct_visit(__u64 pos, __u64 net, __u64 w0, __u64 w2,
					       const struct ct_rest *r, __u64 *next)
{
	const struct node_window *win;
	__u32 zero = 0;
	bool last;
#ifdef PFT_DIRECT_LOADS
	win = (const struct node_window *)KERNEL_VIEW(pos);
	*next = TH_WORD(win, hnnode.next);
	last = direct_chain_end(*next, PFT_END_NULLS);
#else
	/* the node, 56 bytes: not the 256 of a struct node_window, on a 512-byte stack */
	__u64 copy[8];

	if (bpf_probe_read_kernel(copy, bpf_core_type_size(TH) & 63, (void *)pos))
		return NODE_FAULT;
	win = (const struct node_window *)copy;
	*next = TH_WORD(win, hnnode.next);
	if (!chain_at_end(*next, PFT_END_NULLS) && STEP_TAG(*next) != 3)
		return NODE_FAULT;
	last = chain_at_end(*next, PFT_END_NULLS);
#endif
	if (((TUPLE_WORD(win, 0) ^ w0) | (TUPLE_WORD(win, 2) ^ w2)) == 0) {
		if (!r)
			r = bpf_map_lookup_elem(&ct_rest, &zero);
		if (r && ct_node_matches(win, pos, net, r))
			return last ? NODE_HIT_LAST : NODE_HIT;
	}
	if (!last)
		return NODE_NEXT;
	/* a miss: ended at the bucket's own marker, or where the kernel would restart */
	if (!r)
		r = bpf_map_lookup_elem(&ct_rest, &zero);
	if (r && *next != r->end)
		ct_event(CT_EVENT_OFF_CHAIN);
	return NODE_END;
}

/*
 * A step, as its tagged word: K0 the net, K1 and K2 the tuple's words 0
 * and 2 (a global function: verified once)
 */
__noinline __u64 ct_step(__u64 pos, __u64 k0, __u64 k1, __u64 k2)
{
	__u64 next = 0;
	enum node_kind kind = ct_visit(pos, k0, k1, k2, NULL, &next);

	return step_word(kind, kind == NODE_END ? 0 : next);
}

/* LEN bytes of kernel memory at ADDR, a plain loads where the build has them */
static __always_inline long ct_read_tuple(__u64 *w, __u64 addr)
{
#ifdef PFT_DIRECT_LOADS
	const kernel_view_t *v = KERNEL_VIEW(addr);

	w[0] = v->VIEW_WORDS[0];
	w[1] = v->VIEW_WORDS[1];
	w[2] = v->VIEW_WORDS[2];
	w[3] = v->VIEW_WORDS[3];
	w[4] = v->VIEW_WORDS[4];
	return 0;
#else
	return bpf_probe_read_kernel(w, 5 * sizeof(*w), (void *)addr);
#endif
}

static __always_inline __u32 ct_read_u32(__u64 addr)
{
#ifdef PFT_DIRECT_LOADS
	return (__u32)KERNEL_VIEW(addr)->VIEW_WORDS[0];
#else
	return kread_u32(addr);
#endif
}

/* The table NET's lookups walk: its buckets' address and count. */
static __always_inline long ct_table(__u64 net, bool typed, __u64 *table, __u32 *size)
{
	__u64 v = 0;

	if (ct_table_per_net) {
		*table = (__u64)ARG_FIELD(typed, net, struct net___optional, ct.nf_conntrack_hash);
		*size = ARG_FIELD(typed, net, struct net___optional, ct.nf_conntrack_htable_size);
		return 0;
	}
	kload_u64(ct_size_addr, &v);
	*size = (__u32)v;
	return kload_u64(ct_hash_addr, table);
}

/*
 * The walk from FIRST, the bucket's head, as walk_chain_steps() does it
 * (bpf/chain_walk.bpf.h), but with conntrack's key in two parts: in the
 * direct build the first node visited inline with REST on the stack, and
 * the per-CPU copy filled only for a walk that goes on; the probe build
 * (whose copy of a node must stay in the step's own frame: 512 bytes of
 * stack in all) fills the per-CPU copy first and steps from the start.
 */
static __always_inline void ct_walk_chain(struct chain_walk *w, __u64 first, __u64 net,
					  bool typed, __u64 w0, __u64 w2, const struct ct_rest *rest)
{
	__u64 v = 0, pos = first, net_key;
	enum node_kind kind;
	__u32 n;

	w->found = 0;
	w->owner = 0;
	/* an empty bucket's head is its marker: the walk's end, as after any node */
	if (chain_at_end(first, PFT_END_NULLS)) {
		if (first != rest->end)
			ct_event(CT_EVENT_OFF_CHAIN);
		w->result = 0;
		return;
	}
#ifdef PFT_DIRECT_LOADS
	kind = ct_visit(first, net, w0, w2, rest, &v);
	if (kind != NODE_NEXT) {
		walk_end(w, kind, first, 1, 0);
		return;
	}
	{
		__u32 zero = 0;
		struct ct_rest *r = bpf_map_lookup_elem(&ct_rest, &zero);

		if (!r) {
			walk_faulted(w);
			return;
		}
		*r = *rest;
	}
	/* NET, typed for fexit, as the steps take it: a plain integer (a copy only a longer walk pays) */
	net_key = typed ? typed_as_scalar(net) : net;
#else
	/* REST is the per-CPU copy itself (ct_walk()) */
	net_key = typed ? typed_as_scalar(net) : net;
	v = ct_step(first, net_key, w0, w2);
	kind = step_kind(v);
	if (kind != NODE_NEXT) {
		walk_end(w, kind, first, 1, 0);
		return;
	}
#endif
	for (n = 1; n < PFT_MAX_WALK && STEP_TAG(v) == 3; n++) {
		pos = v;
		v = ct_step(pos, net_key, w0, w2);
	}
	walk_end(w, STEP_TAG(v) == 3 ? NODE_TRUNCATED : step_kind(v), pos, n, 0);
}

/* NET, ZONE and TUPLE typed (fexit's arguments) when TYPED */
static __always_inline void ct_walk(enum pft_body body, struct chain_walk *w, __u64 net,
				    __u64 zone, __u64 tuple, __u32 hash, bool typed)
{
	__u64 tw[5], table = 0, first = 0, bucket;
	__u32 size = 0;
#ifdef PFT_DIRECT_LOADS
	struct ct_rest stack_rest, *rest = &stack_rest;
#else
	/* the probe build's steps read it from there at once: no copy on the stack */
	__u32 zero = 0;
	struct ct_rest *rest = bpf_map_lookup_elem(&ct_rest, &zero);

	if (!rest) {
		walk_faulted(w);
		return;
	}
#endif
	if (ct_read_tuple(tw, tuple) || ct_table(net, typed, &table, &size) || !table) {
		walk_faulted(w);
		return;
	}
	rest->w1 = tw[1];
	rest->w3 = tw[3];
	rest->w4 = tw[4] & CT_TUPLE_MASK;
	rest->zone = ct_read_u32(zone);
	note_table_slots(size);
	bucket = khash_reciprocal_scale(hash, size);
	rest->end = bucket << 1 | 1;
	kload_u64(table + bucket * sizeof(struct hlist_nulls_head), &first);
	ct_walk_chain(w, first, net, typed, tw[0], tw[2], rest);
	if (SETTING(body, by) == PFT_BY_NETNS)
		w->owner = ARG_FIELD(typed, net, struct net, ns.inum);
	count_key(body, hash, 0, w);
}

/* A match the kernel did not return: its refcount was zero, or it was recycled */
static __always_inline void ct_count_rejected(const struct chain_walk *w, __u64 ret)
{
	if (w->found && !ret)
		ct_event(CT_EVENT_REJECTED);
}

SEC("fexit/__nf_conntrack_find_get")
int WALK_EXIT_PROG(fexit_nf_conntrack_find_get_4, __u64 net, __u64 zone, __u64 tuple,
		   __u32 hash, __u64 ret)
{
	__u64 now = lat_now(body);   /* first: the call's time ends here */
	struct chain_walk w;

	if (!sample_this_call(body))
		return 0;
	/* net, zone and tuple are only read through or compared: typed pointers do */
	ct_walk(body, &w, net, zone, tuple, hash, true);
	ct_count_rejected(&w, ret);
	account_lookup_at(body, &w, ret, now);
	return 0;
}

SEC("fentry/__nf_conntrack_find_get")
int BPF_PROG(fentry_nf_conntrack_find_get)
{
	lat_enter();
	return 0;
}

SEC("kprobe/__nf_conntrack_find_get")
int BPF_KPROBE(kprobe_nf_conntrack_find_get, __u64 net, __u64 zone, __u64 tuple, __u32 hash)
{
	struct chain_walk w;

	if (!sample_this_call(PFT_BODY_SETTINGS))
		return 0;
	ct_walk(PFT_BODY_SETTINGS, &w, net, zone, tuple, hash, false);
	stash_walk(&w);
	lat_enter();   /* last: the walk above is not the function's time */
	return 0;
}

SEC("kretprobe/__nf_conntrack_find_get")
int BPF_KRETPROBE(kretprobe_nf_conntrack_find_get, __u64 ret)
{
	struct chain_walk *w;
	__u64 tid;

	w = stashed_walk(&tid);
	if (w)
		ct_count_rejected(w, ret);
	account_stashed(ret);
	return 0;
}

/* The whole table, for snapshots: nf_conntrack_hash[nf_conntrack_htable_size] */
#define SNAP_LINK 0
#define SNAP_END PFT_END_NULLS

static __always_inline int snap_locate(struct snap_state *st)
{
	if (ct_table_per_net) {
		if (!ct_snap_net)
			return -1;
		st->table = (__u64)BPF_CORE_READ((struct net___optional *)ct_snap_net,
						 ct.nf_conntrack_hash);
		st->slots = BPF_CORE_READ((struct net___optional *)ct_snap_net,
					  ct.nf_conntrack_htable_size);
	} else {
		if (!ct_hash_addr || !ct_size_addr)
			return -1;
		st->table = kread_u64(ct_hash_addr);
		st->slots = kread_u32(ct_size_addr);
	}
	st->stride = sizeof(struct hlist_nulls_head);
	return 0;
}

static __always_inline __u64 snap_first(__u64 head)
{
	return head;
}

/*
 * k0: the entry's raw hash, hash_conntrack_raw() of its tuple in its
 * direction's zone and its namespace (khash.h, nf_ct_hash_raw()). The
 * hash alone: a run file carries no address, port or secret.
 */
static __always_inline void snap_key_of(__u64 entry, struct snap_key *k)
{
	__u64 tw[5] = {}, key0 = kread_u64(ct_rnd_addr), key1 = kread_u64(ct_rnd_addr + 8);
	__u32 dir, mix, zone = 0;
	__u64 ct, net;

	bpf_probe_read_kernel(tw, sizeof(tw),
			      (void *)(entry + bpf_core_field_offset(TH, tuple)));
	dir = (tw[4] >> 56) & 1;
	ct = entry - CT_OFF(tuplehash) - dir * bpf_core_type_size(TH);
	net = kread_u64(ct + CT_OFF(ct_net));
	mix = BPF_CORE_READ((struct net *)net, hash_mix);
	if (bpf_core_field_exists(struct nf_conn, zone))
		zone = ct_zone_id(kread_u32(ct + CT_OFF(zone)), dir);
	k->k0 = nf_ct_hash_raw(tw, zone, mix, key0, key1, ct_hash_tuple39);
	k->k1 = 0;
}

#include "snapshot.bpf.h"
