/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A status line for long work (time left under -d, replay's passes, the
 * sites scan, the snapshot), on stderr, rewritten in place. Only when
 * stdout and stderr are both terminals: a pipe or a file sees nothing of
 * it, and -q silences it on a terminal too.
 */
#ifndef PFT_PROGRESS_H
#define PFT_PROGRESS_H

#include <stdbool.h>

/* Off for good (-q), before any progress. */
void progress_quiet(void);
/* The status line, at most ten times a second; printf-style. */
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Whether a status line would show (a loop may then wake up for it). */
bool progress_on(void);
/* Clear the line (before other output, and at the end). */
void progress_done(void);

#endif
