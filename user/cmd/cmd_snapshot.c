// SPDX-License-Identifier: GPL-2.0
/*
 * pftrace snapshot: a trace whose point is the whole table (--snapshot),
 * attaching nothing unless asked to trace for a while (-d, COMMAND). It
 * takes the trace command's options (cli.c), and its run file is what
 * pftrace whatif reads.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "session.h"
#include "trace_opts.h"

/* -h or --help before any "--": the help of snapshot, not of the trace command */
static bool asks_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

int cmd_snapshot(int argc, char **argv)
{
	struct trace_opts o;
	char cmdline[sizeof(o.cmdline)];
	int rc;

	if (asks_help(argc, argv))
		return cmd_help(2, (char *[]){ "help", "snapshot", NULL });
	rc = parse_trace_opts(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	snprintf(cmdline, sizeof(cmdline), "pftrace snapshot%s", o.cmdline + strlen("pftrace"));
	memcpy(o.cmdline, cmdline, sizeof(o.cmdline));
	o.snapshot = true;
	o.no_samples = true;
	o.snapshot_only = !o.duration_s && !o.command;
	if (o.snapshot_only && o.interval_s)
		return pft_refuse("snapshot", "-i needs -d or a COMMAND to trace for");
	return run_trace(&o);
}
