// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "latency.h"

const char *latency_unit_name(enum pft_lat_unit u)
{
	return u == PFT_LAT_CYCLES ? "cycles" : u == PFT_LAT_NS ? "ns" : "off";
}

void latency_sum(struct latency_stats *s, const struct lat_counters *percpu, int ncpus)
{
	int c, n;

	memset(s->count, 0, sizeof(s->count));
	memset(s->sum, 0, sizeof(s->sum));
	s->lost = s->migrated = 0;
	for (c = 0; c < ncpus; c++) {
		const struct lat_counters *l = &percpu[c];

		s->lost += l->lost;
		s->migrated += l->migrated;
		for (n = 0; n < PFT_LAT_NODES; n++) {
			s->count[n] += l->count[n];
			s->sum[n] += l->sum[n];
		}
	}
}

void latency_sum_hist(struct latency_stats *s, int nodes, const struct lat_hist *percpu, int ncpus)
{
	int c, b;

	for (c = 0; c < ncpus; c++)
		for (b = 0; b < PFT_LAT_BUCKETS; b++)
			s->hist[nodes][b] += percpu[c].bucket[b];
}

double latency_quantile(const struct latency_stats *s, int nodes, double q)
{
	double width = ldexp(1.0, (int)s->shift), target, seen = 0, total = 0;
	int b;

	for (b = 0; b < PFT_LAT_BUCKETS; b++)
		total += (double)s->hist[nodes][b];
	if (total <= 0)
		return 0;
	target = q * total;
	for (b = 0; b < PFT_LAT_BUCKETS; b++) {
		double h = (double)s->hist[nodes][b];

		if (h > 0 && seen + h >= target)
			return width * ((double)b + (target - seen) / h) -
			       (s->overhead_known ? s->overhead : 0);
		seen += h;
	}
	return width * PFT_LAT_BUCKETS;
}

int latency_rows(const struct latency_stats *s, struct latency_row rows[PFT_LAT_NODES])
{
	int n, k = 0;

	for (n = 0; n < PFT_LAT_NODES; n++) {
		if (!s->count[n])
			continue;
		rows[k].nodes = n;
		rows[k].count = s->count[n];
		rows[k].median = latency_quantile(s, n, 0.5);
		rows[k].p90 = latency_quantile(s, n, 0.9);
		rows[k].mean = (double)s->sum[n] / (double)s->count[n] -
			       (s->overhead_known ? s->overhead : 0);
		rows[k].past_range = latency_quantile(s, n, 0.9) + (s->overhead_known ? s->overhead : 0) >=
				     ldexp(1.0, (int)s->shift) * (PFT_LAT_BUCKETS - 1);
		k++;
	}
	return k;
}

bool latency_fit_poor(const struct latency_fit *fit)
{
	return fit->ok && (fit->per_node <= 0 || fit->residual > RESIDUAL_POOR_NODES * fit->per_node);
}

/* Student's t, 97.5th percentile, for DF degrees of freedom */
static double t975(int df)
{
	static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
				    2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
				    2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
				    2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };

	return df < 1 ? t[1] : df <= 30 ? t[df] : 1.96 + 2.4 / df;
}

void latency_fit(const struct latency_stats *s, struct latency_fit *fit)
{
	double x[PFT_LAT_NODES], y[PFT_LAT_NODES], w[PFT_LAT_NODES];
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, chi = 0, xm, ym, se, z = 1.96;
	int n, k = 0, i;

	memset(fit, 0, sizeof(*fit));
	for (n = 0; n < PFT_LAT_NODES - 1; n++) {
		double sd, iqr;

		if (s->count[n] < 5)
			continue;
		if (latency_quantile(s, n, 0.5) + (s->overhead_known ? s->overhead : 0) >=
		    ldexp(1.0, (int)s->shift) * (PFT_LAT_BUCKETS - 1)) {
			fit->past_range++;
			continue;
		}
		iqr = latency_quantile(s, n, 0.75) - latency_quantile(s, n, 0.25);
		/* a floor of one bucket: a group inside one bucket still has a spread */
		sd = fmax(iqr / 1.349, ldexp(1.0, (int)s->shift) / sqrt(12.0));
		x[k] = n;
		y[k] = latency_quantile(s, n, 0.5);
		w[k] = (double)s->count[n] / (1.2533 * 1.2533 * sd * sd);
		k++;
	}
	fit->points = k;
	if (k < 3)
		return;
	for (i = 0; i < k; i++) {
		sw += w[i];
		sx += w[i] * x[i];
		sy += w[i] * y[i];
	}
	xm = sx / sw;
	ym = sy / sw;
	for (i = 0; i < k; i++) {
		sxx += w[i] * (x[i] - xm) * (x[i] - xm);
		sxy += w[i] * (x[i] - xm) * (y[i] - ym);
	}
	if (sxx <= 0)
		return;
	fit->per_node = sxy / sxx;
	fit->fixed = ym - fit->per_node * xm;
	for (i = 0; i < k; i++) {
		double r = y[i] - fit->fixed - fit->per_node * x[i];

		chi += w[i] * r * r;
		fit->residual += r * r;
	}
	fit->residual = sqrt(fit->residual / k);
	/*
	 * Known variances, scaled up when the points scatter more than they
	 * claim; then the scatter is estimated from k - 2 degrees of
	 * freedom, and the interval takes Student's t, not the normal 1.96.
	 */
	se = sqrt(1.0 / sxx);
	if (chi / (k - 2) > 1) {
		se *= sqrt(chi / (k - 2));
		z = t975(k - 2);
	}
	fit->per_node_lo = fit->per_node - z * se;
	fit->per_node_hi = fit->per_node + z * se;
	fit->ok = true;
}
