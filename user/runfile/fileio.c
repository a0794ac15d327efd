// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

static const char *kind_of(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return "a directory";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFIFO: return "a FIFO";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symbolic link";
	default: return "not a regular file";
	}
}

int open_regular(const char *what, const char *path, struct stat *st,
		 char *err, size_t errlen)
{
	struct stat before, after;
	int fd, flags, rc;

	/* refuse what is not a file before opening it: opening a device can act */
	if (stat(path, &before)) {
		rc = -errno;
		snprintf(err, errlen, "%s%s%s: %s", what, *what ? " " : "", shown_path(path), strerror(-rc));
		return rc;
	}
	if (!S_ISREG(before.st_mode)) {
		snprintf(err, errlen, "%s%s%s: is %s, not a regular file", what, *what ? " " : "",
			 shown_path(path), kind_of(before.st_mode));
		return -EINVAL;
	}
	/* O_NONBLOCK: if it was swapped for a FIFO meanwhile, open must not wait */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s%s%s: %s", what, *what ? " " : "", shown_path(path), strerror(-rc));
		return rc;
	}
	if (fstat(fd, &after) || !S_ISREG(after.st_mode) || !same_file(&before, &after)) {
		close(fd);
		snprintf(err, errlen, "%s%s%s: changed while being opened", what, *what ? " " : "", shown_path(path));
		return -EAGAIN;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	if (st)
		*st = after;
	return fd;
}

int read_regular_file(const char *what, const char *path, size_t max,
		      char **bufp, size_t *lenp, char *err, size_t errlen)
{
	const char *sp = *what ? " " : "";
	size_t len = 0;
	char *buf;
	ssize_t n;
	int fd, rc = 0;

	*bufp = NULL;
	*lenp = 0;
	fd = open_regular(what, path, NULL, err, errlen);
	if (fd < 0)
		return fd;
	buf = malloc(max + 1);
	if (!buf) {
		close(fd);
		snprintf(err, errlen, "%s%s%s: out of memory", what, sp, shown_path(path));
		return -ENOMEM;
	}
	while (len <= max) {
		n = read(fd, buf + len, max + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s%s%s: %s", what, sp, shown_path(path), strerror(-rc));
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!rc && len > max) {
		snprintf(err, errlen, "%s%s%s: larger than %zu bytes, more than pftrace reads",
			 what, sp, shown_path(path), max);
		rc = -EFBIG;
	}
	if (!rc && !len) {
		snprintf(err, errlen, "%s%s%s: is empty", what, sp, shown_path(path));
		rc = -ENODATA;
	}
	if (rc) {
		free(buf);
		return rc;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

bool path_is_file(const char *path, const struct stat *st)
{
	struct stat here;

	return !stat(path, &here) && same_file(&here, st);
}

bool output_is_stdout(const char *path)
{
	return !strcmp(path, "-");
}

int output_extension_check(const char *path, bool prom_ok, char *err, size_t errlen)
{
	const char *base = strrchr(path, '/'), *dot;
	struct stat st;

	/* a directory is no file name: the write's own checks refuse it, and say so */
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return 0;
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	/* "-", "run", "run.json", ".hidden": JSON; "x.prom": metrics */
	if (output_is_stdout(path) || !dot || dot == base || !strcmp(dot, ".json") ||
	    (prom_ok && !strcmp(dot, ".prom")))
		return 0;
	snprintf(err, errlen, "-o %s: pftrace writes JSON (.json, or no extension)%s, not '%s'",
		 shown_path(path), prom_ok ? " or Prometheus text (.prom)" : "", dot);
	return -EINVAL;
}

/* lstat of an existing output: a regular file, or the refusal */
static int existing_output(const char *path, struct stat *st, bool *exists,
			   char *err, size_t errlen)
{
	*exists = false;
	if (lstat(path, st)) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "-o %s: %s", shown_path(path), strerror(errno));
		return -errno;
	}
	if (S_ISDIR(st->st_mode)) {
		snprintf(err, errlen, "-o %s: is a directory", shown_path(path));
		return -EISDIR;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(err, errlen, "-o %s: is %s; pftrace replaces only a regular file",
			 shown_path(path), kind_of(st->st_mode));
		return -EINVAL;
	}
	*exists = true;
	return 0;
}

/*
 * The temporary name beside PATH a write goes through: ".BASE.XXXXXX",
 * BASE cut so that the name fits NAME_MAX even where PATH's own barely
 * does (a 250-byte name).
 */
#define TEMP_SUFFIX ".XXXXXX"
static void temp_beside(const char *path, char *tmp, size_t size)
{
	char dir[4096], base[4096];

	/* POSIX dirname/basename may write into their argument */
	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	snprintf(tmp, size, "%s/.%.*s" TEMP_SUFFIX, dirname(dir),
		 (int)(NAME_MAX - 1 - strlen(TEMP_SUFFIX)), basename(base));
}

/*
 * Whether a file can be made where PATH goes: its name no longer than
 * the directory takes, and the temporary file made and removed again,
 * which /proc, /sys, a read-only mount or a full inode table refuse now
 * rather than after the work.
 */
static int output_creatable(const char *path, const char *parent, char *err, size_t errlen)
{
	char base[4096], tmp[8300];
	long name_max = pathconf(parent, _PC_NAME_MAX);
	int fd, rc;

	snprintf(base, sizeof(base), "%s", path);
	if (strlen(basename(base)) > (size_t)(name_max > 0 ? name_max : NAME_MAX)) {
		snprintf(err, errlen, "-o %s: %s", shown_path(path), strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	temp_beside(path, tmp, sizeof(tmp));
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "-o %s: cannot create a file there: %s", shown_path(path),
			 strerror(-rc));
		return rc;
	}
	close(fd);
	unlink(tmp);
	return 0;
}

int check_output_path(const char *path, char *err, size_t errlen)
{
	char dir[4096], *parent;
	struct stat st;
	bool exists;
	size_t n = strlen(path);
	int rc;

	if (output_is_stdout(path))
		return 0;
	if (!n || n >= sizeof(dir)) {
		snprintf(err, errlen, "-o wants a file name%s", n ? " shorter than 4096 bytes" : "");
		return -EINVAL;
	}
	if (path[n - 1] == '/') {
		snprintf(err, errlen, "-o %s: names a directory, not a file", shown_path(path));
		return -EISDIR;
	}
	rc = existing_output(path, &st, &exists, err, errlen);
	if (rc)
		return rc;
	/* known before tracing starts, not after a long run */
	snprintf(dir, sizeof(dir), "%s", path);
	parent = dirname(dir);   /* may point to a static "." rather than into dir */
	errno = 0;
	if (stat(parent, &st) || !S_ISDIR(st.st_mode) || access(parent, W_OK | X_OK)) {
		rc = errno ? -errno : -ENOTDIR;
		snprintf(err, errlen, "-o %s: %s", shown_path(path), strerror(-rc));
		return rc;
	}
	return output_creatable(path, parent, err, errlen);
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

static mode_t current_umask(void)
{
	mode_t m = umask(077);

	umask(m);
	return m;
}

int write_file_atomic(const char *path, const char *data, size_t len,
		      char *err, size_t errlen)
{
	char tmp[8300];
	struct stat old;
	bool exists;
	int fd, rc;

	if (output_is_stdout(path)) {
		rc = write_all(STDOUT_FILENO, data, len);
		if (rc)
			snprintf(err, errlen, "stdout: %s", strerror(-rc));
		return rc;
	}
	rc = check_output_path(path, err, errlen);
	if (rc)
		return rc;
	temp_beside(path, tmp, sizeof(tmp));
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create a file beside it: %s", shown_path(path), strerror(-rc));
		return rc;
	}
	rc = write_all(fd, data, len);
	if (!rc && fsync(fd))
		rc = -errno;
	/* checked again now: what stands at PATH may have changed during the run */
	if (!rc)
		rc = existing_output(path, &old, &exists, err, errlen);
	if (!rc && exists) {
		/* the file keeps who owns it and who may read it */
		if (fchmod(fd, old.st_mode & 0777) ||
		    ((old.st_uid != geteuid() || old.st_gid != getegid()) &&
		     fchown(fd, old.st_uid, old.st_gid)))
			rc = -errno;
	} else if (!rc && fchmod(fd, 0666 & ~current_umask())) {
		rc = -errno;   /* mkstemp made it 0600 */
	}
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc) {
		unlink(tmp);
		if (rc != -EINVAL && rc != -EISDIR)
			snprintf(err, errlen, "%s: %s", shown_path(path), strerror(-rc));
	}
	return rc;
}

/* length of the valid UTF-8 sequence at s and its code point, or 0 */
static int utf8_seq(const unsigned char *s, uint32_t *cp)
{
	int n, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		*cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		*cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		*cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and beyond U+10FFFF are not text */
	if ((n == 3 && *cp < 0x800) || (n == 4 && (*cp < 0x10000 || *cp > 0x10ffff)) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}

const char *text_safe(const char *s, char *buf, size_t buflen)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t out = 0;
	uint32_t cp;
	int n, i;

	if (!buflen)
		return "";
	while (*p && out + 5 < buflen) {
		n = utf8_seq(p, &cp);
		if (n && cp >= 0x20 && cp != 0x7f && (cp < 0x80 || cp > 0x9f)) {
			for (i = 0; i < n; i++)
				buf[out++] = (char)p[i];
			p += n;
			continue;
		}
		/* a control character, or a byte that is not UTF-8 */
		n = n ? n : 1;
		for (i = 0; i < n && out + 5 < buflen; i++)
			out += (size_t)snprintf(buf + out, buflen - out, "\\x%02x", p[i]);
		p += n;
	}
	buf[out] = '\0';
	return buf;
}
