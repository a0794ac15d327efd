/* SPDX-License-Identifier: GPL-2.0 */
/* Writing results: JSON to a stream, and files that appear whole or not at all. */
#ifndef PFT_OUTPUT_H
#define PFT_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

struct json_object;

/* Pretty-printed JSON and a newline; 0 or 1 on a write error. */
int json_print(struct json_object *root, FILE *f);
/*
 * Write DATA to PATH through a temporary file in the same directory and
 * rename(2): a crash or Ctrl-C leaves the old file or the new one,
 * never half of one. 0, or -errno with a one-line reason in err.
 */
int write_file_atomic(const char *path, const char *data, size_t len,
		      char *err, size_t errlen);
/* Can PATH be written (its directory exists and is writable)? 0 or -errno. */
int check_output_path(const char *path, char *err, size_t errlen);
int json_write_file(struct json_object *root, const char *path,
		    char *err, size_t errlen);

#endif
