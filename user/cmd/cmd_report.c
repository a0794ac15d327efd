// SPDX-License-Identifier: GPL-2.0
/*
 * `pftrace report RUN.json`: the run as text for a commit message
 * (render/report_commit.c), then, for each table with a snapshot and counted
 * lookups, whether a bigger table or another hash would pay off here
 * (whatif's verdicts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "fileio.h"
#include "hash_cost.h"
#include "runfile.h"
#include "report_commit.h"
#include "whatif_render.h"

enum { OPT_FORMAT = 256 };

const struct opt_spec report_opt_specs[] = {
	{ "format", OPT_FORMAT, "FORMAT", "text (default), json, openmetrics, prometheus, or csv:\n"
					  "traced,histogram,nodes,count, one row per bucket" },
	{ "help", 'h', NULL, "this text" },
	{ 0 },
};

const struct cmd_spec report_cmd = {
	"report", "report RUN.json [--format text|json|openmetrics|prometheus|csv]",
	"The run as a 72-column block for a commit message, then, for each table\n"
	"with a snapshot and counted lookups, whether another size or hash pays off.\n"
	"The other formats give the run file's data for other tools.",
	report_opt_specs,
};

/*
 * One CSV field (RFC 4180): quoted, its quotes doubled, when it holds a
 * comma, a quote or a line break. A leading = + - @ (or tab, CR) would
 * make a spreadsheet run it as a formula: a quote mark before it keeps
 * it text (OWASP's CSV injection advice). Records end in LF, as text
 * tools on Linux expect; RFC 4180 readers take either.
 */
static void csv_field(FILE *f, const char *s)
{
	bool formula = s[0] && strchr("=+-@\t\r", s[0]);

	if (!formula && !strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* one row per non-empty bucket of both histograms of every target */
static void report_csv(FILE *f, const struct run_report *r)
{
	int i, v;

	fprintf(f, "traced,histogram,nodes,count\n");
	for (i = 0; i < r->ntargets; i++) {
		const struct target_report *t = &r->targets[i];

		if (!t->sum.self_check_ok)
			continue;   /* its walks are not data, here either */
		for (v = 0; v < PFT_HIST_SLOTS; v++)
			if (t->stats.chain_walked_hist[v]) {
				csv_field(f, t->traced);
				fprintf(f, ",chain_walked,%d,%llu\n", v,
					(unsigned long long)t->stats.chain_walked_hist[v]);
			}
		for (v = 0; v < PFT_HIST_SLOTS; v++)
			if (t->stats.hit_pos_hist[v]) {
				csv_field(f, t->traced);
				fprintf(f, ",hit_position,%d,%llu\n", v,
					(unsigned long long)t->stats.hit_pos_hist[v]);
			}
	}
}

/*
 * Each table with a snapshot and counted lookups, its own layout against
 * each other hash and a table twice the size: whether one pays off here.
 */
static void report_verdicts(FILE *f, const struct run_report *r)
{
	struct whatif_table *w = malloc(sizeof(*w));
	int i;

	for (i = 0; w && i < r->ntargets; i++) {
		if (!whatif_weigh_report(w, &r->targets[i], hash_costs_here()))
			whatif_print_report(f, w);
		whatif_table_free(w);
	}
	free(w);
}

int cmd_report(int argc, char **argv)
{
	struct run_file rf;
	struct opt_parser parser;
	const char *format = "text";
	char err[PFT_ERRLEN];
	int c;

	opts_begin(&parser, report_opt_specs, false);
	while ((c = opts_next(&parser, argc, argv)) != -1) {
		switch (c) {
		case 'h':
			cmd_print_help(stdout, &report_cmd);
			return 0;
		case ':':
			return pft_refuse("report", "option '%s' needs a value", pft_optname(argv));
		case '?':
			return pft_refuse("report", "%s", pft_unknown_option(report_opt_specs, argv));
		default:
			format = optarg;
			if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "csv") &&
			    strcmp(format, "openmetrics") && strcmp(format, "prometheus"))
				return pft_refuse("report", "--format wants text, json, openmetrics, "
						  "prometheus or csv, not '%s'", format);
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "pftrace: report wants one run file: pftrace report RUN.json\n");
		return 2;
	}
	if (runfile_read(argv[optind], &rf, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	if (!strcmp(format, "text")) {
		report_commit_text(stdout, &rf.rep);
		report_verdicts(stdout, &rf.rep);
	} else if (!strcmp(format, "csv")) {
		report_csv(stdout, &rf.rep);
	} else {
		report_print(&rf.rep, !strcmp(format, "json") ? FORMAT_JSON :
				      !strcmp(format, "openmetrics") ? FORMAT_OPENMETRICS : FORMAT_PROMETHEUS);
	}
	runfile_free(&rf);
	return fflush(stdout) ? 1 : 0;
}
