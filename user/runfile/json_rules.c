// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "json_rules.h"
#include "report.h"

/*
 * What json-c's tree costs: an empty object ~0.6 KB, an integer ~70 B,
 * measured on json-c 0.16. With the text itself a read needs at most
 * (JSON_TREE_RATIO + 1) x its size, plus a few MB of pftrace: checked
 * by tests/host/safety.sh on hostile files.
 */
#define TREE_BYTES_PER_CONTAINER 1024
#define TREE_BYTES_PER_VALUE 96

/*
 * What json-c's tree of TEXT would cost, from one pass over the bytes:
 * containers and values outside strings. Refusing a costly text before
 * parsing keeps memory a bounded multiple of its size.
 */
static size_t tree_cost(const char *text, size_t len)
{
	size_t containers = 0, values = 1, i;
	bool in_string = false;

	for (i = 0; i < len; i++) {
		char c = text[i];

		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
			continue;
		}
		if (c == '"')
			in_string = true;
		else if (c == '{' || c == '[')
			containers++;
		else if (c == ',' || c == ':')
			values++;
	}
	return containers * TREE_BYTES_PER_CONTAINER + values * TREE_BYTES_PER_VALUE;
}

struct json_object *json_parse_bounded(const char *text, size_t len, size_t max,
				       char *why, size_t whylen)
{
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error jerr;
	size_t end;

	if (!len) {
		snprintf(why, whylen, "is empty");
		return NULL;
	}
	if (len > max) {
		snprintf(why, whylen, "larger than %zu bytes, more than pftrace reads", max);
		return NULL;
	}
	if (tree_cost(text, len) > JSON_TREE_RATIO * len + (1 << 16)) {
		snprintf(why, whylen, "too many JSON values for its size: not a file pftrace wrote");
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	errno = 0;
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	/* trailing bytes past the document are white space or an error */
	while (root && jerr == json_tokener_success && end < len && text[end] &&
	       strchr(" \t\r\n", text[end]))
		end++;
	if (!root && errno == ENOMEM) {
		/* json-c says only that it stopped: a memory limit is no syntax error */
		snprintf(why, whylen, "out of memory reading its %zu bytes", len);
	} else if (!root || jerr != json_tokener_success || end < len) {
		snprintf(why, whylen, "not JSON (%s at byte %zu)",
			 jerr != json_tokener_success ? json_tokener_error_desc(jerr) :
			 root ? "trailing data" : "unexpected end of data",
			 json_tokener_get_parse_end(tok));
		json_object_put(root);
		root = NULL;
	}
	json_tokener_free(tok);
	return root;
}

const char *json_count_of(struct json_object *v, __u64 *out)
{
	int64_t i;

	*out = 0;
	if (!json_object_is_type(v, json_type_int))
		return "is not an integer";
	i = json_object_get_int64(v);
	if (i < 0)
		return "is negative";
	if ((__u64)i > PFT_COUNT_MAX)
		return "is out of range (counts are below 2^63)";
	*out = (__u64)i;
	return NULL;
}

bool json_count_add(__u64 a, __u64 b, __u64 *sum)
{
	return !__builtin_add_overflow(a, b, sum) && *sum <= PFT_COUNT_MAX;
}

const char *json_text_of(struct json_object *v, size_t max, const char **out,
			 char *why, size_t whylen)
{
	const char *s;
	size_t n;

	*out = "";
	if (!json_object_is_type(v, json_type_string))
		return "is not a string";
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	/* C would cut it there: "avc_lookup\u0000evil" is no name pftrace wrote */
	if (strlen(s) != n)
		return "holds a NUL byte";
	if (n > max) {
		snprintf(why, whylen, "is longer than %zu bytes", max);
		return why;
	}
	*out = s;
	return NULL;
}

const char *json_number_of(struct json_object *v, double lo, double hi, double *out,
			   char *why, size_t whylen)
{
	double d;

	*out = 0;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return "is not a number";
	d = json_object_get_double(v);
	/* json-c takes NaN and Infinity, and reads 1e400 as infinity: none is JSON's */
	if (!isfinite(d))
		return "is not a finite number";
	if (!(d >= lo && d <= hi)) {
		snprintf(why, whylen, "is out of range (%g to %g)", lo, hi);
		return why;
	}
	*out = d;
	return NULL;
}
