/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pftrace plot: self-contained SVG (no script, no font or file fetched),
 * drawn from counts alone, so it renders anywhere the file goes.
 */
#ifndef PFT_PLOT_SVG_H
#define PFT_PLOT_SVG_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

/* One histogram series: counts by node count, 0..n-1. */
struct plot_series {
	const char *label;        /* "before: run.json" */
	const __u64 *counts;
	int n;
};

/* A panel: one or two series over node counts, log y when the counts span decades. */
struct plot_panel {
	const char *title;
	const char *xlabel;
	struct plot_series series[2];
	int nseries;
};

/* Panels stacked, a title above, a NOTE (the test's verdict) below; to F. */
void plot_histograms(FILE *f, const char *title, const struct plot_panel *panels, int npanels,
		     const char *note);

/*
 * A heat map: column i is interval i, row v its share of lookups that
 * walked v nodes (ROWS[i * n + v] counts), darker for more.
 */
void plot_heatmap(FILE *f, const char *title, const __u64 *rows, int nintervals, int n,
		  double interval_s);

#endif
