/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PFT_REPORT_COMMIT_H
#define PFT_REPORT_COMMIT_H

#include <stdio.h>
#include "report.h"

/* pftrace report's text: the run in 72 columns, for a commit message */
void report_commit_text(FILE *f, const struct run_report *r);

#endif
