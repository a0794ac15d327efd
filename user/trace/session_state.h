/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state of one trace session, shared by the files that do its jobs:
 * session.c (prepare, attach, wait, stop, render), collect.c (the counts
 * into the report) and interval.c (-i's output). Nothing else includes
 * it: the rest of pftrace knows run_trace() only (session.h).
 */
#ifndef PFT_SESSION_STATE_H
#define PFT_SESSION_STATE_H

#include <stdbool.h>
#include <time.h>
#include <linux/types.h>

#include "aggregate.h"
#include "duty_cycle.h"
#include "filter.h"
#include "latency_setup.h"
#include "profile.h"
#include "report.h"
#include "sampling.h"
#include "startup.h"
#include "table.h"
#include "targets.h"
#include "trace_opts.h"
#include "walk_loop.h"
#include "workload.h"

/* One -f: its plan and BPF object, and what the run gathered of it. */
struct session_target {
	struct target t;
	struct chain_stats prev;          /* the counts at the last -i report */
	const struct kfunc *fn;           /* the traced function in kallsyms (after the run), or NULL */
	struct function_profile profile;  /* the samples on its code */
	struct table_snapshot snap;       /* --snapshot: the whole table, and lookups by key */
	char snap_err[PFT_ERRLEN];
	struct by_report by;              /* --by */
	struct latency_stats lat;         /* --latency: the counts */
	struct walk_loop loop;            /* and the walk loop of the traced function's code */
	char loop_why[PFT_ERRLEN];
};

/* The per-CPU maps' values, read: buffers sized once for this machine's CPUs. */
struct counts_reader {
	int ncpus;
	unsigned int sample_every;        /* --sample-calls: the counts are of one call in N */
	void *percpu_buf;                 /* chain_counters: one struct per CPU */
	__u64 *agreed_buf;                /* agreed_walks: PFT_AGREED_SLOTS keys x ncpus */
};

struct session {
	const struct trace_opts *opts;
	struct kernel_facts kf;
	struct session_target targets[PFT_MAX_TARGETS];
	int ntargets;
	struct task_filter filter;        /* -p, --cgroup, --only-command, --by */
	struct run_filter run_filter;
	struct lat_session lat;
	struct workload run;              /* -- COMMAND, and the signals that end the run */
	struct duty_cycle duty;           /* --sample N */
	struct startup_log startup;
	struct counts_reader counts;
	int bpf_stats_fd;                 /* BPF_ENABLE_STATS, held for this session only */
	char stats_why[PFT_ERRLEN];
	/* sampling beside the walks */
	struct sampler *sampler;
	struct sample_result samples;
	bool sampled;
	char sampling_off[PFT_ERRLEN];
	const struct kfunc *funcs;        /* every kernel function, read once after the run */
	int nfuncs;
	/* the run itself */
	double startup_ms;                /* process start to every target attached */
	time_t wall_start;
	double start, end;                /* monotonic */
	double cpu_s;                     /* pftrace's own CPU from start to end (detach, snapshots in) */
	const char *end_reason;
	char end_why[96];                 /* an end_reason made up at the end (a module gone) */
	/* --max-overhead: BPF run time over the last window */
	double cap_window_start;
	__u64 cap_window_ns;
	char child_cmd[1024];
	/* -i's -o FILE.prom: the rewrites failed in a row (said once, at the first) */
	unsigned int metrics_failed;
};

#endif
