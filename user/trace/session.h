/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PFT_SESSION_H
#define PFT_SESSION_H

#include "trace_opts.h"

/* Note the time the process started, for the start-up figure. */
void session_mark_process_start(void);
/* Trace until -d, Ctrl-C/SIGTERM or the command's end; returns the exit status. */
int run_trace(const struct trace_opts *o);

#endif
