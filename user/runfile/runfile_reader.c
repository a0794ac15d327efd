// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "runfile_reader.h"

int rd_fail(struct reader *r, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%s: %s", r->name, msg);
	return -1;
}

/*
 * A string of the file, owned by the run. Control characters are
 * escaped here, once, so that no report, diff or error line can carry a
 * file's escape sequences or fake lines onto a terminal.
 */
static const char *keep(struct reader *r, const char *s)
{
	struct run_file *rf = r->rf;
	size_t cap;
	char *copy;

	if (rf->nstrings == (int)(sizeof(rf->strings) / sizeof(rf->strings[0])))
		return "";
	s = s ? s : "";
	cap = 4 * strlen(s) + 6;   /* each byte at most "\xNN", and text_safe's margin */
	copy = malloc(cap);
	if (!copy)
		return "";
	text_safe(s, copy, cap);
	rf->strings[rf->nstrings++] = copy;
	return copy;
}

struct json_object *rd_member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* A non-negative integer member; missing ones are an error only if required. */
int rd_count(struct reader *r, struct json_object *o, const char *where,
	      const char *key, bool required, __u64 *out)
{
	struct json_object *v = rd_member(o, key);
	int64_t i;

	*out = 0;
	if (!v)
		return required ? rd_fail(r, "%s has no \"%s\"", where, key) : 0;
	if (!json_object_is_type(v, json_type_int))
		return rd_fail(r, "%s.%s is not an integer", where, key);
	i = json_object_get_int64(v);
	if (i < 0)
		return rd_fail(r, "%s.%s is negative", where, key);
	if ((__u64)i > COUNT_MAX)
		return rd_fail(r, "%s.%s is out of range (counts are below 2^63)", where, key);
	*out = (__u64)i;
	return 0;
}

/* a + b, refused where it would pass COUNT_MAX */
int rd_add(struct reader *r, const char *what, __u64 a, __u64 b, __u64 *sum)
{
	if (__builtin_add_overflow(a, b, sum) || *sum > COUNT_MAX)
		return rd_fail(r, "%s overflows (counts are below 2^63)", what);
	return 0;
}

const char *rd_string(struct reader *r, struct json_object *o, const char *key)
{
	struct json_object *v = rd_member(o, key);

	return keep(r, v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "");
}

/* an optional true/false member: absent is false, anything but a boolean refused */
int rd_flag(struct reader *r, struct json_object *o, const char *where, const char *key,
	     bool *out)
{
	struct json_object *v = rd_member(o, key);

	*out = false;
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return rd_fail(r, "%s.%s is not true or false", where, key);
	*out = json_object_get_boolean(v);
	return 0;
}

double rd_number(struct json_object *o, const char *key)
{
	struct json_object *v = rd_member(o, key);

	return v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))
	       ? json_object_get_double(v) : 0;
}

/*
 * A number member converted to an integer type without undefined
 * behaviour: NaN reads as 0, and anything out of [lo, hi] is clamped (a
 * fuzzer found a cpus of 1.8e19 converted straight to int).
 */
double rd_clamped(struct json_object *o, const char *key, double lo, double hi)
{
	double v = rd_number(o, key);

	if (!(v == v))
		return 0;
	return v < lo ? lo : v > hi ? hi : v;
}
