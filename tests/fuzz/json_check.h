/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the fuzz targets' round trips: whether a tree holds a number JSON
 * has no spelling for, and whether two texts hold the same document.
 */
#ifndef PFT_FUZZ_JSON_CHECK_H
#define PFT_FUZZ_JSON_CHECK_H

#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <json-c/json.h>

/* a NaN or an infinity anywhere in the tree (json-c would write "NaN", "Infinity") */
static inline bool has_nonfinite(struct json_object *o)
{
	size_t i, n;

	if (json_object_is_type(o, json_type_double))
		return !isfinite(json_object_get_double(o));
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, v) {
			(void)key;
			if (has_nonfinite(v))
				return true;
		}
	} else if (json_object_is_type(o, json_type_array)) {
		n = json_object_array_length(o);
		for (i = 0; i < n; i++)
			if (has_nonfinite(json_object_array_get_idx(o, i)))
				return true;
	}
	return false;
}

/*
 * The same document: the same keys, lengths, strings and integers, and
 * numbers equal to 12 digits. pftrace writes 15 significant digits, so
 * a figure derived from a number read back (a rate over a duration) may
 * move in its last digit; anything more is a difference.
 */
static inline bool json_same(struct json_object *a, struct json_object *b)
{
	enum json_type t = json_object_get_type(a);
	size_t i, n;

	if (t != json_object_get_type(b))
		return false;
	switch (t) {
	case json_type_double: {
		double x = json_object_get_double(a), y = json_object_get_double(b);

		return fabs(x - y) <= 1e-12 * fmax(fabs(x), fabs(y));
	}
	case json_type_int:
		return json_object_get_int64(a) == json_object_get_int64(b) &&
		       json_object_get_uint64(a) == json_object_get_uint64(b);
	case json_type_string:
		return json_object_get_string_len(a) == json_object_get_string_len(b) &&
		       !memcmp(json_object_get_string(a), json_object_get_string(b),
			       (size_t)json_object_get_string_len(a));
	case json_type_boolean:
		return json_object_get_boolean(a) == json_object_get_boolean(b);
	case json_type_array:
		n = json_object_array_length(a);
		if (n != json_object_array_length(b))
			return false;
		for (i = 0; i < n; i++)
			if (!json_same(json_object_array_get_idx(a, i), json_object_array_get_idx(b, i)))
				return false;
		return true;
	case json_type_object: {
		struct json_object *w;

		if (json_object_object_length(a) != json_object_object_length(b))
			return false;
		json_object_object_foreach(a, key, v) {
			if (!json_object_object_get_ex(b, key, &w) || !json_same(v, w))
				return false;
		}
		return true;
	}
	default:
		return true;   /* null */
	}
}

/* two texts of one JSON document each, the same document */
static inline bool json_text_same(const char *a, const char *b)
{
	struct json_object *x = json_tokener_parse(a), *y = json_tokener_parse(b);
	bool same = x && y && json_same(x, y);

	json_object_put(x);
	json_object_put(y);
	return same;
}

#endif
