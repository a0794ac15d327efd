/* SPDX-License-Identifier: GPL-2.0 */
/* Statistics for reports and diffs: percentiles of a histogram, chi-square. */
#ifndef PFT_STATS_H
#define PFT_STATS_H

#include <linux/types.h>

/* Smallest value v with at least P (0..1) of the counts at or below v; -1 if empty. */
int hist_percentile(const __u64 *slots, int nslots, double p);

struct chi_square {
	double statistic;
	int df;          /* 0: nothing to compare */
	double p_value;
	int bins;        /* after merging sparse bins */
};

/*
 * Test of homogeneity: do two histograms (counts per value) come from
 * the same distribution? Adjacent bins are merged until every expected
 * count is at least 5, the textbook condition for the approximation.
 */
void chi_square_2xk(const __u64 *a, const __u64 *b, int nslots, struct chi_square *out);
/* P(X >= x) for X chi-square distributed with df degrees of freedom. */
double chi_square_p(double x, int df);

/*
 * Mann-Whitney U test (normal approximation, ties averaged): do two sets
 * of timings come from the same distribution? Two-sided p-value.
 */
double mann_whitney_p(const double *a, int na, const double *b, int nb);

/* A median and a 95% interval of it, from order statistics (n <= 256). */
struct estimate {
	double median, lo, hi;
};
struct estimate estimate(const double *v, int n);

#endif
