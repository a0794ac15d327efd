/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The whole-table snapshot every recipe offers: walk every bucket of the
 * table once, the way the kernel's iterator would, and leave each
 * bucket's chain length and each entry's key (what a rehash needs) for
 * the loader. It runs only when asked (--snapshot, pftrace snapshot),
 * by BPF_PROG_TEST_RUN, never from a hook.
 *
 * The recipe defines, before including this file:
 *   SNAP_LINK      the list node's offset in an entry (CO-RE)
 *   SNAP_END       how a chain ends (enum pft_chain_end)
 *   snap_locate()  fill the table's address, slot count and stride
 *   snap_first()   the first node from a bucket head's word (lock bits off)
 *   snap_key_of()  an entry's key
 *
 * One program run takes at most PFT_SNAP_STEPS steps, each one a bucket
 * head, a node, or the end of a chain, so a table of any size costs a
 * bounded time per run and the loader resumes where the run stopped.
 * The step is a global function: the verifier checks it once, not once
 * per iteration, and all state lives in the map, so the loop that calls
 * it verifies in linear time on every kernel from 5.10.
 */
#ifndef SNAPSHOT_BPF_H
#define SNAPSHOT_BPF_H

#include "pftrace.h"

struct snap_buf snap SEC(".data.snap");

#define SNAP_MASK (PFT_SNAP_STEPS - 1)

__noinline int snap_step(void)
{
	struct snap_state *st = &snap.st;
	__u64 word = 0, entry;
	__u32 i;

	if (st->err)
		return 1;
	if (!st->slots) {
		if (snap_locate(st) || !st->slots || !st->stride) {
			st->err = -22;   /* EINVAL: the table is not where the recipe looked */
			return 1;
		}
	}
	if (st->bucket >= st->slots)
		return 1;
	if (!st->in_chain) {
		if (bpf_probe_read_kernel(&word, sizeof(word),
					  (void *)(st->table + st->bucket * st->stride))) {
			st->err = -14;   /* EFAULT */
			return 1;
		}
		st->pos = snap_first(word);
		st->len = 0;
		st->sig = 0;
		st->in_chain = 1;
		st->bucket_nodes = st->nodes;
		return 0;
	}
	/*
	 * hlist_nulls: the marker ending a chain names its bucket. Another
	 * bucket's means the walk slid into it (an entry moved meanwhile,
	 * as SLAB_TYPESAFE_BY_RCU sockets can): walk this bucket again, if
	 * it began in this run (else the loader's keys cannot be rewound).
	 */
	if (SNAP_END == PFT_END_NULLS && chain_at_end(st->pos, SNAP_END) &&
	    (st->pos >> 1) != st->bucket && st->bucket_nodes != 0xffffffffU &&
	    st->restarts < 1000000) {
		st->restarts++;
		st->nodes = st->bucket_nodes;
		st->in_chain = 0;
		return 0;
	}
	if (chain_at_end(st->pos, SNAP_END) || st->len >= PFT_SNAP_MAX_CHAIN) {
		if (!chain_at_end(st->pos, SNAP_END))
			st->cut++;
		i = st->buckets_done;
		snap.chain[i & SNAP_MASK] = (__u32)st->len;
		snap.chain_sig[i & SNAP_MASK] = (__u32)(st->sig ^ (st->sig >> 32));
		st->buckets_done = i + 1;
		st->bucket++;
		st->in_chain = 0;
		return 0;
	}
	entry = st->pos - SNAP_LINK;
	if (st->with_keys) {
		i = st->nodes;
		snap_key_of(entry, &snap.keys[i & SNAP_MASK]);
		st->nodes = i + 1;
	}
	if (bpf_probe_read_kernel(&word, sizeof(word), (void *)st->pos)) {
		st->err = -14;
		return 1;
	}
	/* order-sensitive: a node moved within its chain changes it too */
	st->sig = st->sig * 0x9E3779B97F4A7C15ULL + st->pos;
	st->len++;
	st->pos = word;
	return 0;
}

SEC("raw_tp")
int snapshot_table(void *ctx)
{
	int i;

	for (i = 0; i < PFT_SNAP_STEPS; i++)
		if (snap_step())
			break;
	return 0;
}

#endif /* SNAPSHOT_BPF_H */
