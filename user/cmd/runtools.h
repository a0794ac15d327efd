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
/* Sum runs with the same targets into OUT (strings point into the inputs). */
int merge_runs(const struct run_report *const *runs, int n, const char *const *names,
	       struct run_report *out, char *err, size_t errlen);

#endif
