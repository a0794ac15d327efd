/* SPDX-License-Identifier: GPL-2.0 */
/* Writing results: JSON to a stream, and files that appear whole or not at all. */
#ifndef PFT_OUTPUT_H
#define PFT_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "fileio.h"

struct json_object;

/*
 * Every NaN or infinity in the tree made null: JSON (RFC 8259) has no
 * such number, and json-c would write "NaN" or "Infinity". The writers
 * below call it; a number a reader refuses never leaves pftrace.
 */
void json_finite_only(struct json_object *root);
/*
 * The end of stdout, checked: its buffer written and the stream closed.
 * A write lost anywhere on the way (a full disk, /dev/full) is found
 * here if not before. 0, or -errno with "stdout: REASON" in err.
 */
int stdout_close(char *err, size_t errlen);
/* Pretty-printed JSON and a newline; 0 or 1 on a write error. */
int json_print(struct json_object *root, FILE *f);
/* One compact line: a record of a newline-delimited JSON stream. */
int json_print_line(struct json_object *root, FILE *f);
int json_write_file(struct json_object *root, const char *path,
		    char *err, size_t errlen);

#endif
