// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
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

static int write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_file_atomic(const char *path, const char *data, size_t len,
		      char *err, size_t errlen)
{
	char dir[4096], base[4096], tmp[8300];
	int fd, rc;

	/* POSIX dirname/basename may write into their argument */
	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dirname(dir), basename(base));
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create a file beside it: %s", path, strerror(-rc));
		return rc;
	}
	rc = write_all(fd, data, len);
	if (!rc && fsync(fd))
		rc = -errno;
	/* mkstemp makes 0600; a run file is no secret */
	if (!rc && fchmod(fd, 0644))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc) {
		unlink(tmp);
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	}
	return rc;
}

int check_output_path(const char *path, char *err, size_t errlen)
{
	char dir[4096];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", path);
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "-o %s: is a directory", path);
		return -EISDIR;
	}
	/* known before tracing starts, not after a long run */
	if (access(dirname(dir), W_OK)) {
		snprintf(err, errlen, "-o %s: %s", path, strerror(errno));
		return -errno;
	}
	return 0;
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

int report_write_file(const struct run_report *r, const char *path, char *err, size_t errlen)
{
	struct json_object *root;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!ends_with(path, ".prom")) {
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
	render_openmetrics(f, r);
	fclose(f);
	rc = write_file_atomic(path, buf, len, err, errlen);
	free(buf);
	return rc;
}
