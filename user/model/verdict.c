// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "verdict.h"

void verdict_compute(double walk_now, double walk_alt, struct estimate per_node,
		     struct estimate hash_now, struct estimate hash_alt, struct verdict *v)
{
	double saved_lo, saved_hi, extra_lo, extra_hi;

	memset(v, 0, sizeof(*v));
	v->nodes_saved = walk_now - walk_alt;
	v->cost_per_node = per_node.median;
	v->saved_ns = v->nodes_saved * per_node.median;
	v->hash_extra = hash_alt.median - hash_now.median;
	/* interval arithmetic: the product's ends, and the difference's */
	saved_lo = fmin(v->nodes_saved * per_node.lo, v->nodes_saved * per_node.hi);
	saved_hi = fmax(v->nodes_saved * per_node.lo, v->nodes_saved * per_node.hi);
	extra_lo = hash_alt.lo - hash_now.hi;
	extra_hi = hash_alt.hi - hash_now.lo;
	v->net = v->hash_extra - v->saved_ns;
	v->net_lo = extra_lo - saved_hi;
	v->net_hi = extra_hi - saved_lo;
	v->pays_off = v->net_hi < 0;
}
