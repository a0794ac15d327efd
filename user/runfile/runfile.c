// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "fileio.h"
#include "json_rules.h"
#include "runfile_reader.h"

#define MAX_RUNFILE_BYTES RUNFILE_MAX_BYTES

/* A pftrace run file of a schema this pftrace reads. */
static int read_schema(struct reader *r, struct json_object *root)
{
	struct json_object *v = rd_member(root, "tool");
	__u64 schema;

	if (!v || !json_object_is_type(v, json_type_string) || strcmp(json_object_get_string(v), "pftrace"))
		return rd_fail(r, "not a pftrace run file (no \"tool\": \"pftrace\")");
	if (rd_count(r, root, "the run", "schema", true, &schema))
		return -1;
	if (schema == 0)
		return rd_fail(r, "schema 0 does not exist; run files start at schema 1");
	if (schema > PFT_SCHEMA_VERSION)
		return rd_fail(r, "schema %llu; this pftrace reads schema 1 to %d (a newer pftrace wrote it)",
			       (unsigned long long)schema, PFT_SCHEMA_VERSION);
	return 0;
}

/* Where start-up time went: each phase a name, a time and what the verifier did. */
static int read_phases(struct reader *r, struct json_object *arr)
{
	struct run_file *rf = r->rf;
	size_t i, n;

	if (!json_object_is_type(arr, json_type_array))
		return rd_fail(r, "startup_phases is not a list");
	n = json_object_array_length(arr);
	if (n > PFT_MAX_PHASES)
		return rd_fail(r, "startup_phases has %zu phases; pftrace writes at most %d", n,
			       PFT_MAX_PHASES);
	r->where = "startup_phases";
	for (i = 0; i < n; i++) {
		struct json_object *ph = json_object_array_get_idx(arr, i);
		struct startup_phase *sp = &rf->phases[i];

		rd_string_into(r, ph, "phase", sp->name, sizeof(sp->name));
		sp->ms = rd_range(r, ph, "ms", 0, 1e9);
		if (rd_count(r, ph, "startup_phases", "verified_insns", false, &sp->verified_insns))
			return -1;
	}
	r->where = NULL;
	rf->rep.phases = rf->phases;
	rf->rep.nphases = (int)n;
	return r->failed ? -1 : 0;
}


/* The run as a whole: its command, kernel, machine, times and workload. */
static int read_run(struct reader *r, struct json_object *root)
{
	struct run_report *rep = &r->rf->rep;
	struct json_object *machine = rd_member(root, "machine"), *v;

	rep->command = rd_string(r, root, "command");
	rep->kernel_release = rd_string(r, rd_member(root, "kernel"), "release");
	rep->btf_path = rd_string(r, rd_member(root, "kernel"), "btf");
	rd_string_into(r, root, "started", rep->started, sizeof(rep->started));
	rep->duration_s = rd_range(r, root, "duration_s", 0, PFT_DURATION_MAX);
	rep->end_reason = rd_string(r, root, "end_reason");
	rep->startup_ms = rd_range(r, root, "startup_ms", 0, 1e9);
	rep->peak_rss_kb = rd_long(r, root, "peak_rss_kb");
	rep->cpu_s = rd_number(r, root, "cpu_s");
	rep->bpf_stats = rd_string(r, root, "bpf_stats");
	rep->hostname = rd_string(r, machine, "hostname");
	rep->arch = rd_string(r, machine, "arch");
	rep->cpu_model = rd_string(r, machine, "cpu");
	rep->cpus = rd_int(r, machine, "cpus");
	rep->merged_runs = rd_int(r, root, "merged_runs");
	/* a rate over less than a nanosecond overflows: 1e-320 s would give infinite lookups/s */
	if (rep->duration_s > 0 && rep->duration_s < PFT_DURATION_MIN)
		return rd_fail(r, "duration_s %g is below a nanosecond", rep->duration_s);
	if (!(rep->cpu_s >= 0 && rep->cpu_s <= 1e9))
		return rd_fail(r, "cpu_s is out of range");
	if ((v = rd_member(root, "startup_phases")) && read_phases(r, v))
		return -1;
	if ((v = rd_member(root, "workload"))) {
		rep->child_command = rd_string(r, v, "argv");
		rep->child_exit = rd_int(r, v, "exit_status");
	}
	return r->failed ? -1 : 0;
}

/* Whose lookups were counted: merge refuses to add different tenants. */
static int read_filter(struct reader *r, struct json_object *v)
{
	struct run_filter *f = &r->rf->filter;
	struct json_object *cg = rd_member(v, "cgroup");

	if (!json_object_is_type(v, json_type_object))
		return rd_fail(r, "filter is not an object");
	f->present = true;
	f->pid = rd_long(r, v, "pid");
	f->cgroup = cg && json_object_is_type(cg, json_type_string) ? rd_string(r, v, "cgroup") : NULL;
	f->only_command = json_object_get_boolean(rd_member(v, "only_command"));
	f->cgroup_id = rd_u64(r, v, "cgroup_id");
	f->followed = rd_u64(r, v, "followed");
	f->follow_dropped = rd_u64(r, v, "follow_dropped");
	if (f->pid < 0 || (!f->pid && !f->cgroup && !f->only_command))
		return rd_fail(r, "filter names no pid, cgroup or command");
	r->rf->rep.filter = f;
	return 0;
}

/* TARGETS, each a target of the run: a run file's, or an interval record's */
static int read_target_list(struct reader *r, struct json_object *targets)
{
	size_t i, n = json_object_array_length(targets);

	for (i = 0; i < n; i++) {
		if (runfile_read_target(r, json_object_array_get_idx(targets, i), (int)i))
			return -1;
		r->rf->rep.ntargets++;
	}
	r->where = NULL;
	return 0;
}

static int read_targets(struct reader *r, struct json_object *root)
{
	struct json_object *targets = rd_member(root, "targets");
	size_t n;

	if (!targets || !json_object_is_type(targets, json_type_array))
		return rd_fail(r, "no \"targets\" list");
	n = json_object_array_length(targets);
	/* a replay of a synthetic workload traced nothing: its file has no target */
	if ((n == 0 && !rd_member(root, "replay")) || n > PFT_MAX_TARGETS)
		return rd_fail(r, "%zu targets; a run has 1 to %d", n, PFT_MAX_TARGETS);
	return read_target_list(r, targets);
}

/*
 * What was sampled: every sample, those in the kernel, those kept (in a
 * traced function) and of them the dropped; each traced function's
 * samples are among the kept.
 */
static int read_sampling_counts(struct reader *r, struct json_object *v, struct sample_result *sr)
{
	struct sample_counts *c = &sr->counts;
	__u64 freq, cpus;
	int i;

	if (rd_count(r, v, "sampling", "total", false, &c->total) ||
	    rd_count(r, v, "sampling", "kernel", false, &c->kernel) ||
	    rd_count(r, v, "sampling", "in_traced", false, &c->kept) ||
	    rd_count(r, v, "sampling", "dropped", false, &c->dropped) ||
	    rd_count(r, v, "sampling", "freq", false, &freq) ||
	    rd_count(r, v, "sampling", "cpus", false, &cpus))
		return -1;
	if (c->kernel > c->total || c->kept > c->total || c->dropped > c->kept)
		return rd_fail(r, "sampling: %llu samples, %llu in the kernel, %llu kept, %llu dropped",
			       (unsigned long long)c->total, (unsigned long long)c->kernel,
			       (unsigned long long)c->kept, (unsigned long long)c->dropped);
	if (freq > 1000000 || cpus > 1 << 20)
		return rd_fail(r, "sampling: freq %llu or cpus %llu out of range",
			       (unsigned long long)freq, (unsigned long long)cpus);
	sr->freq = (int)freq;
	sr->cpus = (int)cpus;
	for (i = 0; i < r->rf->rep.ntargets; i++) {
		const struct function_profile *p = r->rf->rep.targets[i].profile;

		if (p && p->samples > c->total)
			return rd_fail(r, "targets[%d].samples: %llu samples of %llu", i,
				       (unsigned long long)p->samples, (unsigned long long)c->total);
	}
	return 0;
}


/* What was sampled beside the walks, if anything. */
static int read_sampling(struct reader *r, struct json_object *v)
{
	struct sample_result *sr = &r->rf->samples;

	if (!json_object_is_type(v, json_type_object))
		return 0;
	r->where = "sampling";
	rd_string_into(r, v, "event", sr->event, sizeof(sr->event));
	rd_string_into(r, v, "asked", sr->asked, sizeof(sr->asked));
	rd_string_into(r, v, "note", sr->note, sizeof(sr->note));
	r->where = NULL;
	if (rd_flag(r, v, "sampling", "fallback", &sr->fallback) ||
	    read_sampling_counts(r, v, sr))
		return -1;
	r->rf->rep.samples = sr;
	return 0;
}

int runfile_parse(const char *text, size_t len, const char *name, struct run_file *rf,
		  char *err, size_t errlen)
{
	/* the file's name, from argv, reaches a terminal in every refusal */
	struct reader r = { .rf = rf, .name = shown_path(name), .err = err, .errlen = errlen };
	struct json_object *root, *v;
	char why[160];
	int rc = -1;

	memset(rf, 0, sizeof(*rf));
	root = json_parse_bounded(text, len, MAX_RUNFILE_BYTES, why, sizeof(why));
	if (!root)
		return rd_fail(&r, "%s", why);
	if (read_schema(&r, root) || read_run(&r, root))
		goto out;
	if ((v = rd_member(root, "filter")) && read_filter(&r, v))
		goto out;
	if (read_targets(&r, root))
		goto out;
	if ((v = rd_member(root, "replay")) && runfile_read_replay(&r, v))
		goto out;
	if ((v = rd_member(root, "sampling")) && read_sampling(&r, v))
		goto out;
	/* a string refused along the way fails the read, with the first reason */
	rc = r.failed ? -1 : 0;
out:
	json_object_put(root);
	if (rc)
		runfile_free(rf);
	return rc;
}

/* an interval record's targets, each read as a run file's target */
static int read_interval(struct reader *r, struct json_object *root, double *interval_s)
{
	struct json_object *targets = rd_member(root, "targets");
	size_t n;

	*interval_s = rd_range(r, root, "interval_s", PFT_DURATION_MIN, PFT_DURATION_MAX);
	rd_string(r, root, "interval_end");
	if (r->failed)
		return -1;
	if (!targets || !json_object_is_type(targets, json_type_array))
		return rd_fail(r, "no \"targets\" list");
	n = json_object_array_length(targets);
	if (n == 0 || n > PFT_MAX_TARGETS)
		return rd_fail(r, "%zu targets; an interval has 1 to %d", n, PFT_MAX_TARGETS);
	/* the duty cycle's scale is of the interval */
	r->rf->rep.duration_s = *interval_s;
	return read_target_list(r, targets) || r->failed ? -1 : 0;
}

int runfile_parse_line(const char *text, size_t len, const char *name, struct run_file *rf,
		       double *interval_s, char *err, size_t errlen)
{
	struct reader r = { .rf = rf, .name = shown_path(name), .err = err, .errlen = errlen };
	struct json_object *root;
	char why[160];
	int rc;

	memset(rf, 0, sizeof(*rf));
	*interval_s = 0;
	root = json_parse_bounded(text, len, MAX_RUNFILE_BYTES, why, sizeof(why));
	if (!root)
		return rd_fail(&r, "%s", why);
	if (!json_object_is_type(root, json_type_object)) {
		rc = rd_fail(&r, "not a JSON object");
	} else if (rd_member(root, "tool")) {
		/* the closing line: the whole run, a run file in one line */
		json_object_put(root);
		return runfile_parse(text, len, name, rf, err, errlen) ? -1 : 0;
	} else if (!rd_member(root, "interval_s")) {
		rc = rd_fail(&r, "neither an interval record (\"interval_s\") nor a run (\"tool\")");
	} else {
		rc = read_interval(&r, root, interval_s) ? -1 : 1;
	}
	json_object_put(root);
	if (rc < 0)
		runfile_free(rf);
	return rc;
}

int runfile_read(const char *path, struct run_file *rf, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int rc;

	memset(rf, 0, sizeof(*rf));
	if (read_regular_file("", path, MAX_RUNFILE_BYTES, &buf, &len, err, errlen))
		return -1;
	rc = runfile_parse(buf, len, path, rf, err, errlen);
	free(buf);
	return rc;
}

void runfile_free(struct run_file *rf)
{
	int i;

	for (i = 0; i < rf->nstrings; i++)
		free(rf->strings[i]);
	for (i = 0; i < PFT_MAX_TARGETS; i++) {
		table_snapshot_free(&rf->snaps[i]);
		free(rf->profiles[i].insns);
		free(rf->by[i].rows);
		rf->profiles[i].insns = NULL;
		rf->by[i].rows = NULL;
	}
	rf->nstrings = 0;
}
