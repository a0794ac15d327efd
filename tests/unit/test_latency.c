// SPDX-License-Identifier: GPL-2.0
/* --latency's model: quantiles of the bucketed times and the per-node fit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cmocka_prelude.h"
#include "latency.h"

/* N lookups of NODES nodes spread evenly over [lo, lo + width) ns */
static void fill(struct latency_stats *s, int nodes, unsigned int n, double lo, double width)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		double t = lo + width * (i + 0.5) / n;

		int b = (int)t >> s->shift;

		/* as BPF does: the last bucket takes all beyond */
		s->hist[nodes][b < PFT_LAT_BUCKETS ? b : PFT_LAT_BUCKETS - 1]++;
		s->count[nodes]++;
		s->sum[nodes] += (__u64)t;
	}
}

static void test_fit_recovers_a_line(void **state)
{
	struct latency_stats *s = calloc(1, sizeof(*s));
	struct latency_row rows[PFT_LAT_NODES];
	struct latency_fit fit;
	int n;

	s->unit = PFT_LAT_NS;
	s->shift = 2;
	/* 100 ns fixed + 9 ns per node, each group 16 ns wide */
	for (n = 0; n < 20; n++)
		fill(s, n, 400, 100 + 9.0 * n - 8, 16);
	/* an interrupt-struck few a mean would feel, a median not */
	fill(s, 5, 3, 3000, 4);
	latency_fit(s, &fit);
	assert_true(fit.ok);
	assert_int_equal(fit.points, 20);
	assert_true(fabs(fit.per_node - 9) < 0.2);
	assert_true(fabs(fit.fixed - 100) < 2);
	assert_true(fit.per_node_lo <= fit.per_node && fit.per_node <= fit.per_node_hi);
	assert_true(fit.per_node_lo > 8 && fit.per_node_hi < 10);
	assert_false(latency_fit_poor(&fit));
	assert_true(fit.residual < 1);
	assert_int_equal(fit.past_range, 0);
	assert_int_equal(latency_rows(s, rows), 20);
	assert_true(fabs(rows[5].median - 145) < 2);
	assert_true(rows[5].mean > rows[5].median + 10);
	/* the calibrated overhead comes off every time, not off the slope */
	s->overhead = 50;
	s->overhead_known = true;
	latency_fit(s, &fit);
	assert_true(fabs(fit.fixed - 50) < 2 && fabs(fit.per_node - 9) < 0.2);
	free(s);
}

static void test_too_few_points(void **state)
{
	struct latency_stats *s = calloc(1, sizeof(*s));
	struct latency_fit fit;

	s->shift = 2;
	fill(s, 1, 100, 100, 8);
	fill(s, 2, 4, 110, 8);   /* under 5 lookups: left out */
	latency_fit(s, &fit);
	assert_false(fit.ok);
	assert_int_equal(fit.points, 1);
	free(s);
}

/*
 * Groups whose median lies in the last bucket say "at least the range",
 * not a time: they stay out of the fit, and are counted. Groups that
 * wander off the line (an emulated machine) make it a poor fit.
 */
static void test_past_range_and_scatter(void **state)
{
	struct latency_stats *s = calloc(1, sizeof(*s));
	struct latency_fit fit;
	int n;

	s->unit = PFT_LAT_NS;
	s->shift = 2;   /* 4,096 ns */
	for (n = 1; n < 10; n++)
		fill(s, n, 400, 500 + 20.0 * n, 16);
	for (n = 10; n < 13; n++)
		fill(s, n, 400, 5000, 16);   /* all in the last bucket */
	latency_fit(s, &fit);
	assert_true(fit.ok);
	assert_int_equal(fit.points, 9);
	assert_int_equal(fit.past_range, 3);
	assert_true(fabs(fit.per_node - 20) < 0.5);
	/* now the groups alternate 300 ns above and below the line */
	memset(s->hist, 0, sizeof(s->hist));
	memset(s->count, 0, sizeof(s->count));
	for (n = 1; n < 10; n++)
		fill(s, n, 400, 500 + 20.0 * n + (n % 2 ? 300 : -300), 16);
	latency_fit(s, &fit);
	assert_true(fit.ok);
	assert_true(latency_fit_poor(&fit));
	assert_true(fabs(fit.residual - 300) < 30);
	assert_true(fit.per_node_lo <= fit.per_node && fit.per_node <= fit.per_node_hi);
	assert_true(fit.per_node_hi - fit.per_node_lo > 20);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_recovers_a_line),
		cmocka_unit_test(test_too_few_points),
		cmocka_unit_test(test_past_range_and_scatter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
