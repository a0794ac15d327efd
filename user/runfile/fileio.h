/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files a root-run tool may touch: inputs that are regular files and
 * never block, outputs that replace only a regular file (or go to
 * stdout for "-"), and text that cannot smuggle control characters onto
 * a terminal. Pure: no libbpf, no kernel access.
 */
#ifndef PFT_FILEIO_H
#define PFT_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* A one-line error message, "NAME: reason", in every layer */
#define PFT_ERRLEN 512
/* a path as messages show it: text_safe()'s escapes, cut to fit a message */
#define PFT_SHOWN_PATH 400

/*
 * Open PATH for reading only if it is a regular file. O_NONBLOCK on the
 * open keeps a FIFO from blocking us before fstat() can see what it is.
 * Returns the fd (blocking again), or -errno with a one-line reason
 * ("WHAT PATH: ...") in err. st may be NULL.
 */
int open_regular(const char *what, const char *path, struct stat *st,
		 char *err, size_t errlen);

/*
 * The whole of regular file PATH, at most max bytes, NUL-terminated, in
 * *buf (free() it). An empty file is refused: nothing pftrace reads can
 * be empty. 0 or -errno with a reason in err.
 */
int read_regular_file(const char *what, const char *path, size_t max,
		      char **buf, size_t *len, char *err, size_t errlen);

/* Do two stat results name the same file (device and inode)? */
bool same_file(const struct stat *a, const struct stat *b);
/* Is PATH the same file as the one behind st (false if PATH is absent)? */
bool path_is_file(const char *path, const struct stat *st);

/*
 * Output rules for -o PATH: "-" is stdout; otherwise PATH must not end
 * in '/', its directory must exist and be writable, and if PATH exists
 * it must be a regular file (never a device, FIFO, socket, directory or
 * symbolic link). Checked before any work. 0 or -errno with the reason.
 */
int check_output_path(const char *path, char *err, size_t errlen);
bool output_is_stdout(const char *path);
/*
 * -o PATH names what pftrace writes: "-", no extension or ".json" (JSON),
 * or, where PROM_OK, ".prom" (Prometheus text). Anything else ("x.csv")
 * would get JSON it did not ask for: refused, 0 or -EINVAL and ERR.
 */
int output_extension_check(const char *path, bool prom_ok, char *err, size_t errlen);

/*
 * Write DATA to PATH (or stdout for "-") through a temporary file in the
 * same directory and rename(2): a crash or Ctrl-C leaves the old file
 * or the new one, never half of one. An existing file keeps its mode
 * and owner; a new one gets 0666 less the umask. The output rules are
 * checked again just before the rename. 0, or -errno with the reason.
 */
int write_file_atomic(const char *path, const char *data, size_t len,
		      char *err, size_t errlen);

/*
 * S with every control character (C0, DEL, and the C1 range of
 * UTF-8 U+0080..U+009F) written as \xNN, into buf; returns buf. For
 * strings read from files, before they reach a terminal.
 */
const char *text_safe(const char *s, char *buf, size_t buflen);

/*
 * PATH as a message shows it: a name from argv reaches a terminal, so
 * its control characters are escaped as text_safe() does. The buffer
 * lives to the end of the block that names it; long names are cut.
 */
#define PFT_SHOWN_PATH 400
#define shown_path(path) text_safe((path), (char[PFT_SHOWN_PATH]){ 0 }, PFT_SHOWN_PATH)

#endif
