// SPDX-License-Identifier: GPL-2.0
/*
 * The hash-chain walk the replay times, compiled three times by the
 * Makefile with REPLAY_PREFETCH set to:
 *   0  no prefetch (what kernels do since 3.0)
 *   1  prefetch(pos->next) at every node, as hlist_for_each_entry() did
 *      before 3.0: the last one of a chain is a prefetch of NULL
 *   2  the prefetch only when pos->next is not NULL
 * and nothing else differs. The build disassembles the three objects
 * and checks that only 1 and 2 contain a prefetch instruction.
 */
#include <stddef.h>

#include "replay.h"

#if REPLAY_PREFETCH == 0
#define WALK_NAME replay_walk_none
#define PREFETCH_NEXT(pos) do { } while (0)
#elif REPLAY_PREFETCH == 1
#define WALK_NAME replay_walk_every_node
#define PREFETCH_NEXT(pos) __builtin_prefetch((pos)->next)
#else
#define WALK_NAME replay_walk_nonnull_only
#define PREFETCH_NEXT(pos) do { if ((pos)->next) __builtin_prefetch((pos)->next); } while (0)
#endif

/* Walk every lookup of the sequence once; returns how many hit. */
unsigned long WALK_NAME(struct replay_bucket *table, const struct replay_lookup *seq, size_t n)
{
	unsigned long found = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct replay_node *pos;

		/* the shape of hlist_for_each_entry(): test, prefetch, compare */
		for (pos = table[seq[i].bucket].first; pos; pos = pos->next) {
			PREFETCH_NEXT(pos);
			if (pos->key == seq[i].key) {
				found++;
				break;
			}
		}
	}
	return found;
}
