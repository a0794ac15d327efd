/* SPDX-License-Identifier: GPL-2.0 */
/* Command line: options of every subcommand, parsed into plain structs. */
#ifndef PFT_CLI_H
#define PFT_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include "report.h"   /* PFT_MAX_TARGETS, enum out_format */

#ifndef PFTRACE_VERSION
#define PFTRACE_VERSION "0.0.0"
#endif

#define PFT_MAX_KNOBS 16
#define PFT_MIN_INTERVAL_S 0.1   /* -i */
#define PFT_MAX_SECONDS 31536000 /* -d, -i: a year */


struct common_opts {
	bool verbose;
	enum out_format format;
	const char *btf_path;
};

/* -C key=value: rare knobs, retsnoop-style, instead of ever more flags. */
struct knob {
	const char *key;
	const char *value;
};

struct trace_opts {
	struct common_opts common;
	const char *functions[PFT_MAX_TARGETS];
	int nfunctions;
	double duration_s;        /* 0: until Ctrl-C (or the command ends) */
	double interval_s;        /* 0: no interval output */
	const char *output_path;  /* -o: JSON run file */
	unsigned int sample_every;
	double max_overhead_pct;  /* --max-overhead: 0 = no cap */
	const char *event;        /* -e: what to sample beside the walks */
	long sample_hz;           /* -F */
	bool no_samples;          /* --no-samples */
	const char *vmlinux;      /* --vmlinux: kernel text where there is no kcore */
	bool dry_run;
	struct knob knobs[PFT_MAX_KNOBS];
	int nknobs;
	char **command;           /* after "--": run it while tracing */
	char cmdline[2048];       /* pftrace's own argv, for the run file */
};

/* 0: parsed; 2: bad input (one line printed); -1: help printed. */
int parse_trace_opts(int argc, char **argv, struct trace_opts *o);
int parse_common_opts(int argc, char **argv, struct common_opts *o, const char *cmd);
const char *knob_get(const struct trace_opts *o, const char *key);
void print_usage(FILE *f);
/* The option getopt just refused, as the user wrote it ("-X" of "-Xv", or "--foo"). */
const char *pft_optname(char **argv);
/*
 * The one-line refusal every subcommand gives bad input: "pftrace: WHO:
 * reason" (WHO may be NULL) on stderr. Returns 2, the exit status.
 */
int pft_refuse(const char *who, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* -d, -i: seconds in [min, PFT_MAX_SECONDS] into *out; else a refusal (2) */
int pft_parse_seconds(const char *who, const char *opt, const char *s, double min, double *out);

#endif
