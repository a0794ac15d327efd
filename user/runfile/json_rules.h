/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules every reader of pftrace's JSON applies, written once: run
 * files (runfile.c), the JSON lines of -i --format json (plot), the
 * replay section, per-key counts and strings all go through these.
 *
 *   - a text is refused before parsing when json-c's tree of it would
 *     cost more than a bounded multiple of its size, and it must be
 *     JSON (RFC 8259: no NaN, no Infinity, no comments) and nothing else;
 *   - a count is an integer in 0 .. 2^63 - 2 (json-c saturates past
 *     int64, which would hide a wrap), and sums of counts are checked;
 *   - a number is finite and inside the range its field allows (1e400
 *     parses as infinity: refused);
 *   - a string is a string, holds no NUL byte (C would cut it there) and
 *     is at most a bounded length.
 *
 * Each check returns NULL, or the reason ("is negative") for the
 * caller's one line, which names the file and the field.
 */
#ifndef PFT_JSON_RULES_H
#define PFT_JSON_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct json_object;

/* json-c's tree costs at most this many times the text, or the text is refused */
#define JSON_TREE_RATIO 32
/* the longest string a reader keeps */
#define JSON_TEXT_MAX 4096

/*
 * TEXT (LEN bytes, NUL-terminated) as one JSON document and nothing
 * after it but white space, or NULL with the reason in WHY: empty,
 * more than MAX bytes, too costly a tree, or not JSON.
 */
struct json_object *json_parse_bounded(const char *text, size_t len, size_t max,
				       char *why, size_t whylen);

/* an integer count, 0 .. PFT_COUNT_MAX */
const char *json_count_of(struct json_object *v, __u64 *out);
/* a + b, false where the sum would pass PFT_COUNT_MAX */
bool json_count_add(__u64 a, __u64 b, __u64 *sum);
/* a finite number in [LO, HI]; WHY holds "is out of range (LO to HI)" */
const char *json_number_of(struct json_object *v, double lo, double hi, double *out,
			   char *why, size_t whylen);
/* a string of at most MAX bytes and no NUL; WHY holds "is longer than MAX bytes" */
const char *json_text_of(struct json_object *v, size_t max, const char **out,
			 char *why, size_t whylen);

#endif
