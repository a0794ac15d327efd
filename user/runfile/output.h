/* SPDX-License-Identifier: GPL-2.0 */
/* Writing results: JSON to a stream, and files that appear whole or not at all. */
#ifndef PFT_OUTPUT_H
#define PFT_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "fileio.h"

struct json_object;

/* Pretty-printed JSON and a newline; 0 or 1 on a write error. */
int json_print(struct json_object *root, FILE *f);
/* One compact line: a record of a newline-delimited JSON stream. */
int json_print_line(struct json_object *root, FILE *f);
int json_write_file(struct json_object *root, const char *path,
		    char *err, size_t errlen);

#endif
