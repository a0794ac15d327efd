// SPDX-License-Identifier: GPL-2.0
/*
 * `pftrace report RUN.json`: the run as text for a commit message
 * (report_commit.c), then, for each table with a snapshot and counted
 * lookups, whether a bigger table or another hash would pay off here
 * (whatif's verdicts).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "runfile.h"
#include "runtools.h"
#include "whatif.h"

int cmd_report(int argc, char **argv)
{
	struct run_file rf;
	char err[PFT_ERRLEN];

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cmd_print_help(stdout, &report_cmd);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "pftrace: report wants one run file: pftrace report RUN.json\n");
		return 2;
	}
	if (runfile_read(argv[1], &rf, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	report_commit_text(stdout, &rf.rep);
	report_verdicts(stdout, &rf.rep);
	runfile_free(&rf);
	return fflush(stdout) ? 1 : 0;
}
