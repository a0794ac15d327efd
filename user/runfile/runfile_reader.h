/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the run-file reader (runfile.c, runfile_target.c): a document's
 * members read with every type and range checked, and the first failure
 * kept as one line that names the file.
 */
#ifndef PFT_RUNFILE_READER_H
#define PFT_RUNFILE_READER_H

#include <float.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "runfile.h"

struct reader {
	struct run_file *rf;
	const char *name;
	char *err;
	size_t errlen;
	const char *where;   /* the object being read ("targets[0]"), for strings' errors */
	char target_at[32];  /* where, while a target is read */
	bool failed;         /* the first refusal stands: a read ends failed */
};

/* -1, with "NAME: what" in r->err; only the first refusal of a read is kept */
int rd_fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* KEY of O, or NULL (O not an object, or no KEY) */
struct json_object *rd_member(struct json_object *o, const char *key);
/* A non-negative integer member; missing ones are an error only if required. */
int rd_count(struct reader *r, struct json_object *o, const char *where,
	      const char *key, bool required, __u64 *out);
/* a + b, refused where it would pass PFT_COUNT_MAX */
int rd_add(struct reader *r, const char *what, __u64 a, __u64 b, __u64 *sum);
/*
 * A string member, owned by the run, its control characters escaped ("" if
 * absent); one that is no string, holds a NUL or runs long fails the read.
 */
const char *rd_string(struct reader *r, struct json_object *o, const char *key);
/* The same into a buffer of its own, which it must fit escaped. */
void rd_string_into(struct reader *r, struct json_object *o, const char *key, char *buf,
		    size_t size);
/* an optional true/false member: absent is false, anything but a boolean refused */
int rd_flag(struct reader *r, struct json_object *o, const char *where, const char *key,
	     bool *out);
/*
 * A number member in [LO, HI], 0 when absent; a string, NaN, an
 * infinity (1e400 reads as one) or a number out of range fails the read.
 */
double rd_range(struct reader *r, struct json_object *o, const char *key, double lo, double hi);
/* any finite number: what the field may hold is checked where it is used */
#define rd_number(r, o, key) rd_range((r), (o), (key), -DBL_MAX, DBL_MAX)
/*
 * A number member converted to an integer type without undefined
 * behaviour: anything out of [lo, hi] is clamped (a fuzzer found a cpus
 * of 1.8e19 converted straight to int).
 */
double rd_clamped(struct reader *r, struct json_object *o, const char *key, double lo,
		  double hi);

#define rd_int(r, o, key) ((int)rd_clamped((r), (o), (key), INT_MIN, INT_MAX))
#define rd_long(r, o, key) ((long)rd_clamped((r), (o), (key), (double)LONG_MIN, 9.2e18))
#define rd_u64(r, o, key) ((__u64)rd_clamped((r), (o), (key), 0, 1.8e19))

/* [{"min": i, "max": i, "count": n}, ...] into linear slots (runfile_target.c) */
int rd_hist(struct reader *r, struct json_object *arr, const char *where, __u64 *slots);
/* targets[IDX] into r->rf (runfile_target.c) */
int runfile_read_target(struct reader *r, struct json_object *t, int idx);
/* targets[].samples: a traced function's hottest instructions and prefetches (runfile_profile.c) */
int runfile_read_profile(struct reader *r, struct json_object *v, const char *where,
			 struct function_profile *p);
/* targets[].by: the walks charged to who made them (runfile_profile.c) */
int runfile_read_by(struct reader *r, struct json_object *o, const char *where,
		    const struct chain_stats *s, struct by_report *by);
/* "replay", if any: its table, and each option's passes (runfile_replay.c) */
int runfile_read_replay(struct reader *r, struct json_object *rj);

#endif
