/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The aggregate a run produces, and its renderers. Renderers are pure
 * functions of this struct: the text a terminal shows and the JSON run
 * file carry the same numbers.
 */
#ifndef PFT_REPORT_H
#define PFT_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "aggregate.h"
#include "profile.h"
#include "table.h"
#include "latency.h"

#define PFT_MAX_TARGETS 8

enum out_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_OPENMETRICS, FORMAT_PROMETHEUS };

#include <stdint.h>
#define PFT_SCHEMA_VERSION 1
/* Every count in a run file is below 2^63 (json-c reads integers as int64). */
#define PFT_COUNT_MAX ((__u64)INT64_MAX - 1)
/*
 * A run's duration_s, 0 or in [MIN, MAX]: a rate over less than a
 * nanosecond could overflow to infinity; MAX holds merges of many runs.
 */
#define PFT_DURATION_MIN 1e-9
#define PFT_DURATION_MAX 1e12

/* -p, --cgroup, --only-command: whose lookups were counted */
struct run_filter {
	bool present;
	long pid;                /* 0: none */
	const char *cgroup;      /* NULL: none */
	__u64 cgroup_id;
	bool only_command;
	__u64 followed;          /* --only-command: processes the command forked and that were followed */
	__u64 follow_dropped;    /* forks not followed: the map was full */
};

/* --by: the walks charged to who made them */
struct by_row {
	char name[256];          /* comm, the cgroup's path, or a process in the namespace */
	__u64 id;                /* thread group, cgroup id or namespace inode (0 for comm) */
	__u64 lookups, nodes, misses;
};
struct by_report {
	const char *key;         /* "comm", "pid", "cgroup" or "netns" */
	/* netns: "lookup" (the lookup's own net argument) or "task" (the task it ran in) */
	const char *netns_of;
	struct by_row *rows;     /* by nodes walked, most first */
	int nrows;
	__u64 dropped;           /* lookups no row took: the map was full */
	bool scaled;             /* counts multiplied up from --sample */
};

/*
 * --sample N: the programs were attached one slice of time in N. The
 * counts are of the attached time; scale (the run's duration over the
 * time attached) makes whole-run estimates of them.
 */
struct duty_summary {
	unsigned int one_in;     /* 0 or 1: attached throughout */
	double slice_ms;         /* the slice in force at the end */
	bool slice_chosen;       /* by pftrace from the costs (duty.h), not --slice */
	bool stays_attached;     /* paused between slices, not detached (kernel before 5.19) */
	unsigned int slices;     /* slices attached */
	double attached_s;       /* walking, in all: from resume to pause or the slice's end (walk_pause) */
	double switching_s;      /* spent inside attach and detach calls */
	double attach_ms;        /* one attach of every cycled target, the mean (0: none) */
	double detach_ms;        /* one detach of them, the mean (0: none) */
	double switch_cpu_ms;    /* pftrace's CPU for a detach and an attach, the mean (0: unknown) */
	double walk_cpu_s;       /* BPF run time of the walks meanwhile (0: unknown) */
	double scale;            /* duration / attached_s */
};

/*
 * A count one recipe keeps of what its kernel function does beyond the
 * walk (conntrack's matches the kernel rejected, its walks that ended
 * in another chain): a name for the JSON, a line saying what it counts.
 */
#define PFT_RECIPE_COUNTS 4
struct recipe_count {
	const char *name;
	const char *what;
	__u64 value;
};

struct target_report {
	const char *requested;
	const char *traced;
	const char *recipe;
	const char *table;
	const char *method;
	const char *loads;       /* how walks read nodes: "direct" loads or "probe" reads; "" unknown */
	const char *adds;        /* how counters are bumped: "plain" or "atomic"; "" unknown */
	const char *plan_note;   /* "" when requested == traced */
	const char *detail;      /* layout, slots, hash */
	const char *iterator;    /* the kernel's loop over the chain */
	enum pft_chain_end chain_end;
	__u64 table_slots;       /* buckets, as the walks computed them */
	unsigned int sample_every;                /* --sample-calls */
	struct duty_summary duty;                 /* --sample */
	struct chain_stats stats;
	struct walk_summary sum;
	const struct function_profile *profile;   /* samples on its code, or NULL */
	/* BPF run time of this target's programs (BPF_ENABLE_STATS) */
	bool overhead_known;
	__u64 run_time_ns;
	__u64 runs;
	__u64 recursion_misses;  /* calls the kernel skipped: program busy on that CPU */
	const struct table_snapshot *snapshot;   /* --snapshot, or NULL */
	const struct latency_stats *latency;     /* --latency, or NULL */
	const char *latency_unit_why;            /* why ns and not cycles ("" if cycles) */
	const char *latency_overhead_why;        /* how the overhead was calibrated, or why not */
	int loop_min, loop_max, loop_body;       /* the walk loop in instructions (0: unknown) */
	const char *loop_why;                    /* why unknown */
	const struct latency_fit *latency_fit;   /* read back from a run file, or NULL */
	const char *latency_unit;                /* its unit, "ns" or "cycles" */
	const char *snapshot_error;              /* why a snapshot asked for is missing */
	const struct by_report *by;              /* --by, or NULL */
	struct recipe_count recipe_counts[PFT_RECIPE_COUNTS];
	int nrecipe_counts;
};

/* A replay section (pftrace replay -o), as read back from a run file. */
#define PFT_REPLAY_OPTS 3       /* none, every_node, nonnull_only */
#define PFT_REPLAY_MAX_REPS 255
struct replay_summary {
	bool present;
	char source[256];       /* "synthetic chain=3", or the run file's name */
	char mode[8];           /* warm, cold */
	char unit[8];           /* tsc, ns */
	char traced[64];
	__u64 buckets, nodes, node_bytes, lookups_per_pass;
	double requested_mean, requested_hits;    /* asked: nodes per lookup, hit ratio */
	double counted_hits;                      /* replayed: the hit ratio */
	__u64 counted_walked[PFT_HIST_SLOTS];     /* replayed: lookups by nodes walked */
	int reps;
	double median[PFT_REPLAY_OPTS], lo[PFT_REPLAY_OPTS], hi[PFT_REPLAY_OPTS];
	double samples[PFT_REPLAY_OPTS][PFT_REPLAY_MAX_REPS];
};

/* Where start-up time went (-v, and the run file's startup_phases). */
#define PFT_MAX_PHASES 32
struct startup_phase {
	char name[64];
	double ms;
	__u64 verified_insns;    /* a load: instructions the verifier processed */
};

struct run_report {
	const char *command;     /* pftrace's own command line */
	const char *kernel_release;
	const char *btf_path;
	char started[40];        /* ISO 8601, UTC */
	double duration_s;
	const char *end_reason;  /* "duration", "SIGINT", "command exited", ... */
	const char *child_command;
	int child_exit;          /* exit status, or 128 + signal */
	int ntargets;
	struct target_report targets[PFT_MAX_TARGETS];
	const char *hostname;    /* the machine, for reports and fleets */
	const char *arch;
	const char *cpu_model;
	int cpus;
	int merged_runs;         /* > 1: the sum of that many runs (pftrace merge) */
	const char *bpf_stats;   /* "" when run times were measured, else why not */
	struct replay_summary replay;
	const struct sample_result *samples;      /* NULL: not sampled */
	const char *sampling_off;                 /* why not, when asked */
	double startup_ms;       /* process start to every program attached */
	const struct startup_phase *phases;
	int nphases;
	long peak_rss_kb;
	double cpu_s;            /* pftrace's own CPU while it traced (the command's not) */
	const struct run_filter *filter;          /* NULL or !present: everyone's lookups */
};

/* per call, and as a share of one CPU over the run */
double overhead_ns_per_call(const struct target_report *t);
double overhead_cpu_pct(const struct target_report *t, double duration_s);

void report_finish_target(struct target_report *t);
/* true when every target's self-check passed */
bool report_self_check_ok(const struct run_report *r);

void render_target_text(FILE *f, const struct target_report *t, double duration_s);
void render_text(FILE *f, const struct run_report *r);
struct json_object *render_json(const struct run_report *r);
/* A run file's first keys (tool, version, schema, command): its one writer's. */
void runfile_add_header(struct json_object *root, const char *command);
/* A run file that traced nothing yet: the header and no target (replay --synthetic). */
struct json_object *runfile_new_document(const char *command);
/* one target's counts over DURATION_S, as in the run file's "targets" */
struct json_object *render_target_json(const struct target_report *t, double duration_s);
void render_openmetrics(FILE *f, const struct run_report *r);
/* The same families as Prometheus text 0.0.4, for node_exporter's textfile collector. */
void render_prometheus(FILE *f, const struct run_report *r);
/* {"median", "lo", "hi"} of a timing (replay, whatif's costs) */
struct estimate;
struct json_object *estimate_json(struct estimate e);
/* A function's samples and prefetch instructions (profile_render.c) */
/* the indexes of P's MAX hottest instructions, hottest first (ties: the lower address) */
int profile_hottest(const struct function_profile *p, int *idx, int max);
void render_profile_text(FILE *f, const struct function_profile *p, const struct sample_result *r);
struct json_object *profile_json(const struct function_profile *p, const struct sample_result *r);
/* What was sampled, for a JSON document's "sampling" key. */
struct json_object *sampling_json(const struct sample_result *r);
/* Print R on stdout in FORMAT; 0 or 1 on a write error. */
int report_print(const struct run_report *r, enum out_format format);
/*
 * Write R to PATH, atomically: Prometheus text when PATH ends in ".prom"
 * (node_exporter's textfile collector), JSON otherwise.
 */
int report_write_file(const struct run_report *r, const char *path, char *err, size_t errlen);
/* true when PATH names a metrics file (".prom"): Prometheus text, not JSON */
bool output_is_prometheus(const char *path);

#endif
