/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole-table snapshots of a loaded target (bpf/snapshot.bpf.h), and the
 * lookups it counted by key. The target's object must have been loaded
 * with snapshot_prepare() called between open and load.
 */
#ifndef PFT_SNAPSHOT_H
#define PFT_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include "table.h"
#include "targets.h"

/* Before load: keep the snapshot program; with count_keys, size key_counts. */
int snapshot_prepare(struct target *t, bool count_keys, unsigned int key_limit,
		     char *err, size_t errlen);
/*
 * Walk every bucket, then walk again to tell whether the table changed
 * meanwhile. 0, or -errno with one line in err.
 */
int snapshot_take(struct target *t, struct table_snapshot *out, char *err, size_t errlen);
/* Copy the key counts into out (after the trace). 0 or -errno. */
int snapshot_read_counts(struct target *t, struct table_snapshot *out, int ncpus,
			 char *err, size_t errlen);

#endif
