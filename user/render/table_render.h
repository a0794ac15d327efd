/* SPDX-License-Identifier: GPL-2.0 */
/* A table snapshot, and what-if layouts, as JSON and text (table_render.c). */
#ifndef PFT_TABLE_RENDER_H
#define PFT_TABLE_RENDER_H

#include <stdio.h>
#include "table.h"

struct json_object;

/* entries, buckets, buckets_used, longest_chain, chain_lengths, added to O */
struct json_object *table_shape_json(const struct table_shape *s, struct json_object *o);
struct json_object *snapshot_json(const struct table_snapshot *s);
void render_snapshot_text(FILE *f, const struct table_snapshot *s);

#endif
