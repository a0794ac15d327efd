/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the run-file reader (runfile.c, runfile_target.c): a document's
 * members read with every type and range checked, and the first failure
 * kept as one line that names the file.
 */
#ifndef PFT_RUNFILE_READER_H
#define PFT_RUNFILE_READER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "runfile.h"

/* json-c saturates integers past int64, which would hide a wrap */
#define COUNT_MAX PFT_COUNT_MAX

struct reader {
	struct run_file *rf;
	const char *name;
	char *err;
	size_t errlen;
};

/* -1, with "NAME: what" in r->err */
int rd_fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* KEY of O, or NULL (O not an object, or no KEY) */
struct json_object *rd_member(struct json_object *o, const char *key);
/* A non-negative integer member; missing ones are an error only if required. */
int rd_count(struct reader *r, struct json_object *o, const char *where,
	      const char *key, bool required, __u64 *out);
/* a + b, refused where it would pass COUNT_MAX */
int rd_add(struct reader *r, const char *what, __u64 a, __u64 b, __u64 *sum);
/* A string member, owned by the run, its control characters escaped ("" if absent). */
const char *rd_string(struct reader *r, struct json_object *o, const char *key);
/* an optional true/false member: absent is false, anything but a boolean refused */
int rd_flag(struct reader *r, struct json_object *o, const char *where, const char *key,
	     bool *out);
/* a number member, 0 if absent or not a number */
double rd_number(struct json_object *o, const char *key);
/*
 * A number member converted to an integer type without undefined
 * behaviour: NaN reads as 0, and anything out of [lo, hi] is clamped (a
 * fuzzer found a cpus of 1.8e19 converted straight to int).
 */
double rd_clamped(struct json_object *o, const char *key, double lo, double hi);

#define rd_int(o, key) ((int)rd_clamped((o), (key), INT_MIN, INT_MAX))
#define rd_long(o, key) ((long)rd_clamped((o), (key), (double)LONG_MIN, 9.2e18))
#define rd_u64(o, key) ((__u64)rd_clamped((o), (key), 0, 1.8e19))

/* targets[IDX] into r->rf (runfile_target.c) */
int runfile_read_target(struct reader *r, struct json_object *t, int idx);

#endif
