// SPDX-License-Identifier: GPL-2.0
/*
 * `pftrace plot`: pictures of run files, as self-contained SVG.
 *
 *   pftrace plot RUN.json -o run.svg               chain lengths, hit positions
 *   pftrace plot BEFORE.json AFTER.json -o d.svg   the two overlaid, and diff's test
 *   pftrace plot INTERVALS.jsonl -o heat.svg       -i --format json's lines: a heat map
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "cli.h"
#include "commands.h"
#include "fileio.h"
#include "json_rules.h"
#include "plot_svg.h"
#include "runfile.h"
#include "stats.h"

enum { OPT_PLOT_TARGET = 't' };

static const struct opt_spec plot_opt_specs[] = {
	{ "output", 'o', "FILE.svg", "where the SVG goes (- for stdout)" },
	{ "target", 't', "FUNC", "the run's target to plot (default the first)" },
	{ "help", 'h', NULL, "this text" },
	{ 0 },
};

const struct cmd_spec plot_cmd = {
	"plot", "plot RUN.json [RUN2.json] -o FILE.svg [-t FUNC]",
	"Draws a run as SVG: its chain-length and hit-position histograms (log\n"
	"scale when the counts span decades); two runs overlaid, with diff's\n"
	"chi-square verdict; or, from the JSON lines of -i --format json, a heat\n"
	"map of chain length over time.",
	plot_opt_specs,
};

/* JSON lines of intervals are at most this large, and this many columns */
#define MAX_INTERVALS_BYTES (64u << 20)
#define MAX_INTERVALS 4096

/* The target FUNC (default the first) of a run or an interval, or NULL with the reason. */
static const struct target_report *pick(const struct run_report *r, const char *func,
					const char *name, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < r->ntargets; i++)
		if (!func || !strcmp(r->targets[i].traced, func) ||
		    !strcmp(r->targets[i].requested, func)) {
			if (!r->targets[i].sum.self_check_ok) {
				snprintf(err, errlen, "%s: %s failed its self-check; its walks are not "
					 "data", name, r->targets[i].traced);
				return NULL;
			}
			return &r->targets[i];
		}
	snprintf(err, errlen, "%s: no target %s", name, func ? func : "at all");
	return NULL;
}

/*
 * -i --format json's output: interval lines, then the run's own line.
 * Each line is read as a run file is (runfile_parse_line), with its
 * size and cost bounded per line; an embedded NUL is inside a line.
 */
static int plot_intervals(FILE *f, const char *path, const char *buf, size_t len,
			  const char *func, char *err, size_t errlen)
{
	__u64 *rows = calloc((size_t)MAX_INTERVALS * PFT_HIST_SLOTS, sizeof(*rows));
	struct run_file *rf = calloc(1, sizeof(*rf));
	const char *line = buf, *end = buf + len, *nl;
	char title[256], traced[64] = "", name[PFT_ERRLEN];
	double span = 0, interval_s;
	int n = 0, lineno = 0, got, rc = -EINVAL;

	if (!rows || !rf) {
		snprintf(err, errlen, "%s: out of memory", path);
		rc = -ENOMEM;
		goto out;
	}
	for (; line < end; line = nl + 1) {
		const struct target_report *t;

		nl = memchr(line, '\n', (size_t)(end - line));
		nl = nl ? nl : end;
		lineno++;
		if (nl == line)
			continue;   /* a blank line, the file's last newline */
		snprintf(name, sizeof(name), "%s: line %d", path, lineno);
		got = runfile_parse_line(line, (size_t)(nl - line), name, rf, &interval_s, err, errlen);
		if (got < 0)
			goto out;
		/* the last line is the whole run, not an interval */
		if (got == 0) {
			runfile_free(rf);
			continue;
		}
		t = pick(&rf->rep, func, name, err, errlen);
		if (!t || n == MAX_INTERVALS) {
			if (t)
				snprintf(err, errlen, "%s: more than %d intervals", name, MAX_INTERVALS);
			runfile_free(rf);
			goto out;
		}
		memcpy(rows + (size_t)n * PFT_HIST_SLOTS, t->stats.chain_walked_hist,
		       PFT_HIST_SLOTS * sizeof(*rows));
		snprintf(traced, sizeof(traced), "%s", t->traced);
		span = interval_s;
		n++;
		runfile_free(rf);
	}
	if (!n) {
		snprintf(err, errlen, "%s: no interval records (pftrace -i SECONDS --format json writes them)",
			 path);
		goto out;
	}
	snprintf(title, sizeof(title), "%s: nodes walked per lookup, every %.3g s", traced, span);
	plot_heatmap(f, title, rows, n, PFT_HIST_SLOTS, span);
	rc = 0;
out:
	free(rf);
	free(rows);
	return rc;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int plot_runs(FILE *f, const struct run_report *a, const char *name_a,
		     const struct run_report *b, const char *name_b, const char *func,
		     char *err, size_t errlen)
{
	const struct target_report *ta = pick(a, func, name_a, err, errlen), *tb = NULL;
	struct plot_panel panels[2] = {
		{ "nodes walked per lookup", "nodes walked", { { 0 } }, 0 },
		{ "position of the found entry in its chain", "position (1: the first node)", { { 0 } }, 0 },
	};
	char title[256], note[256], label_a[160], label_b[160];
	struct chi_square chi;
	int p;

	if (!ta)
		return -EINVAL;
	if (b && !(tb = pick(b, ta->traced, name_b, err, errlen)))
		return -EINVAL;
	snprintf(label_a, sizeof(label_a), "%s%s (%llu lookups)", b ? "before: " : "", base_name(name_a),
		 (unsigned long long)ta->stats.lookups);
	if (tb)
		snprintf(label_b, sizeof(label_b), "after: %s (%llu lookups)", base_name(name_b),
			 (unsigned long long)tb->stats.lookups);
	for (p = 0; p < 2; p++) {
		panels[p].series[0] = (struct plot_series){ label_a,
			p ? ta->stats.hit_pos_hist : ta->stats.chain_walked_hist, PFT_HIST_SLOTS };
		panels[p].nseries = 1;
		if (tb) {
			panels[p].series[1] = (struct plot_series){ label_b,
				p ? tb->stats.hit_pos_hist : tb->stats.chain_walked_hist, PFT_HIST_SLOTS };
			panels[p].nseries = 2;
		}
	}
	snprintf(title, sizeof(title), "%s, %s%s%s", ta->traced, a->kernel_release,
		 tb && strcmp(a->kernel_release, b->kernel_release) ? " and " : "",
		 tb && strcmp(a->kernel_release, b->kernel_release) ? b->kernel_release : "");
	note[0] = '\0';
	if (tb) {
		/* the same test diff prints, on the same counts */
		chi_square_2xk(ta->stats.chain_walked_hist, tb->stats.chain_walked_hist,
			       PFT_HIST_SLOTS, &chi);
		if (!chi.df)
			snprintf(note, sizeof(note), "chain lengths: too few distinct lengths to test");
		else
			snprintf(note, sizeof(note), "chain lengths %s: chi-square %.4g, df %d, p %s%.3g",
				 chi.p_value < 0.01 ? "differ significantly" : "show no significant difference",
				 chi.statistic, chi.df, chi.p_value < 1e-300 ? "< " : "= ",
				 chi.p_value < 1e-300 ? 1e-300 : chi.p_value);
	}
	plot_histograms(f, title, panels, ta->stats.walk_hits || (tb && tb->stats.walk_hits) ? 2 : 1,
			note[0] ? note : NULL);
	return 0;
}

/* a file whose first line is an interval record: -i --format json's output */
static bool is_intervals(const char *buf, size_t len)
{
	const char *nl = memchr(buf, '\n', len);
	struct json_object *rec, *v;
	char why[160];
	bool yes;

	/* a pretty-printed run file's first line, "{", is no JSON of its own */
	rec = json_parse_bounded(buf, nl ? (size_t)(nl - buf) : len, RUNFILE_MAX_BYTES, why, sizeof(why));
	yes = rec && json_object_is_type(rec, json_type_object) &&
	      json_object_object_get_ex(rec, "interval_s", &v);
	json_object_put(rec);
	return yes;
}

/* -o and -t, and the run files from argv[optind]: 0, 2 (refused) or -1 (help printed). */
static int parse_plot_opts(int argc, char **argv, const char **out, const char **func)
{
	struct opt_parser parser;
	char err[PFT_ERRLEN];
	int c, nfiles;

	opts_begin(&parser, plot_opt_specs, false);
	while ((c = opts_next(&parser, argc, argv)) != -1) {
		switch (c) {
		case 'h':
			cmd_print_help(stdout, &plot_cmd);
			return -1;
		case 'o':
			*out = optarg;
			break;
		case 't':
			*func = optarg;
			break;
		case ':':
			return pft_refuse("plot", "option '%s' needs a value", pft_optname(argv));
		default:
			return pft_refuse("plot", "%s", pft_unknown_option(plot_opt_specs, argv));
		}
	}
	nfiles = argc - optind;
	if (nfiles < 1 || nfiles > 2)
		return pft_refuse("plot", "plot wants one run file, or two to compare, or -i's JSON lines");
	if (!*out)
		return pft_refuse("plot", "give -o FILE.svg (- for stdout)");
	if (!output_is_stdout(*out) && (strlen(*out) < 4 || strcmp(*out + strlen(*out) - 4, ".svg")))
		return pft_refuse("plot", "-o %s: plot writes SVG, to a name ending in .svg", *out);
	if (!output_is_stdout(*out) && check_output_path(*out, err, sizeof(err)))
		return pft_refuse("plot", "%s", err);
	return 0;
}

/*
 * The SVG of FILES (one or two) into F: a heat map of -i's lines, or the
 * runs' histograms. 0, or 2 with the reason printed; RUNS holds *NREAD
 * run files read.
 */
static int draw(FILE *f, char **files, int nfiles, const char *func, struct run_file *runs,
		int *nread)
{
	char err[PFT_ERRLEN], *buf = NULL;
	size_t len = 0;
	int rc = 2;

	if (read_regular_file("", files[0], MAX_INTERVALS_BYTES, &buf, &len, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	if (is_intervals(buf, len)) {
		if (nfiles != 1)
			rc = pft_refuse("plot", "a heat map is of one run's intervals");
		/* the name, from argv, reaches a terminal in the refusals */
		else if (plot_intervals(f, shown_path(files[0]), buf, len, func, err, sizeof(err)))
			fprintf(stderr, "pftrace: %s\n", err);
		else
			rc = 0;
		free(buf);
		return rc;
	}
	free(buf);
	for (; *nread < nfiles; (*nread)++)
		if (runfile_read(files[*nread], &runs[*nread], err, sizeof(err))) {
			fprintf(stderr, "pftrace: %s\n", err);
			return 2;
		}
	if (plot_runs(f, &runs[0].rep, shown_path(files[0]), nfiles > 1 ? &runs[1].rep : NULL,
		      nfiles > 1 ? shown_path(files[1]) : NULL, func, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	const char *out = NULL, *func = NULL;
	struct run_file *runs = NULL;
	char err[PFT_ERRLEN], *svg = NULL;
	size_t svglen = 0;
	FILE *f = NULL;
	int rc, i, nread = 0;

	rc = parse_plot_opts(argc, argv, &out, &func);
	if (rc)
		return rc < 0 ? 0 : rc;
	f = open_memstream(&svg, &svglen);
	runs = calloc(2, sizeof(*runs));
	if (!f || !runs) {
		fprintf(stderr, "pftrace: plot: out of memory\n");
		rc = 1;
		goto out;
	}
	rc = draw(f, argv + optind, argc - optind, func, runs, &nread);
	if (rc)
		goto out;
	if (fclose(f)) {
		f = NULL;
		fprintf(stderr, "pftrace: plot: out of memory\n");
		rc = 1;
		goto out;
	}
	f = NULL;
	rc = write_file_atomic(out, svg, svglen, err, sizeof(err)) ? 1 : 0;
	if (rc)
		fprintf(stderr, "pftrace: %s\n", err);
out:
	if (f)
		fclose(f);
	for (i = 0; i < nread; i++)
		runfile_free(&runs[i]);
	free(runs);
	free(svg);
	return rc;
}
