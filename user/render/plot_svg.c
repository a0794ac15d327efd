// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot_svg.h"

#define WIDTH 760
#define PANEL_H 300
#define LEFT 80
#define RIGHT 30
#define TOP 50
#define PANEL_GAP 40
#define BOTTOM 60

static const char *const colours[2] = { "#3b6fb6", "#d9772b" };

/* text content: the five characters XML reserves, escaped */
static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* control characters are not XML 1.0 text */
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
		}
	}
}

static void text(FILE *f, double x, double y, const char *anchor, int size, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", x, y, anchor, size);
	xml_text(f, s);
	fputs("</text>\n", f);
}

/* a y axis's name, read bottom to top */
static void vtext(FILE *f, double x, double y, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" "
		"transform=\"rotate(-90 %.1f %.1f)\">", x, y, x, y);
	xml_text(f, s);
	fputs("</text>\n", f);
}

static void header(FILE *f, int height, const char *title)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", WIDTH, height, WIDTH, height);
	text(f, WIDTH / 2.0, 28, "middle", 16, title);
}

/* the largest count, and the smallest non-zero one */
static void extent(const struct plot_panel *p, __u64 *max, __u64 *min_nz, int *n)
{
	int s, v;

	*max = 0;
	*min_nz = 0;
	*n = 1;
	for (s = 0; s < p->nseries; s++) {
		const struct plot_series *ser = &p->series[s];
		int last = 0;

		for (v = 0; v < ser->n; v++) {
			if (!ser->counts[v])
				continue;
			last = v;
			*max = ser->counts[v] > *max ? ser->counts[v] : *max;
			*min_nz = !*min_nz || ser->counts[v] < *min_nz ? ser->counts[v] : *min_nz;
		}
		*n = last + 1 > *n ? last + 1 : *n;
	}
}

static void panel(FILE *f, const struct plot_panel *p, double y0)
{
	double w = WIDTH - LEFT - RIGHT, h = PANEL_H - 50, base = y0 + h, slot, bw;
	__u64 max, min_nz;
	bool logy;
	double top;
	int n, s, v, step;
	char buf[64];

	extent(p, &max, &min_nz, &n);
	/* counts over more than two decades read better on a log axis */
	logy = max && min_nz && (double)max / (double)min_nz > 100;
	top = logy ? ceil(log10((double)max)) : (double)max * 1.05;
	if (top <= 0)
		top = 1;
	text(f, LEFT + w / 2, y0 - 10, "middle", 13, p->title);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"black\"/>\n", LEFT, y0,
		LEFT, base);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", LEFT, base,
		LEFT + w, base);
	/* y ticks: decades on a log axis, five steps otherwise */
	for (s = 0; s <= (logy ? (int)top : 4); s++) {
		double frac = logy ? s / top : s / 4.0;
		double y = base - frac * h;

		if (logy)
			snprintf(buf, sizeof(buf), "1e%d", s);
		else
			snprintf(buf, sizeof(buf), "%.0f", frac * top);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
			LEFT, y, LEFT + w, y);
		text(f, LEFT - 6, y + 4, "end", 10, buf);
	}
	vtext(f, 24, y0 + h / 2, logy ? "lookups (log scale)" : "lookups");
	slot = w / n;
	bw = p->nseries > 1 ? slot * 0.42 : slot * 0.8;
	for (s = 0; s < p->nseries; s++) {
		const struct plot_series *ser = &p->series[s];

		for (v = 0; v < ser->n && v < n; v++) {
			double c = (double)ser->counts[v], bh;

			if (!c)
				continue;
			bh = logy ? (c >= 1 ? log10(c) / top * h : 0) : c / top * h;
			if (bh < 1)
				bh = 1;   /* a count is never invisible */
			fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
				"<title>%d: %llu</title></rect>\n",
				LEFT + v * slot + (slot - (p->nseries > 1 ? 2 * bw : bw)) / 2 + s * bw,
				base - bh, bw, bh, colours[s], v, (unsigned long long)ser->counts[v]);
		}
		/* the legend */
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
			LEFT + w - 330, y0 + 6 + 18.0 * s, colours[s]);
		text(f, LEFT + w - 312, y0 + 16 + 18.0 * s, "start", 11, ser->label);
	}
	step = n > 40 ? (n + 19) / 20 : n > 20 ? 2 : 1;
	for (v = 0; v < n; v += step) {
		snprintf(buf, sizeof(buf), "%d", v);
		text(f, LEFT + (v + 0.5) * slot, base + 14, "middle", 10, buf);
	}
	text(f, LEFT + w / 2, base + 32, "middle", 11, p->xlabel);
}

void plot_histograms(FILE *f, const char *title, const struct plot_panel *panels, int npanels,
		     const char *note)
{
	int height = TOP + npanels * (PANEL_H + PANEL_GAP) + (note ? 10 : 0), i;

	header(f, height, title);
	for (i = 0; i < npanels; i++)
		panel(f, &panels[i], TOP + 20 + i * (PANEL_H + PANEL_GAP));
	if (note)
		text(f, WIDTH / 2.0, height - 14, "middle", 12, note);
	fputs("</svg>\n", f);
}

void plot_heatmap(FILE *f, const char *title, const __u64 *rows, int nintervals, int n,
		  double interval_s)
{
	double w = WIDTH - LEFT - RIGHT, h = PANEL_H, base = TOP + 20 + h, cw, ch;
	int height = TOP + PANEL_H + BOTTOM + 40, i, v, last = 0, step;
	char buf[64];

	for (i = 0; i < nintervals; i++)
		for (v = 0; v < n; v++)
			if (rows[(size_t)i * n + v] && v > last)
				last = v;
	header(f, height, title);
	cw = w / (nintervals ? nintervals : 1);
	ch = h / (last + 1);
	for (i = 0; i < nintervals; i++) {
		__u64 total = 0;

		for (v = 0; v <= last; v++)
			total += rows[(size_t)i * n + v];
		for (v = 0; v <= last && total; v++) {
			double share = (double)rows[(size_t)i * n + v] / (double)total;
			int shade;

			if (!rows[(size_t)i * n + v])
				continue;
			/* a share past the whole (a wrapped total) must not reach the int below */
			share = share > 1 ? 1 : share;
			/* a square root lifts the rare lengths out of the white */
			shade = 235 - (int)(235 * sqrt(share));
			fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
				"fill=\"rgb(%d,%d,255)\"><title>%.1f s, %d nodes: %.1f%%</title></rect>\n",
				LEFT + i * cw, base - (v + 1) * ch, cw, ch, shade, shade,
				(i + 1) * interval_s, v, 100 * share);
		}
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n",
		LEFT, TOP + 20, w, h);
	step = last > 20 ? (last + 10) / 10 : 1;
	for (v = 0; v <= last; v += step) {
		snprintf(buf, sizeof(buf), "%d", v);
		text(f, LEFT - 6, base - (v + 0.5) * ch + 4, "end", 10, buf);
	}
	step = nintervals > 10 ? (nintervals + 9) / 10 : 1;
	for (i = 0; i < nintervals; i += step) {
		snprintf(buf, sizeof(buf), "%.4g", (i + 1) * interval_s);
		text(f, LEFT + (i + 0.5) * cw, base + 14, "middle", 10, buf);
	}
	text(f, LEFT + w / 2, base + 32, "middle", 11, "seconds (end of each interval)");
	vtext(f, 24, TOP + 20 + h / 2, "nodes walked");
	text(f, WIDTH / 2.0, height - 12, "middle", 11,
	     "each column: one interval's lookups by nodes walked, darker for a larger share");
	fputs("</svg>\n", f);
}
