// SPDX-License-Identifier: GPL-2.0
/*
 * pftrace: measure hash-chain walks in the running kernel.
 *
 *   pftrace -f FUNC ...      trace (user/trace/session.c)
 *   pftrace features         what this kernel offers (user/cmd/cmd_features.c)
 *   pftrace list             recipes and how each attaches (user/cmd/list.c)
 *   pftrace report|diff|merge   run files (user/cmd_*.c)
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_features.h"
#include "list.h"
#include "replay.h"
#include "runtools.h"
#include "session.h"
#include "sites.h"
#include "whatif.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} subcommands[] = {
	{ "features", cmd_features },
	{ "list", cmd_list },
	{ "report", cmd_report },
	{ "diff", cmd_diff },
	{ "merge", cmd_merge },
	{ "replay", cmd_replay },
	{ "sites", cmd_sites },
	{ "snapshot", cmd_snapshot },
	{ "whatif", cmd_whatif },
};

int main(int argc, char **argv)
{
	struct trace_opts opts;
	size_t i;
	int rc;

	session_mark_process_start();
	if (argc > 1) {
		for (i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
			if (!strcmp(argv[1], subcommands[i].name))
				return subcommands[i].run(argc - 1, argv + 1);
		if (!strcmp(argv[1], "version")) {
			printf("pftrace %s\n", PFTRACE_VERSION);
			return 0;
		}
		if (!strcmp(argv[1], "help")) {
			print_usage(stdout);
			return 0;
		}
		if (argv[1][0] != '-') {
			fprintf(stderr, "pftrace: unknown command '%s' (see pftrace --help)\n", argv[1]);
			return 2;
		}
	}
	rc = parse_trace_opts(argc, argv, &opts);
	if (rc)
		return rc < 0 ? 0 : rc;
	return run_trace(&opts);
}
