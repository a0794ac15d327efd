// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "fileio.h"
#include "runfile_reader.h"

/*
 * What reading a run file may cost. json-c's tree takes far more memory
 * than the text (an empty object is ~0.6 KB, an integer ~70 B), so the
 * text is scanned first and refused when its tree would cost more than
 * RUNFILE_TREE_RATIO times its size. With the text itself, a read
 * needs at most (RUNFILE_TREE_RATIO + 1) x the file size, plus a few MB
 * of pftrace: checked by tests/host/runfile.sh on hostile files.
 */
#define MAX_RUNFILE_BYTES RUNFILE_MAX_BYTES
#define RUNFILE_TREE_RATIO 32
#define TREE_BYTES_PER_CONTAINER 1024
#define TREE_BYTES_PER_VALUE 96

static const char *const replay_keys[PFT_REPLAY_OPTS] = { "none", "every_node", "nonnull_only" };

/* The replay section, if any: medians, intervals, and each pass's time. */
static int read_replay(struct reader *r, struct json_object *rj)
{
	struct replay_summary *rs = &r->rf->rep.replay;
	struct json_object *per = rd_member(rj, "per_lookup");
	int o;

	if (!per)
		return rd_fail(r, "replay has no \"per_lookup\"");
	snprintf(rs->mode, sizeof(rs->mode), "%s", rd_string(r, rj, "mode"));
	snprintf(rs->unit, sizeof(rs->unit), "%s", rd_string(r, rj, "unit"));
	snprintf(rs->traced, sizeof(rs->traced), "%s", rd_string(r, rj, "traced"));
	for (o = 0; o < PFT_REPLAY_OPTS; o++) {
		struct json_object *oj = rd_member(per, replay_keys[o]), *samples = rd_member(oj, "samples");
		size_t i, n;

		if (!oj || !samples || !json_object_is_type(samples, json_type_array))
			return rd_fail(r, "replay.per_lookup.%s is incomplete", replay_keys[o]);
		rs->median[o] = rd_number(oj, "median");
		rs->lo[o] = rd_number(oj, "lo");
		rs->hi[o] = rd_number(oj, "hi");
		n = json_object_array_length(samples);
		if (n < 1 || n > PFT_REPLAY_MAX_REPS || (o && (int)n != rs->reps))
			return rd_fail(r, "replay.per_lookup.%s has %zu samples", replay_keys[o], n);
		rs->reps = (int)n;
		for (i = 0; i < n; i++)
			rs->samples[o][i] = json_object_get_double(json_object_array_get_idx(samples, i));
	}
	rs->present = true;
	return 0;
}

/*
 * What json-c's tree of TEXT would cost, from one pass over the bytes:
 * containers and values outside strings. Refusing a costly text before
 * parsing keeps memory a bounded multiple of the file size.
 */
static size_t tree_cost(const char *text, size_t len)
{
	size_t containers = 0, values = 1, i;
	bool in_string = false;

	for (i = 0; i < len; i++) {
		char c = text[i];

		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
			continue;
		}
		if (c == '"')
			in_string = true;
		else if (c == '{' || c == '[')
			containers++;
		else if (c == ',' || c == ':')
			values++;
	}
	return containers * TREE_BYTES_PER_CONTAINER + values * TREE_BYTES_PER_VALUE;
}

/* TEXT as a JSON document, whole, at a bounded cost; NULL with the reason in r->err. */
static struct json_object *parse_document(struct reader *r, const char *text, size_t len)
{
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error jerr;
	size_t end;

	if (!len)
		return rd_fail(r, "is empty"), NULL;
	if (tree_cost(text, len) > RUNFILE_TREE_RATIO * len + (1 << 16))
		return rd_fail(r, "too many JSON values for its size: not a file pftrace wrote"), NULL;
	tok = json_tokener_new();
	if (!tok)
		return rd_fail(r, "out of memory"), NULL;
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	/* trailing bytes past the document are whitespace or an error */
	end = json_tokener_get_parse_end(tok);
	while (root && jerr == json_tokener_success && end < len && strchr(" \t\r\n", text[end]))
		end++;
	if (!root || jerr != json_tokener_success || end < len) {
		rd_fail(r, "not JSON (%s at byte %zu)",
			jerr != json_tokener_success ? json_tokener_error_desc(jerr) : "trailing data",
			json_tokener_get_parse_end(tok));
		json_object_put(root);
		root = NULL;
	}
	json_tokener_free(tok);
	return root;
}

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

/* The run as a whole: its command, kernel, machine, times and workload. */
static int read_run(struct reader *r, struct json_object *root)
{
	struct run_report *rep = &r->rf->rep;
	struct json_object *machine = rd_member(root, "machine"), *v;

	rep->command = rd_string(r, root, "command");
	rep->kernel_release = rd_string(r, rd_member(root, "kernel"), "release");
	rep->btf_path = rd_string(r, rd_member(root, "kernel"), "btf");
	snprintf(rep->started, sizeof(rep->started), "%s", rd_string(r, root, "started"));
	rep->duration_s = rd_number(root, "duration_s");
	rep->end_reason = rd_string(r, root, "end_reason");
	rep->startup_ms = rd_number(root, "startup_ms");
	rep->peak_rss_kb = rd_long(root, "peak_rss_kb");
	rep->cpu_s = rd_number(root, "cpu_s");
	rep->bpf_stats = rd_string(r, root, "bpf_stats");
	rep->hostname = rd_string(r, machine, "hostname");
	rep->arch = rd_string(r, machine, "arch");
	rep->cpu_model = rd_string(r, machine, "cpu");
	rep->cpus = rd_int(machine, "cpus");
	rep->merged_runs = rd_int(root, "merged_runs");
	if (!(rep->duration_s >= 0))
		return rd_fail(r, "duration_s is negative");
	if (!(rep->cpu_s >= 0 && rep->cpu_s <= 1e9))
		return rd_fail(r, "cpu_s is out of range");
	if ((v = rd_member(root, "workload"))) {
		rep->child_command = rd_string(r, v, "argv");
		rep->child_exit = rd_int(v, "exit_status");
	}
	return 0;
}

/* Whose lookups were counted: merge refuses to add different tenants. */
static int read_filter(struct reader *r, struct json_object *v)
{
	struct run_filter *f = &r->rf->filter;
	struct json_object *cg = rd_member(v, "cgroup");

	if (!json_object_is_type(v, json_type_object))
		return rd_fail(r, "filter is not an object");
	f->present = true;
	f->pid = rd_long(v, "pid");
	f->cgroup = cg && json_object_is_type(cg, json_type_string) ? rd_string(r, v, "cgroup") : NULL;
	f->only_command = json_object_get_boolean(rd_member(v, "only_command"));
	f->cgroup_id = rd_u64(v, "cgroup_id");
	f->followed = rd_u64(v, "followed");
	f->follow_dropped = rd_u64(v, "follow_dropped");
	if (f->pid < 0 || (!f->pid && !f->cgroup && !f->only_command))
		return rd_fail(r, "filter names no pid, cgroup or command");
	r->rf->rep.filter = f;
	return 0;
}

static int read_targets(struct reader *r, struct json_object *root)
{
	struct json_object *targets = rd_member(root, "targets");
	size_t i, n;

	if (!targets || !json_object_is_type(targets, json_type_array))
		return rd_fail(r, "no \"targets\" list");
	n = json_object_array_length(targets);
	/* a replay of a synthetic workload traced nothing: its file has no target */
	if ((n == 0 && !rd_member(root, "replay")) || n > PFT_MAX_TARGETS)
		return rd_fail(r, "%zu targets; a run has 1 to %d", n, PFT_MAX_TARGETS);
	for (i = 0; i < n; i++) {
		if (runfile_read_target(r, json_object_array_get_idx(targets, i), (int)i))
			return -1;
		r->rf->rep.ntargets++;
	}
	return 0;
}

/* What was sampled beside the walks, if anything. */
static int read_sampling(struct reader *r, struct json_object *v)
{
	struct sample_result *sr = &r->rf->samples;

	if (!json_object_is_type(v, json_type_object))
		return 0;
	snprintf(sr->event, sizeof(sr->event), "%s", rd_string(r, v, "event"));
	snprintf(sr->asked, sizeof(sr->asked), "%s", rd_string(r, v, "asked"));
	snprintf(sr->note, sizeof(sr->note), "%s", rd_string(r, v, "note"));
	if (rd_flag(r, v, "sampling", "fallback", &sr->fallback))
		return -1;
	sr->counts.total = rd_u64(v, "total");
	sr->counts.kernel = rd_u64(v, "kernel");
	r->rf->rep.samples = sr;
	return 0;
}

int runfile_parse(const char *text, size_t len, const char *name, struct run_file *rf,
		  char *err, size_t errlen)
{
	struct reader r = { .rf = rf, .name = name, .err = err, .errlen = errlen };
	struct json_object *root, *v;
	int rc = -1;

	memset(rf, 0, sizeof(*rf));
	root = parse_document(&r, text, len);
	if (!root)
		return -1;
	if (read_schema(&r, root) || read_run(&r, root))
		goto out;
	if ((v = rd_member(root, "filter")) && read_filter(&r, v))
		goto out;
	if (read_targets(&r, root))
		goto out;
	if ((v = rd_member(root, "replay")) && read_replay(&r, v))
		goto out;
	if ((v = rd_member(root, "sampling")) && read_sampling(&r, v))
		goto out;
	rc = 0;
out:
	json_object_put(root);
	if (rc)
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
	for (i = 0; i < PFT_MAX_TARGETS; i++)
		table_snapshot_free(&rf->snaps[i]);
	rf->nstrings = 0;
}
