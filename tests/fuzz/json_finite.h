/* SPDX-License-Identifier: GPL-2.0 */
/* For the fuzz targets: whether a tree holds a number JSON has no spelling for. */
#ifndef PFT_FUZZ_JSON_FINITE_H
#define PFT_FUZZ_JSON_FINITE_H

#include <math.h>
#include <stdbool.h>
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

#endif
