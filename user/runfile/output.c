// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "output.h"
#include "report.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
		    JSON_C_TO_STRING_NOSLASHESCAPE)

void json_finite_only(struct json_object *o)
{
	size_t i, n;

	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, v) {
			if (json_object_is_type(v, json_type_double) &&
			    !isfinite(json_object_get_double(v)))
				json_object_object_add(o, key, NULL);   /* replaces v in place */
			else
				json_finite_only(v);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		n = json_object_array_length(o);
		for (i = 0; i < n; i++) {
			struct json_object *v = json_object_array_get_idx(o, i);

			if (json_object_is_type(v, json_type_double) &&
			    !isfinite(json_object_get_double(v)))
				json_object_array_put_idx(o, i, NULL);
			else
				json_finite_only(v);
		}
	}
}

int stdout_close(char *err, size_t errlen)
{
	bool failed_before = ferror(stdout), pending = __fpending(stdout) > 0;
	int rc;

	errno = 0;
	rc = fclose(stdout);
	/* nothing written to a stdout closed from the start (>&-) is no failure */
	if (!failed_before && (!rc || (!pending && errno == EBADF)))
		return 0;
	rc = errno ? -errno : -EIO;
	snprintf(err, errlen, "stdout: %s", errno ? strerror(errno) : "a write failed; the output is incomplete");
	return rc;
}

int json_print(struct json_object *root, FILE *f)
{
	json_finite_only(root);
	fputs(json_object_to_json_string_ext(root, JSON_FLAGS), f);
	fputc('\n', f);
	return fflush(f) ? 1 : 0;
}

int json_print_line(struct json_object *root, FILE *f)
{
	json_finite_only(root);
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	return fflush(f) ? 1 : 0;
}

int json_write_file(struct json_object *root, const char *path, char *err, size_t errlen)
{
	const char *s;
	size_t len;
	char *buf;
	int rc;

	json_finite_only(root);
	s = json_object_to_json_string_ext(root, JSON_FLAGS);
	len = strlen(s);
	buf = malloc(len + 2);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	memcpy(buf, s, len);
	buf[len] = '\n';
	rc = write_file_atomic(path, buf, len + 1, err, errlen);
	free(buf);
	return rc;
}

int report_print(const struct run_report *r, enum out_format format)
{
	struct json_object *root;
	int rc;

	switch (format) {
	case FORMAT_JSON:
		root = render_json(r);
		rc = json_print(root, stdout);
		json_object_put(root);
		return rc;
	case FORMAT_OPENMETRICS:
		render_openmetrics(stdout, r);
		break;
	case FORMAT_PROMETHEUS:
		render_prometheus(stdout, r);
		break;
	default:
		render_text(stdout, r);
	}
	return fflush(stdout) ? 1 : 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

bool output_is_prometheus(const char *path)
{
	return ends_with(path, ".prom");
}

int report_write_file(const struct run_report *r, const char *path, char *err, size_t errlen)
{
	struct json_object *root;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!output_is_prometheus(path)) {
		root = render_json(r);
		rc = json_write_file(root, path, err, errlen);
		json_object_put(root);
		return rc;
	}
	f = open_memstream(&buf, &len);
	if (!f) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	/* node_exporter's textfile collector reads Prometheus text, not OpenMetrics */
	render_prometheus(f, r);
	fclose(f);
	rc = write_file_atomic(path, buf, len, err, errlen);
	free(buf);
	return rc;
}
