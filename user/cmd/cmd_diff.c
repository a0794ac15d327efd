// SPDX-License-Identifier: GPL-2.0
/*
 * `pftrace diff BEFORE.json AFTER.json`: is a change real? Per target,
 * the two chain-length histograms side by side, the rate change, and a
 * chi-square test of whether the two distributions of nodes walked
 * differ. It says "no significant difference" when that is the answer.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "fileio.h"
#include "hist.h"
#include "runfile.h"
#include "runtools.h"
#include "stats.h"

#define ALPHA 0.01   /* significance level of the test */
#define BAR 20

static void bar(FILE *f, __u64 v, __u64 max)
{
	int n = max ? (int)((v * BAR + max - 1) / max) : 0, i;

	for (i = 0; i < BAR; i++)
		fputc(i < n ? '*' : ' ', f);
}

/*
 * Both chain-length histograms in log2 buckets (0, 1, 2-3, 4-7, ...):
 * a dozen rows whatever the chains, where one row per length ran to
 * hundreds. The chi-square test below still sees every length.
 */
static void side_by_side(FILE *f, const struct target_report *a, const struct target_report *b)
{
	__u64 la[HIST_LOG2_BUCKETS], lb[HIST_LOG2_BUCKETS], ma = 0, mb = 0;
	int na = hist_log2(a->stats.chain_walked_hist, PFT_HIST_SLOTS, la);
	int nb = hist_log2(b->stats.chain_walked_hist, PFT_HIST_SLOTS, lb);
	int n = na > nb ? na : nb, k;

	for (k = 0; k < n; k++) {
		ma = la[k] > ma ? la[k] : ma;
		mb = lb[k] > mb ? lb[k] : mb;
	}
	fprintf(f, "  %13s : %-10s %-*s   %-10s\n", "nodes", "before", BAR, "", "after");
	for (k = 0; k < n; k++) {
		char range[24];

		hist_log2_range(k, range, sizeof(range));
		fprintf(f, "  %13s : %-10llu ", range, (unsigned long long)la[k]);
		bar(f, la[k], ma);
		fprintf(f, " | %-10llu ", (unsigned long long)lb[k]);
		bar(f, lb[k], mb);
		fputc('\n', f);
	}
}

static double rate(const struct target_report *t, double duration)
{
	return duration > 0 ? (double)t->stats.lookups / duration : 0;
}

static void change(FILE *f, const char *what, double a, double b, const char *fmt)
{
	fprintf(f, "  %-22s ", what);
	fprintf(f, fmt, a);
	fputs("  ", f);
	fprintf(f, fmt, b);
	if (a != 0)
		fprintf(f, "  %+.2f%%\n", 100.0 * (b - a) / a);
	else
		fputc('\n', f);
}

/* a figure in its run's column, "-" where the run has none */
static void column(FILE *f, bool known, double v, const char *fmt)
{
	if (known)
		fprintf(f, fmt, v);
	else
		fprintf(f, "%10s", "-");
}

/* a row where a run lacks the figure: the two columns, and no change */
static void row_unknown(FILE *f, const char *what, bool known_a, double a, bool known_b, double b,
			const char *fmt)
{
	fprintf(f, "  %-22s ", what);
	column(f, known_a, a, fmt);
	fputs("  ", f);
	column(f, known_b, b, fmt);
	fputc('\n', f);
}

/*
 * A figure of the walks: a run that walked nothing has none ("-", not
 * the -1 of an empty histogram's percentile), and then no change either.
 */
static void change_of_walks(FILE *f, const char *what, const struct target_report *ta, double a,
			    const struct target_report *tb, double b, const char *fmt)
{
	if (ta->sum.completed && tb->sum.completed)
		change(f, what, a, b, fmt);
	else
		row_unknown(f, what, ta->sum.completed, a, tb->sum.completed, b, fmt);
}

/* a change of a percentage is a difference in percentage points, not a ratio */
static void change_pp(FILE *f, const char *what, double a, double b)
{
	fprintf(f, "  %-22s %9.2f%%  %9.2f%%  %+.2f pp\n", what, a, b, b - a);
}

/* PART of WHOLE in percent for each run, "-" for a run with no WHOLE, and points between */
static void change_share(FILE *f, const char *what, __u64 part_a, __u64 whole_a, __u64 part_b,
			 __u64 whole_b)
{
	double a = whole_a ? 100.0 * (double)part_a / (double)whole_a : 0;
	double b = whole_b ? 100.0 * (double)part_b / (double)whole_b : 0;

	if (whole_a && whole_b)
		change_pp(f, what, a, b);
	else
		row_unknown(f, what, whole_a, a, whole_b, b, "%9.2f%%");
}

static const struct target_report *find(const struct run_report *r, const char *traced)
{
	int i;

	for (i = 0; i < r->ntargets; i++)
		if (!strcmp(r->targets[i].traced, traced))
			return &r->targets[i];
	return NULL;
}

static int diff_replay(FILE *f, const struct replay_summary *a, const struct replay_summary *b)
{
	static const char *const names[PFT_REPLAY_OPTS] = {
		"no prefetch", "prefetch every node", "prefetch if not NULL",
	};
	int o, significant = 0;

	fprintf(f, "\nreplay (%s, %s per lookup, medians)\n", a->mode,
		!strcmp(a->unit, "tsc") ? "TSC ticks" : "ns");
	if (strcmp(a->unit, b->unit) || strcmp(a->mode, b->mode)) {
		fprintf(f, "  not compared: %s/%s against %s/%s\n", a->mode, a->unit, b->mode, b->unit);
		return 0;
	}
	for (o = 0; o < PFT_REPLAY_OPTS; o++) {
		double p = mann_whitney_p(a->samples[o], a->reps, b->samples[o], b->reps);

		fprintf(f, "  %-22s %10.2f  %10.2f  %+.2f%%  %s (Mann-Whitney p = %.3g)\n", names[o],
			a->median[o], b->median[o], 100 * (b->median[o] - a->median[o]) / a->median[o],
			p < ALPHA ? "differs significantly" : "no significant difference", p);
		significant += p < ALPHA;
	}
	return significant;
}

int diff_runs(FILE *f, const struct run_report *a, const struct run_report *b,
	      const char *name_a, const char *name_b)
{
	struct chi_square chi;
	int i, significant = 0;

	fprintf(f, "before: %s (%s, %.2f s)\nafter:  %s (%s, %.2f s)\n", name_a, a->kernel_release,
		a->duration_s, name_b, b->kernel_release, b->duration_s);
	for (i = 0; i < a->ntargets; i++) {
		const struct target_report *ta = &a->targets[i], *tb = find(b, ta->traced);

		fprintf(f, "\n%s\n", ta->traced);
		if (!tb) {
			fprintf(f, "  only in %s\n", name_a);
			continue;
		}
		if (!ta->sum.self_check_ok || !tb->sum.self_check_ok) {
			fprintf(f, "  not compared: a self-check failed, the walks are not data\n");
			continue;
		}
		fprintf(f, "  %-22s %10s  %10s  %s\n", "", "before", "after", "change");
		change(f, "lookups/s", rate(ta, a->duration_s), rate(tb, b->duration_s), "%10.1f");
		change_of_walks(f, "mean nodes walked", ta, ta->sum.mean_walked, tb, tb->sum.mean_walked,
				"%10.3f");
		change_of_walks(f, "p99 nodes walked",
				ta, hist_percentile(ta->stats.chain_walked_hist, PFT_HIST_SLOTS, 0.99),
				tb, hist_percentile(tb->stats.chain_walked_hist, PFT_HIST_SLOTS, 0.99),
				"%10.0f");
		change_share(f, "hit rate", ta->stats.hits, ta->stats.lookups, tb->stats.hits,
			     tb->stats.lookups);
		change_share(f, "NULL prefetches", ta->sum.prefetch.null, ta->sum.prefetch.issued,
			     tb->sum.prefetch.null, tb->sum.prefetch.issued);
		side_by_side(f, ta, tb);
		chi_square_2xk(ta->stats.chain_walked_hist, tb->stats.chain_walked_hist,
			       PFT_HIST_SLOTS, &chi);
		if (!chi.df) {
			fprintf(f, "  chain lengths: too few distinct lengths to test; no significant "
				"difference shown\n");
		} else if (chi.p_value < ALPHA) {
			significant++;
			fprintf(f, "  chain lengths differ significantly: chi-square %.4g, df %d, "
				"p %s%.3g\n", chi.statistic, chi.df, chi.p_value < 1e-300 ? "< " : "= ",
				chi.p_value < 1e-300 ? 1e-300 : chi.p_value);
		} else {
			fprintf(f, "  chain lengths: no significant difference (chi-square %.4g, df %d, "
				"p = %.3g)\n", chi.statistic, chi.df, chi.p_value);
		}
	}
	for (i = 0; i < b->ntargets; i++)
		if (!find(a, b->targets[i].traced))
			fprintf(f, "\n%s\n  only in %s\n", b->targets[i].traced, name_b);
	if (a->replay.present && b->replay.present)
		significant += diff_replay(f, &a->replay, &b->replay);
	return significant;
}

int cmd_diff(int argc, char **argv)
{
	struct run_file a, b;
	char err[PFT_ERRLEN];

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cmd_print_help(stdout, &diff_cmd);
		return 0;
	}
	if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-') {
		fprintf(stderr, "pftrace: diff wants two run files: pftrace diff BEFORE.json AFTER.json\n");
		return 2;
	}
	if (runfile_read(argv[1], &a, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	if (runfile_read(argv[2], &b, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		runfile_free(&a);
		return 2;
	}
	/* the names from argv reach a terminal: escaped as the files' strings are */
	diff_runs(stdout, &a.rep, &b.rep, shown_path(argv[1]), shown_path(argv[2]));
	runfile_free(&a);
	runfile_free(&b);
	return fflush(stdout) ? 1 : 0;
}

static const struct opt_spec help_only_specs[] = {
	{ "help", 'h', NULL, "this text" },
	{ 0 },
};

const struct cmd_spec diff_cmd = {
	"diff", "diff BEFORE.json AFTER.json",
	"Compares two runs: chain-length histograms side by side, the changes in\n"
	"rate, walks, hits and NULL prefetches, and a chi-square test of whether\n"
	"the chain lengths differ.",
	help_only_specs,
};
