/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One option table per subcommand, retsnoop's cfg_spec in small: each
 * row names the option, its argument and its help line, and the same
 * table gives getopt_long() its arrays and --help its text (and so a
 * man page or completions, which are printed from it too).
 */
#ifndef PFT_OPTS_H
#define PFT_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#define PFT_MAX_OPTS 32

struct opt_spec {
	const char *name;     /* long name: "duration" */
	int key;              /* the short letter (< 128), or an id >= 256 for long-only */
	const char *arg;      /* "SECONDS"; NULL for a flag */
	const char *help;     /* one line; may hold "\n" for a second one */
};

/* A subcommand: its name, synopsis and options (ended by a zeroed row). */
struct cmd_spec {
	const char *name;             /* NULL for the trace command itself */
	const char *synopsis;         /* after "pftrace " */
	const char *summary;          /* one sentence */
	const struct opt_spec *opts;
};

/* getopt_long()'s arrays, made from a table */
struct opt_parser {
	struct option longopts[PFT_MAX_OPTS + 1];
	char shortopts[2 * PFT_MAX_OPTS + 4];
};

/*
 * Fill P from SPECS and start getopt afresh (errors are ours to print:
 * ':' reports a missing value). IN_ORDER stops at the first argument
 * that is not an option, so that a command after -- keeps its own.
 */
void opts_begin(struct opt_parser *p, const struct opt_spec *specs, bool in_order);
/* The next option, as getopt_long() returns it; -1 at the end. */
int opts_next(struct opt_parser *p, int argc, char **argv);
/* The options block of --help. */
void opts_print_help(FILE *f, const struct opt_spec *specs);
/* "Usage:" and the options of one subcommand. */
void cmd_print_help(FILE *f, const struct cmd_spec *cmd);

#endif
