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
/* A table's size for text: "2^N" for a power of two, else the count */
void table_size_text(__u64 slots, char *buf, size_t len);

#endif
