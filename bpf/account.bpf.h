/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Accounting one lookup: one per-CPU add when the walk found what the
 * kernel found (agreed_walks), else the kernel's verdict and the walk's
 * length, hit position and disagreement (chain_counters); with --by,
 * its walk charged to whoever made it (by.bpf.h).
 */
#ifndef ACCOUNT_BPF_H
#define ACCOUNT_BPF_H

#include "settings.bpf.h"
#include "counters.bpf.h"

static __always_inline void hist_bump(__u32 plain, __u64 *hist, __u64 slot)
{
	if (slot > PFT_MAX_WALK)
		slot = PFT_MAX_WALK;
	stat_add_as(plain, hist[slot], 1);
}

/*
 * Account a lookup whose walk did not find what the kernel found
 * (account_agreed() takes the others), from its walk's result word and
 * the verdict bits account_lookup() adds: the kernel's verdict, then,
 * for a walk that completed, its length, hit position and the
 * disagreement. Lookups, walk hits and misses, nodes walked and
 * agreements follow from these and agreed_walks (the loader's
 * chain_counters_add_agreed()).
 *
 * A global (not inlined) function: the verifier checks it once, on its
 * own, instead of once for each of the up to PFT_MAX_WALK places the
 * walk can end (inlined, the AVC program takes 179,410 instructions to
 * verify on 6.12, against 9,617: 720 ms more start-up under QEMU).
 */
__noinline int account_walk(__u64 packed)
{
	struct chain_counters *s = stats_slot();
	__u32 walked = WALK_NODES(packed);
	/*
	 * Read once (the flag is volatile): a read per add leaves a dead load
	 * behind each, once the verifier has dropped the branch not taken.
	 */
	const __u32 plain = walk_config.plain_adds;

	if (!s)
		return 0;
	if (packed & KERNEL_FOUND)
		stat_add_as(plain, s->hits, 1);
	else
		stat_add_as(plain, s->misses, 1);

	if (packed & WALK_FAULT) {
		stat_add_as(plain, s->read_faults, 1);
		return 0;
	}
	if (packed & WALK_TRUNCATED) {
		stat_add_as(plain, s->truncated, 1);
		return 0;
	}
	hist_bump(plain, s->chain_walked_hist, walked);
	if (packed & WALK_HIT) {
		hist_bump(plain, s->hit_pos_hist, walked);
		if (packed & WALK_NEXT_NULL)
			stat_add_as(plain, s->next_null_at_hit, 1);
	}
	/* completed, and not what the kernel found */
	stat_add_as(plain, s->self_disagree, 1);
	return 0;
}

/*
 * A lookup whose walk found what the kernel found: one add, inline, by
 * how the walk ended and the nodes it visited. Through a map key rather
 * than an index into a map value, which the verifier would track
 * exactly. The lookup of a per-CPU array is inlined where the JIT has
 * per-CPU instructions (6.10+ on x86); a helper call before.
 *
 * The key is the result word itself, stored whole: its low 32 bits, the
 * first four bytes on a little-endian machine, are WALK_KEY(). From
 * 6.14 the verifier tracks a constant key of an array's lookup exactly
 * (to drop the NULL check), and at each of the walk's exits the key is
 * a constant: tracked, the AVC's program takes 32,369 instructions to
 * verify on 6.19 and 7.2, against 4,098 on 6.12. It tracks only a key
 * stored with the key's own size, so an 8-byte store is never tracked,
 * and costs nothing (an OR with a zero from .bss, the other way to hide
 * the key, costs 3 x86 instructions a call).
 */
static __always_inline void account_agreed(enum pft_body body, __u64 result)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	__u64 key = result;
#else
	__u64 key = result << 32;
#endif
	__u64 *n = bpf_map_lookup_elem(&agreed_walks, &key);

	if (n)
		stat_add_as(SETTING(body, plain_adds), *n, 1);
}

/* --by's charge (by.bpf.h), defined after account_walk() as .text lays them out */
__noinline int account_by(__u64 packed, __u64 owner);

/*
 * Account one lookup: the kernel's verdict (kernel_found != 0 means it
 * found the key) and our walk's view, whose found entry must be the
 * very object the kernel returned.
 */
static __always_inline void account_lookup(enum pft_body body, const struct chain_walk *w,
					   __u64 kernel_found)
{
	/* the one test on the common path, and on values the verifier does not know */
	if (w->found == kernel_found)
		account_agreed(body, w->result);
	else
		account_walk(w->result | (kernel_found ? KERNEL_FOUND : 0));
	if (SETTING(body, by))
		account_by(w->result | (kernel_found ? KERNEL_FOUND : 0), w->owner);
}

#endif /* ACCOUNT_BPF_H */
