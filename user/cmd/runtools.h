/* SPDX-License-Identifier: GPL-2.0 */
/* Subcommands that work on run files, not on the kernel. */
#ifndef PFT_RUNTOOLS_H
#define PFT_RUNTOOLS_H

#include <stdio.h>
#include "fileio.h"   /* PFT_ERRLEN */
#include "report.h"

int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/* the block cmd_report prints, for tests */
void report_commit_text(FILE *f, const struct run_report *r);
/* the comparison cmd_diff prints; returns how many targets differ significantly */
int diff_runs(FILE *f, const struct run_report *a, const struct run_report *b,
	      const char *name_a, const char *name_b);
/*
 * Sum runs with the same targets into OUT (strings point into the
 * inputs; --by rows are the merge's own: merge_free()). Start-up phases
 * and samples are one run's each: OUT has none.
 */
int merge_runs(const struct run_report *const *runs, int n, const char *const *names,
	       struct run_report *out, char *err, size_t errlen);
void merge_free(struct run_report *out);

#endif
