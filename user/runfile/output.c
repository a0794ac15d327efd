// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "output.h"
#include "report.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
		    JSON_C_TO_STRING_NOSLASHESCAPE)

int json_print(struct json_object *root, FILE *f)
{
	fputs(json_object_to_json_string_ext(root, JSON_FLAGS), f);
	fputc('\n', f);
	return fflush(f) ? 1 : 0;
}

int json_print_line(struct json_object *root, FILE *f)
{
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	return fflush(f) ? 1 : 0;
}

int json_write_file(struct json_object *root, const char *path, char *err, size_t errlen)
{
	const char *s = json_object_to_json_string_ext(root, JSON_FLAGS);
	size_t len = strlen(s);
	char *buf = malloc(len + 2);
	int rc;

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
