// SPDX-License-Identifier: GPL-2.0
/*
 * pftrace: measure hash-chain walks in the running kernel.
 *
 *   pftrace -f FUNC ...      trace (user/cmd/cli.c, user/trace/session.c)
 *   pftrace COMMAND ...      the others (user/cmd/cmd_COMMAND.c, by commands.c's table)
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "cli.h"
#include "commands.h"
#include "kernel.h"
#include "output.h"
#include "session.h"

static int run(int argc, char **argv);

/*
 * Every command's output checked to its end: a command whose stdout was
 * lost (a full disk) fails, exit 1 and one line, whatever it printed
 * and whether or not it checked its own writes. A refusal (2) stands.
 */
int main(int argc, char **argv)
{
	char err[PFT_ERRLEN];
	int rc;

	/* the kernel's facts come from where they should, or nothing runs */
	if (kallsyms_env_check(err, sizeof(err)))
		return pft_refuse(NULL, "%s", err);
	rc = run(argc, argv);

	if (stdout_close(err, sizeof(err)) && rc != 2) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 1;
	}
	return rc;
}

static int run(int argc, char **argv)
{
	const struct command *c;
	struct trace_opts opts;
	const char *close;
	int rc;

	session_mark_process_start();
	/*
	 * Every parse of the kernel's BTF (3 to 6 MB, up to one per target
	 * loaded) in its own mappings, handed back whole when freed. A fixed
	 * threshold stops glibc raising it after the first big free, which
	 * served the next parses from a heap that never shrinks: peak RSS
	 * 17.5 against 14.1 MB for one table on 7.2-rt.
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	/*
	 * 15 significant digits: 19216.3, not json-c's 19216.299999999999.
	 * Every double pftrace writes is a measurement or a model's output,
	 * none has 17 digits worth keeping.
	 */
	json_c_set_serialization_double_format("%.15g", JSON_C_OPTION_GLOBAL);
	if (argc > 1 && argv[1][0] != '-') {
		c = command_named(argv[1]);
		if (c)
			return c->run(argc - 1, argv + 1);
		if (!strcmp(argv[1], "version")) {
			printf("pftrace %s\n", PFTRACE_VERSION_LONG);
			return 0;
		}
		if (!strcmp(argv[1], "help"))
			return cmd_help(argc - 1, argv + 1);
		if (!strcmp(argv[1], "__doc"))
			return cmd_doc(argc - 1, argv + 1);
		close = suggest_command(argv[1]);
		if (close)
			fprintf(stderr, "pftrace: unknown command '%s'; did you mean %s?\n", argv[1], close);
		else
			fprintf(stderr, "pftrace: unknown command '%s' (see pftrace --help)\n", argv[1]);
		return 2;
	}
	rc = parse_trace_opts(argc, argv, &opts);
	if (rc)
		return rc < 0 ? 0 : rc;
	return run_trace(&opts);
}
