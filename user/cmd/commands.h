/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every command pftrace has, each with its one option table: --help,
 * `pftrace help`, the man page and the shell completions are all made
 * from these (pftrace __doc prints the last two for the build).
 */
#ifndef PFT_COMMANDS_H
#define PFT_COMMANDS_H

#include <stddef.h>
#include "opts.h"

extern const struct opt_spec trace_opt_specs[];
extern const struct opt_spec common_opt_specs[];
extern const struct cmd_spec trace_cmd, snapshot_cmd, features_cmd, list_cmd, report_cmd,
	diff_cmd, merge_cmd, replay_cmd, sites_cmd, whatif_cmd, plot_cmd;

struct command {
	const struct cmd_spec *spec;     /* spec->name NULL: the trace command itself */
	int (*run)(int argc, char **argv);
};

extern const struct command commands[];
extern const size_t ncommands;

/* The subcommand called NAME, or NULL. */
const struct command *command_named(const char *name);
/* The subcommand NAME is likely a typo of, or NULL. */
const char *suggest_command(const char *name);

/* The commands, one file each: cmd_NAME.c (the trace command: cli.c, session.c). */
int cmd_features(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_sites(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_plot(int argc, char **argv);
/* pftrace help [COMMAND] */
int cmd_help(int argc, char **argv);
/* pftrace __doc scd|bash|zsh|options: the man page's commands, the completions */
int cmd_doc(int argc, char **argv);

#endif
