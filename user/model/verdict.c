// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "verdict.h"

void verdict_compute(double walk_now, double walk_alt, double now_exact, double alt_lo,
		     double alt_hi, struct estimate per_node, struct estimate hash_now,
		     struct estimate hash_alt, struct verdict *v)
{
	double c[4], saved_lo, saved_hi, extra_lo, extra_hi;
	int i;

	memset(v, 0, sizeof(*v));
	v->nodes_saved = walk_now - walk_alt;
	/*
	 * What today's order walks, against the alternative in its best and
	 * worst order; widened to hold the point value, which compares the
	 * two layouts in one model (free of today's order, which a new
	 * layout need not keep).
	 */
	v->nodes_saved_lo = fmin(v->nodes_saved, now_exact - alt_hi);
	v->nodes_saved_hi = fmax(v->nodes_saved, now_exact - alt_lo);
	v->cost_per_node = per_node.median;
	v->saved_ns = v->nodes_saved * per_node.median;
	v->hash_extra = hash_alt.median - hash_now.median;
	/* interval arithmetic: a product's ends are among its corners' */
	c[0] = v->nodes_saved_lo * per_node.lo;
	c[1] = v->nodes_saved_lo * per_node.hi;
	c[2] = v->nodes_saved_hi * per_node.lo;
	c[3] = v->nodes_saved_hi * per_node.hi;
	saved_lo = saved_hi = c[0];
	for (i = 1; i < 4; i++) {
		saved_lo = fmin(saved_lo, c[i]);
		saved_hi = fmax(saved_hi, c[i]);
	}
	extra_lo = hash_alt.lo - hash_now.hi;
	extra_hi = hash_alt.hi - hash_now.lo;
	v->net = v->hash_extra - v->saved_ns;
	v->net_lo = extra_lo - saved_hi;
	v->net_hi = extra_hi - saved_lo;
	v->pays_off = v->net_hi < 0;
}
