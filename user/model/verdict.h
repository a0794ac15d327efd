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
	double cost_per_node;        /* ns */
	double saved_ns;             /* nodes_saved x cost_per_node */
	double hash_extra;           /* ns per lookup, the alternative's hash - the kernel's */
	double net, net_lo, net_hi;  /* hash_extra - saved_ns: negative is a gain; 95% bounds */
	bool pays_off;               /* the whole interval is a gain */
};

/*
 * WALK_NOW and WALK_ALT: mean nodes per lookup (the same model for
 * both). PER_NODE and the hash costs: median and 95% interval, in ns.
 */
void verdict_compute(double walk_now, double walk_alt, struct estimate per_node,
		     struct estimate hash_now, struct estimate hash_alt, struct verdict *v);

#endif
