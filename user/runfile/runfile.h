/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading run files back (report, diff, merge): json-c does the parsing;
 * this turns a document into the same struct run_report the renderers
 * take, checking every key it uses. Schema rule (README, "JSON run file";
 * docs/run-file.schema.json):
 * within a schema number keys are only added, so a reader accepts any
 * file whose schema is at most its own and ignores keys it does not know.
 */
#ifndef PFT_RUNFILE_H
#define PFT_RUNFILE_H

#include <stddef.h>
#include "report.h"

/* the largest run file pftrace reads */
#define RUNFILE_MAX_BYTES (16 << 20)

struct run_file {
	struct run_report rep;
	char *strings[192];     /* owned copies the report points into */
	int nstrings;
	bool has_histograms[PFT_MAX_TARGETS];  /* withheld after a failed self-check */
	struct sample_result samples;          /* the sampling summary, if any */
	struct function_profile profiles[PFT_MAX_TARGETS];  /* counts only, no code */
	struct table_snapshot snaps[PFT_MAX_TARGETS];       /* targets[].snapshot */
	struct latency_fit lat_fits[PFT_MAX_TARGETS];       /* targets[].latency.fit */
	struct run_filter filter;                           /* "filter" */
	struct by_report by[PFT_MAX_TARGETS];               /* targets[].by */
	struct startup_phase phases[PFT_MAX_PHASES];        /* "startup_phases" */
};

/* 0, or -1 with one line (naming the file) in err. */
int runfile_parse(const char *text, size_t len, const char *name, struct run_file *rf,
		  char *err, size_t errlen);
/*
 * One line of -i --format json (JSON Lines): an interval record, whose
 * targets are read as a run file's, by the same rules and at the same
 * cost bound per line; or the closing line, the whole run, read as a run
 * file. 1 (an interval, its span in *interval_s), 0 (the run), or -1
 * with one line in err. NAME names the line ("x.jsonl: line 3").
 */
int runfile_parse_line(const char *text, size_t len, const char *name, struct run_file *rf,
		       double *interval_s, char *err, size_t errlen);
int runfile_read(const char *path, struct run_file *rf, char *err, size_t errlen);
void runfile_free(struct run_file *rf);

#endif
