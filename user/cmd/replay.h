/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `pftrace replay`: rebuild, in user space, hash chains that follow a
 * recorded (or synthetic) distribution and time the same walk without
 * prefetch, with prefetch(pos->next) at every node, and with the
 * prefetch only when next is not NULL: what each would cost on this CPU.
 */
#ifndef PFT_REPLAY_H
#define PFT_REPLAY_H

#include <stddef.h>
#include <stdint.h>

struct replay_node {
	struct replay_node *next;
	uint64_t key;
	/* padding to the traced kernel object's size follows (node_bytes) */
};

struct replay_bucket {
	struct replay_node *first;
};

struct replay_lookup {
	uint32_t bucket;
	uint64_t key;
};

typedef unsigned long (*replay_walk_fn)(struct replay_bucket *table,
					const struct replay_lookup *seq, size_t n);

unsigned long replay_walk_none(struct replay_bucket *, const struct replay_lookup *, size_t);
unsigned long replay_walk_every_node(struct replay_bucket *, const struct replay_lookup *, size_t);
unsigned long replay_walk_nonnull_only(struct replay_bucket *, const struct replay_lookup *, size_t);

#endif
