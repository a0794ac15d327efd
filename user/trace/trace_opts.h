/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a trace session is asked to do: the command line parses into
 * these (user/cmd/cli.c), the session and the recipes read them.
 */
#ifndef PFT_TRACE_OPTS_H
#define PFT_TRACE_OPTS_H

#include <stdbool.h>
#include "report.h"   /* PFT_MAX_TARGETS, enum out_format */

#define PFT_MIN_INTERVAL_S 0.1   /* -i */
#define PFT_MAX_SECONDS 31536000 /* -d, -i: a year */
/* --slice: short enough that a 10-second trace holds many, long enough to dwarf an attach */
#define PFT_DEFAULT_SLICE_MS 20
#define PFT_MIN_SLICE_MS 5
#define PFT_MAX_SLICE_MS 10000


struct common_opts {
	bool verbose;
	enum out_format format;
	const char *btf_path;
};

/*
 * -C KEY=VALUE: rare knobs, retsnoop-style, instead of ever more flags.
 * user/cmd/knobs.c parses them into these typed fields; 0 is always
 * "not given: pftrace decides".
 */
enum knob_attach { KNOB_ATTACH_AUTO, KNOB_ATTACH_FEXIT, KNOB_ATTACH_KPROBE };
enum knob_walk { KNOB_WALK_AUTO, KNOB_WALK_ON, KNOB_WALK_OFF };
enum knob_loads { KNOB_LOADS_AUTO, KNOB_LOADS_DIRECT, KNOB_LOADS_PROBE };
enum knob_adds { KNOB_ADDS_AUTO, KNOB_ADDS_PLAIN, KNOB_ADDS_ATOMIC };
enum knob_avc_hash { KNOB_AVC_HASH_AUTO, KNOB_AVC_HASH_XOR, KNOB_AVC_HASH_MURMUR3 };

struct trace_knobs {
	enum knob_attach attach;     /* force the attach method */
	enum knob_walk walk;         /* off: return at once (the benchmark's floor) */
	enum knob_loads loads;       /* probe: probe reads where direct loads would do */
	enum knob_adds adds;         /* atomic: atomic adds where plain ones would do */
	enum knob_avc_hash avc_hash; /* the AVC's bucket function, to prove the self-check */
};

struct trace_opts {
	struct common_opts common;
	const char *functions[PFT_MAX_TARGETS];
	int nfunctions;
	double duration_s;        /* 0: until Ctrl-C (or the command ends) */
	double interval_s;        /* 0: no interval output */
	const char *output_path;  /* -o: JSON run file */
	unsigned int sample_every;    /* --sample-calls: walk one call in N per CPU */
	unsigned int duty_one_in;     /* --sample: attached one slice of time in N */
	double slice_s;               /* --slice: an attached slice's length */
	bool slice_set;
	double max_overhead_pct;  /* --max-overhead: 0 = no cap */
	const char *event;        /* -e: what to sample beside the walks */
	long sample_hz;           /* -F */
	bool no_samples;          /* --no-samples */
	const char *vmlinux;      /* --vmlinux: kernel text where there is no kcore */
	bool dry_run;
	bool snapshot;            /* --snapshot: walk the whole table at the end */
	bool snapshot_only;       /* pftrace snapshot without -d or COMMAND: attach nothing */
	unsigned int key_limit;   /* --snapshot: keys counted at most (key_counts' size) */
	bool latency;             /* --latency: each lookup's own time, by nodes walked */
	long pid;                 /* -p: count only this thread group's lookups (0: all) */
	const char *cgroup;       /* --cgroup: only lookups from this cgroup v2 and below */
	bool only_command;        /* --only-command: only COMMAND's and its children's */
	int by;                   /* --by: enum pft_by */
	struct trace_knobs knobs;
	char **command;           /* after "--": run it while tracing */
	char cmdline[2048];       /* pftrace's own argv, for the run file */
};

#endif
