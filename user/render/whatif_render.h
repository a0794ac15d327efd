/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pftrace whatif's tables (model/whatif.h) as text and as JSON, twins
 * over one model, and pftrace report's verdicts block. Pure.
 */
#ifndef PFT_WHATIF_RENDER_H
#define PFT_WHATIF_RENDER_H

#include <stdio.h>
#include "whatif.h"

struct json_object;

/* LOOKUPS_FROM: the run file whose counts weighed the walks, when not the table's own. */
void whatif_print_text(FILE *f, const struct whatif_table *w, const struct whatif_costs *c,
		       const char *lookups_from);
struct json_object *whatif_json(const struct whatif_table *w, const struct whatif_costs *c,
				const char *lookups_from);
/* "What if (FUNC: a node ...)": a verdict per layout (whatif_weigh_report()) */
void whatif_print_report(FILE *f, const struct whatif_table *w);

#endif
