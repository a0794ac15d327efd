/* SPDX-License-Identifier: GPL-2.0 */
/* What diff and merge do to run files, for the tests. */
#ifndef PFT_RUNTOOLS_H
#define PFT_RUNTOOLS_H

#include <stdio.h>
#include "fileio.h"   /* PFT_ERRLEN */
#include "report.h"

/* the comparison cmd_diff prints; returns how many targets differ significantly */
int diff_runs(FILE *f, const struct run_report *a, const struct run_report *b,
	      const char *name_a, const char *name_b);
/*
 * Runs of the same targets added up, one at a time: merge_begin() with
 * the first (whose strings the sum points into: it stays read),
 * merge_add() for each run, the first included, then merge_end(); the
 * sum is in out. A run added may be freed at once, so that a merge of
 * 100,000 files holds one at a time. Start-up phases, samples,
 * snapshots, latency fits and replays are one run's each: the sum has
 * none, and left_out says which the runs had.
 */
struct merge {
	struct run_report out;
	const struct run_report *first;
	char first_name[PFT_SHOWN_PATH];
	bool cpu_known;
	bool walk_known[PFT_MAX_TARGETS];
	struct by_report by[PFT_MAX_TARGETS];   /* the sum's --by rows, owned */
	struct {
		bool phases, samples, snapshots, latency_fits, replays;
	} left_out;
};
int merge_begin(struct merge *mg, const struct run_report *first, const char *first_name,
		char *err, size_t errlen);
int merge_add(struct merge *mg, const struct run_report *r, const char *path, char *err,
	      size_t errlen);
void merge_end(struct merge *mg);
void merge_free(struct merge *mg);
/* The same over an array of runs at once (OUT's --by rows last until the next call). */
int merge_runs(const struct run_report *const *runs, int n, const char *const *names,
	       struct run_report *out, char *err, size_t errlen);

#endif
