/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Does a table change pay for itself? The nodes it saves per lookup
 * times the cost of a node, against what its bucket function costs
 * more per lookup (Linux 6.19's rule for its AVC hash: the new hash
 * must cost less than walking the nodes it saves). Pure arithmetic,
 * unit-tested on a fixture.
 */
#ifndef PFT_VERDICT_H
#define PFT_VERDICT_H

#include <stdbool.h>
#include "stats.h"

struct verdict {
	double nodes_saved;          /* per lookup: the kernel's layout's walk - the alternative's */
	double nodes_saved_lo, nodes_saved_hi;   /* over every order of the new chains */
	double cost_per_node;        /* ns */
	double saved_ns;             /* nodes_saved x cost_per_node */
	double hash_extra;           /* ns per lookup, the alternative's hash - the kernel's */
	double net, net_lo, net_hi;  /* hash_extra - saved_ns: negative is a gain; 95% bounds */
	bool pays_off;               /* the whole interval is a gain */
};

/*
 * WALK_NOW and WALK_ALT: mean nodes per lookup, the point values of one
 * model for both layouts. NOW_EXACT: the kernel's layout's walk at its
 * own order where known (else WALK_NOW); ALT_LO and ALT_HI: the
 * alternative's walk in the best and the worst order. PER_NODE and the
 * hash costs: median and 95% interval, in ns. The nodes saved span
 * today's walk against every order of the alternative, and the point
 * value; the net's interval spans those and both timing intervals. It
 * pays off only when all of it is a gain.
 */
void verdict_compute(double walk_now, double walk_alt, double now_exact, double alt_lo,
		     double alt_hi, struct estimate per_node, struct estimate hash_now,
		     struct estimate hash_alt, struct verdict *v);

#endif
