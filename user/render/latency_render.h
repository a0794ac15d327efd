/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PFT_LATENCY_RENDER_H
#define PFT_LATENCY_RENDER_H

#include <stdio.h>
#include "report.h"

struct json_object;

/* targets[].latency: unit, overhead, by_nodes, fit, loop_instructions */
struct json_object *latency_json(const struct target_report *t);
void render_latency_text(FILE *f, const struct target_report *t);

#endif
