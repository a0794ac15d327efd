/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PFT_WHATIF_H
#define PFT_WHATIF_H

#include <stdio.h>

/* pftrace snapshot -f FUNC [-d SECONDS] [-o FILE] [-- COMMAND...] */
int cmd_snapshot(int argc, char **argv);
/* pftrace whatif RUN.json [-t FUNC] [--bits LIST] [--hash LIST] */
int cmd_whatif(int argc, char **argv);

struct run_report;
/*
 * For pftrace report: each table with a snapshot and counted lookups,
 * its own layout against each other hash and a table twice the size.
 */
void report_verdicts(FILE *f, const struct run_report *r);

#endif
