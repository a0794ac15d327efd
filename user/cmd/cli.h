/* SPDX-License-Identifier: GPL-2.0 */
/* Command line: the trace command's options and the helpers every subcommand uses. */
#ifndef PFT_CLI_H
#define PFT_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include "report.h"   /* PFT_MAX_TARGETS, enum out_format */
#include "trace_opts.h"

#ifndef PFTRACE_VERSION
#define PFTRACE_VERSION "0.0.0"
#endif
/* --version: the release and, from a git checkout, what git describe says */
#ifdef PFTRACE_GIT
#define PFTRACE_VERSION_LONG PFTRACE_VERSION " (git " PFTRACE_GIT ")"
#else
#define PFTRACE_VERSION_LONG PFTRACE_VERSION
#endif

/* 0: parsed; 2: bad input (one line printed); -1: help printed. */
int parse_trace_opts(int argc, char **argv, struct trace_opts *o);
int parse_common_opts(int argc, char **argv, struct common_opts *o, const char *cmd);
void print_usage(FILE *f);
/* The trace command's options and knobs (pftrace snapshot takes them too). */
void print_trace_options(FILE *f);
/* The option getopt just refused, as the user wrote it ("-X" of "-Xv", or "--foo"). */
const char *pft_optname(char **argv);
struct opt_spec;
/* "unknown option '--durtion'; did you mean --duration?" (a static buffer) */
const char *pft_unknown_option(const struct opt_spec *specs, char **argv);
/*
 * The one-line refusal every subcommand gives bad input: "pftrace: WHO:
 * reason" (WHO may be NULL) on stderr. Returns 2, the exit status.
 */
int pft_refuse(const char *who, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * The whole of S as a whole number in [MIN, MAX] into *OUT: 0, or -1 and
 * the caller refuses, in its own words. Every numeric option's parser.
 */
int pft_parse_whole(const char *s, long min, long max, long *out);
/* -d, -i: seconds in [min, PFT_MAX_SECONDS] into *out; else a refusal (2) */
int pft_parse_seconds(const char *who, const char *opt, const char *s, double min, double *out);

#endif
