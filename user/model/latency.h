/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --latency: a lookup's own time by the nodes its walk visited, and a
 * fit of fixed cost plus cost per node. Pure functions of what BPF
 * counted (struct lat_counters), tested without BPF.
 */
#ifndef PFT_LATENCY_H
#define PFT_LATENCY_H

#include <stdbool.h>
#include <linux/types.h>
#include "pftrace.h"

struct latency_stats {
	enum pft_lat_unit unit;
	unsigned int shift;          /* bucket width 2^shift units */
	__u64 count[PFT_LAT_NODES];
	__u64 sum[PFT_LAT_NODES];
	__u64 hist[PFT_LAT_NODES][PFT_LAT_BUCKETS];
	__u64 lost, migrated;
	double overhead;             /* the measurement's own cost, subtracted (calibration) */
	bool overhead_known;
};

struct latency_row {
	int nodes;                   /* PFT_LAT_NODES - 1: that many or more */
	__u64 count;
	double median, p90, mean;
	bool past_range;             /* the median or p90 lies in the last bucket: "at least" */
};

struct latency_fit {
	bool ok;                     /* at least 3 node counts with 5 lookups each */
	int points;
	double fixed, per_node;      /* time = fixed + per_node x nodes (medians) */
	double per_node_lo, per_node_hi;   /* 95% confidence interval */
	/*
	 * How far the medians lie off the line: their root mean square
	 * distance from it, in the unit. A line describes the walks when
	 * that is small beside per_node; when it is not (interrupts, a
	 * machine whose speed varies, as under emulation), the slope says
	 * little whatever its interval.
	 */
	double residual;
	int past_range;              /* node counts left out: median in the last bucket */
};

/* A line is a poor description when its medians lie further off it than this many nodes' cost. */
#define RESIDUAL_POOR_NODES 3.0
/* true when FIT's medians lie too far off its line to trust the slope */
bool latency_fit_poor(const struct latency_fit *fit);

const char *latency_unit_name(enum pft_lat_unit u);
/* Sum per-CPU struct lat_counters into S (unit, shift and hist left alone). */
void latency_sum(struct latency_stats *s, const struct lat_counters *percpu, int ncpus);
/* Add the per-CPU histograms of NODES walked into S. */
void latency_sum_hist(struct latency_stats *s, int nodes, const struct lat_hist *percpu, int ncpus);
/* One row per node count with lookups; returns the count of rows. */
int latency_rows(const struct latency_stats *s, struct latency_row rows[PFT_LAT_NODES]);
/*
 * Weighted least squares through the medians (robust to the odd
 * interrupt a mean would absorb), each weighed by the inverse variance
 * of a median, (1.2533 sd)^2 / n with sd from the interquartile range.
 * The last, catch-all node count is left out, and so is any whose
 * median lies in the last bucket (the range's end, not a measurement).
 */
void latency_fit(const struct latency_stats *s, struct latency_fit *fit);
/* The value below which a share Q of the lookups with NODES nodes lie (interpolated). */
double latency_quantile(const struct latency_stats *s, int nodes, double q);

#endif
