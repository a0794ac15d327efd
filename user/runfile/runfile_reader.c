// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "json_rules.h"
#include "runfile_reader.h"

int rd_fail(struct reader *r, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (r->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%s: %s", r->name, msg);
	r->failed = true;
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

	if (rf->nstrings == (int)(sizeof(rf->strings) / sizeof(rf->strings[0]))) {
		rd_fail(r, "more strings than a run file holds");
		return "";
	}
	s = s ? s : "";
	cap = 4 * strlen(s) + 6;   /* each byte at most "\xNN", and text_safe's margin */
	copy = malloc(cap);
	if (!copy) {
		rd_fail(r, "out of memory");
		return "";
	}
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

int rd_count(struct reader *r, struct json_object *o, const char *where,
	     const char *key, bool required, __u64 *out)
{
	struct json_object *v = rd_member(o, key);
	const char *why;

	*out = 0;
	if (!v)
		return required ? rd_fail(r, "%s has no \"%s\"", where, key) : 0;
	why = json_count_of(v, out);
	return why ? rd_fail(r, "%s.%s %s", where, key, why) : 0;
}

int rd_add(struct reader *r, const char *what, __u64 a, __u64 b, __u64 *sum)
{
	if (!json_count_add(a, b, sum))
		return rd_fail(r, "%s overflows (counts are below 2^63)", what);
	return 0;
}

/* "targets[0]." before KEY in a refusal, when the reader knows where it is */
#define WHERE_OF(r) ((r)->where ? (r)->where : ""), ((r)->where ? "." : "")

const char *rd_string(struct reader *r, struct json_object *o, const char *key)
{
	struct json_object *v = rd_member(o, key);
	const char *s = "", *why;
	char whybuf[64];

	if (v && (why = json_text_of(v, JSON_TEXT_MAX, &s, whybuf, sizeof(whybuf))))
		rd_fail(r, "%s%s%s %s", WHERE_OF(r), key, why);
	s = keep(r, s);
	/* kept escaped, and written back so: the bound holds for what is written */
	if (strlen(s) > JSON_TEXT_MAX)
		rd_fail(r, "%s%s%s is longer than %d bytes, its control characters escaped",
			WHERE_OF(r), key, JSON_TEXT_MAX);
	return s;
}

void rd_string_into(struct reader *r, struct json_object *o, const char *key, char *buf,
		    size_t size)
{
	const char *s = rd_string(r, o, key);

	if (strlen(s) >= size)
		rd_fail(r, "%s%s%s is longer than %zu bytes", WHERE_OF(r), key, size - 1);
	snprintf(buf, size, "%s", s);
}

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

double rd_range(struct reader *r, struct json_object *o, const char *key, double lo, double hi)
{
	struct json_object *v = rd_member(o, key);
	const char *why;
	char whybuf[64];
	double d = 0;

	if (v && (why = json_number_of(v, lo, hi, &d, whybuf, sizeof(whybuf))))
		rd_fail(r, "%s%s%s %s", WHERE_OF(r), key, why);
	return d;
}

double rd_clamped(struct reader *r, struct json_object *o, const char *key, double lo,
		  double hi)
{
	double v = rd_number(r, o, key);

	return v < lo ? lo : v > hi ? hi : v;
}
