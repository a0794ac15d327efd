// SPDX-License-Identifier: GPL-2.0
/*
 * `pftrace merge A.json B.json ... [-o fleet.json|fleet.prom]`: runs
 * from many hosts added into one. Every count and histogram bucket is a
 * plain sum, so merged numbers are exact; durations add up to
 * host-seconds, which keeps lookups/s a per-host rate.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json_rules.h"
#include "commands.h"
#include "opts.h"
#include "output.h"
#include "progress.h"
#include "runfile.h"
#include "runtools.h"

static bool filtered(const struct run_filter *f)
{
	return f && f->present;
}

/* Two runs counted the same tasks: both everyone's, or the same filter. */
static bool same_filter(const struct run_filter *a, const struct run_filter *b)
{
	if (!filtered(a) || !filtered(b))
		return filtered(a) == filtered(b);
	return a->pid == b->pid && a->only_command == b->only_command &&
	       !strcmp(a->cgroup ? a->cgroup : "", b->cgroup ? b->cgroup : "");
}

static const char *filter_words(const struct run_filter *f, char *buf, size_t len)
{
	char pid[32] = "";

	if (!filtered(f))
		return "everyone's lookups";
	if (f->pid)
		snprintf(pid, sizeof(pid), " process %ld", f->pid);
	snprintf(buf, len, "the lookups of%s%s%s%s", pid, f->only_command ? " its command" : "",
		 f->cgroup ? " cgroup " : "", f->cgroup ? f->cgroup : "");
	return buf;
}

/* "of 20 ms", or "chosen by the costs": a duty cycle's slices, for a refusal */
static const char *duty_words(const struct duty_summary *d, char *buf, size_t len)
{
	if (d->slice_chosen)
		snprintf(buf, len, "chosen by the costs");
	else
		snprintf(buf, len, "of %g ms", d->slice_ms);
	return buf;
}

/* rows charged to the same who: the same name, and the same id (a pid, a cgroup) */
static struct by_row *by_row_of(struct by_report *m, const struct by_row *r)
{
	int i;

	for (i = 0; i < m->nrows; i++)
		if (m->rows[i].id == r->id && !strcmp(m->rows[i].name, r->name))
			return &m->rows[i];
	return NULL;
}

static int by_nodes_desc(const void *a, const void *b)
{
	const struct by_row *x = a, *y = b;

	return x->nodes < y->nodes ? 1 : x->nodes > y->nodes ? -1 :
	       x->lookups < y->lookups ? 1 : x->lookups > y->lookups ? -1 : 0;
}

/*
 * --by of one more run into M (owned by the merge): rows of the same
 * who add up, the others join. Runs charged by another key, or not at
 * all where the first was, do not add.
 */
static int merge_by(struct by_report *m, const struct target_report *b, const char *name,
		    const char *first_name, char *err, size_t errlen)
{
	int k;

	if (!m != !b->by || (m && strcmp(m->key, b->by->key))) {
		snprintf(err, errlen, "%s: %s charged its walks %s%s, %s %s%s; merge wants the same --by",
			 name, b->traced, b->by ? "by " : "to no one", b->by ? b->by->key : "", first_name,
			 m ? "by " : "to no one", m ? m->key : "");
		return -1;
	}
	if (!m)
		return 0;
	m->scaled |= b->by->scaled;
	if (!json_count_add(m->dropped, b->by->dropped, &m->dropped))
		goto overflow;
	for (k = 0; k < b->by->nrows; k++) {
		const struct by_row *r = &b->by->rows[k];
		struct by_row *row = by_row_of(m, r), *rows;

		if (!row) {
			if (m->nrows == PFT_BY_MAX) {
				snprintf(err, errlen, "%s: %s's --by rows pass %d when added to the runs "
					 "before it", name, b->traced, PFT_BY_MAX);
				return -1;
			}
			rows = realloc(m->rows, (size_t)(m->nrows + 1) * sizeof(*rows));
			if (!rows) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			m->rows = rows;
			row = &m->rows[m->nrows++];
			*row = (struct by_row){ .id = r->id };
			snprintf(row->name, sizeof(row->name), "%s", r->name);
		}
		if (!json_count_add(row->lookups, r->lookups, &row->lookups) ||
		    !json_count_add(row->nodes, r->nodes, &row->nodes) ||
		    !json_count_add(row->misses, r->misses, &row->misses))
			goto overflow;
	}
	/* as the trace writes them: most nodes walked first */
	qsort(m->rows, (size_t)m->nrows, sizeof(*m->rows), by_nodes_desc);
	return 0;
overflow:
	snprintf(err, errlen, "%s: %s's --by counts overflow when added to the runs before it "
		 "(counts are below 2^63)", name, b->traced);
	return -1;
}

/* Whether B's target and FIRST's add up: the same function, sampled alike, with walks that are data. */
static int check_target(const struct target_report *a, const struct target_report *b, int t,
			const char *name, const char *first, char *err, size_t errlen)
{
	char w1[160], w2[160];

	if (strcmp(a->traced, b->traced)) {
		snprintf(err, errlen, "%s: target %d is %s, %s traced %s; merge wants "
			 "the same targets", name, t + 1, b->traced, first, a->traced);
		return -1;
	}
	if (a->sample_every != b->sample_every) {
		snprintf(err, errlen, "%s: %s sampled 1 in %u, %s 1 in %u; sampled counts "
			 "do not add", name, b->traced, b->sample_every, first, a->sample_every);
		return -1;
	}
	/* slices pftrace chose differ run by run, as the costs did */
	if (a->duty.one_in != b->duty.one_in || a->duty.slice_chosen != b->duty.slice_chosen ||
	    a->duty.stays_attached != b->duty.stays_attached ||
	    (!a->duty.slice_chosen && a->duty.slice_ms != b->duty.slice_ms)) {
		snprintf(err, errlen, "%s: %s attached 1 slice %s in %u%s, %s 1 %s in %u%s "
			 "(--sample); merge wants the same duty cycle", name, b->traced,
			 duty_words(&b->duty, w1, sizeof(w1)), b->duty.one_in ? b->duty.one_in : 1,
			 b->duty.stays_attached ? ", staying attached" : "", first,
			 duty_words(&a->duty, w2, sizeof(w2)), a->duty.one_in ? a->duty.one_in : 1,
			 a->duty.stays_attached ? ", staying attached" : "");
		return -1;
	}
	if (!b->sum.self_check_ok) {
		snprintf(err, errlen, "%s: %s failed its self-check; its walks are not data",
			 name, b->traced);
		return -1;
	}
	return 0;
}

/* Whether run R adds up with the first: the same targets, of the same tasks. */
static int merge_check(const struct merge *mg, const struct run_report *r, const char *name,
		       char *err, size_t errlen)
{
	const struct run_report *first = mg->first;
	char w1[160], w2[160];
	int t;

	if (r->ntargets != first->ntargets) {
		snprintf(err, errlen, "%s: %d targets, %s has %d; merge wants the same targets",
			 name, r->ntargets, mg->first_name, first->ntargets);
		return -1;
	}
	for (t = 0; t < r->ntargets; t++)
		if (check_target(&first->targets[t], &r->targets[t], t, name, mg->first_name,
				 err, errlen))
			return -1;
	if (!same_filter(r->filter, first->filter)) {
		snprintf(err, errlen, "%s counted %s, %s %s; merge wants runs of the same tasks",
			 name, filter_words(r->filter, w1, sizeof(w1)), mg->first_name,
			 filter_words(first->filter, w2, sizeof(w2)));
		return -1;
	}
	return 0;
}

int merge_begin(struct merge *mg, const struct run_report *first, const char *first_name,
		char *err, size_t errlen)
{
	struct run_report *out = &mg->out;
	int t;

	memset(mg, 0, sizeof(*mg));
	mg->first = first;
	snprintf(mg->first_name, sizeof(mg->first_name), "%s", shown_path(first_name));
	mg->cpu_known = true;
	*out = *first;
	/* where start-up time went, the samples, a replay: one run's each, no sum */
	out->phases = NULL;
	out->nphases = 0;
	out->samples = NULL;
	out->replay.present = false;
	out->merged_runs = 0;
	out->duration_s = 0;
	out->cpu_s = 0;
	out->child_command = NULL;
	for (t = 0; t < out->ntargets; t++) {
		struct target_report *m = &out->targets[t];

		memset(&m->stats, 0, sizeof(m->stats));
		m->run_time_ns = m->runs = m->recursion_misses = 0;
		m->duty.attached_s = m->duty.switching_s = 0;
		m->duty.slices = 0;
		/* means of runs whose edge counts are not kept: not merged */
		m->duty.attach_ms = m->duty.detach_ms = m->duty.switch_cpu_ms = 0;
		m->duty.walk_cpu_s = 0;
		mg->walk_known[t] = true;
		/* one run's each: its table's keys and their lookups, its cost per node */
		m->profile = NULL;
		m->snapshot = NULL;
		m->snapshot_error = NULL;
		m->latency_fit = NULL;
		m->by = NULL;
		if (first->targets[t].by) {
			mg->by[t].key = first->targets[t].by->key;
			m->by = &mg->by[t];
		}
	}
	(void)err;
	(void)errlen;
	return 0;
}

/* Run R's target T into the merge: counts, run times, duty cycle, --by. */
static int merge_target(struct merge *mg, int t, const struct target_report *b, const char *name,
			char *err, size_t errlen)
{
	struct target_report *m = &mg->out.targets[t];

	if (merge_by(m->by ? &mg->by[t] : NULL, b, name, mg->first_name, err, errlen))
		return -1;
	/* the sum must be a count the run-file reader accepts */
	if (!chain_stats_add_checked(&m->stats, &b->stats, PFT_COUNT_MAX) ||
	    __builtin_add_overflow(m->run_time_ns, b->run_time_ns, &m->run_time_ns) ||
	    __builtin_add_overflow(m->runs, b->runs, &m->runs) ||
	    __builtin_add_overflow(m->recursion_misses, b->recursion_misses, &m->recursion_misses)) {
		snprintf(err, errlen, "%s: %s's counts overflow when added to the "
			 "runs before it (counts are below 2^63)", name, b->traced);
		return -1;
	}
	m->overhead_known &= b->overhead_known;
	/* duty cycles add up as time: the scale is the runs' over their slices' */
	m->duty.attached_s += b->duty.attached_s;
	m->duty.switching_s += b->duty.switching_s;
	m->duty.slices += b->duty.slices;
	mg->walk_known[t] &= b->duty.walk_cpu_s > 0;
	m->duty.walk_cpu_s += b->duty.walk_cpu_s;
	/* what the reader takes back, as for one run */
	if (m->duty.walk_cpu_s > 1e9 || m->duty.attached_s > 1e9 || m->duty.switching_s > 1e9 ||
	    m->duty.slices > 1000000000) {
		snprintf(err, errlen, "%s: %s's duty cycle overflows when added to the runs before "
			 "it (at most 1e9 s and 1e9 slices)", name, b->traced);
		return -1;
	}
	m->duty.slice_ms = fmax(m->duty.slice_ms, b->duty.slice_ms);
	if (b->table_slots != m->table_slots)
		m->table_slots = 0;   /* tables of different sizes */
	return 0;
}

int merge_add(struct merge *mg, const struct run_report *r, const char *path, char *err,
	      size_t errlen)
{
	struct run_report *out = &mg->out;
	/* names from argv reach a terminal in the refusals: escaped */
	const char *name = shown_path(path);
	int t;

	if (merge_check(mg, r, name, err, errlen))
		return -1;
	if (strcmp(r->kernel_release, mg->first->kernel_release))
		out->kernel_release = "mixed";
	if (strcmp(r->hostname ? r->hostname : "", mg->first->hostname ? mg->first->hostname : ""))
		out->hostname = "fleet";
	out->duration_s += r->duration_s;
	out->cpu_s += r->cpu_s;
	/* the merged file must be one the reader takes */
	if (out->duration_s > PFT_DURATION_MAX || out->cpu_s > 1e9) {
		snprintf(err, errlen, "%s: the runs' duration_s or cpu_s overflows when added to "
			 "the runs before it (at most %g s and 1e9 s)", name, PFT_DURATION_MAX);
		return -1;
	}
	mg->cpu_known &= r->cpu_s > 0;   /* a file before cpu_s, or a run of none */
	if (__builtin_add_overflow(out->merged_runs, r->merged_runs > 1 ? r->merged_runs : 1,
				   &out->merged_runs)) {
		snprintf(err, errlen, "%s: more runs than a merge counts", name);
		return -1;
	}
	for (t = 0; t < r->ntargets; t++) {
		if (merge_target(mg, t, &r->targets[t], name, err, errlen))
			return -1;
		mg->left_out.snapshots |= r->targets[t].snapshot != NULL;
		mg->left_out.latency_fits |= r->targets[t].latency_fit != NULL;
	}
	mg->left_out.phases |= r->nphases > 0;
	mg->left_out.samples |= r->samples != NULL;
	mg->left_out.replays |= r->replay.present;
	return 0;
}

void merge_end(struct merge *mg)
{
	struct run_report *out = &mg->out;
	int t;

	for (t = 0; t < out->ntargets; t++) {
		struct target_report *m = &out->targets[t];

		if (!mg->walk_known[t])
			m->duty.walk_cpu_s = 0;   /* a file from before it: no sum */
		if (m->duty.one_in > 1)
			m->duty.scale = m->duty.attached_s > 0 ? out->duration_s / m->duty.attached_s : 0;
		report_finish_target(m);
	}
	/* a total that leaves some runs out would mislead: none (not written) */
	if (!mg->cpu_known)
		out->cpu_s = 0;
	out->command = "pftrace merge";
}

void merge_free(struct merge *mg)
{
	int t;

	for (t = 0; t < PFT_MAX_TARGETS; t++) {
		free(mg->by[t].rows);
		mg->by[t].rows = NULL;
	}
}

int merge_runs(const struct run_report *const *runs, int n, const char *const *names,
	       struct run_report *out, char *err, size_t errlen)
{
	static struct merge mg;   /* the --by rows OUT points to: until the next call */
	int i;

	merge_free(&mg);
	if (merge_begin(&mg, runs[0], names[0], err, errlen))
		return -1;
	for (i = 0; i < n; i++)
		if (merge_add(&mg, runs[i], names[i], err, errlen))
			return -1;
	merge_end(&mg);
	*out = mg.out;
	return 0;
}

#define merge_bad(...) pft_refuse("merge", __VA_ARGS__)

enum { OPT_MERGE_FORMAT = 256 };

static const struct opt_spec merge_opt_specs[] = {
	{ "output", 'o', "FILE", "write the merged run to FILE (- for stdout)" },
	{ "format", OPT_MERGE_FORMAT, "FORMAT", "json, openmetrics or prometheus on stdout\n"
						 "(default json)" },
	{ "help", 'h', NULL, "this text" },
	{ 0 },
};

const struct cmd_spec merge_cmd = {
	"merge", "merge RUN.json... [-o FILE] [--format json|openmetrics|prometheus]",
	"Adds the counts of runs of the same targets (a fleet, or repeated runs).",
	merge_opt_specs,
};

/*
 * -o and --format; the run files start at argv[optind]. 0, 2 after a
 * refusal, or -1 when help was printed.
 */
static int parse_merge_opts(int argc, char **argv, const char **out, enum out_format *format)
{
	struct opt_parser parser;
	char err[PFT_ERRLEN], ext_err[PFT_ERRLEN];
	int c;

	*out = NULL;
	*format = FORMAT_JSON;
	opts_begin(&parser, merge_opt_specs, false);
	while ((c = opts_next(&parser, argc, argv)) != -1) {
		switch (c) {
		case 'h':
			cmd_print_help(stdout, &merge_cmd);
			return -1;
		case 'o':
			if (output_extension_check(optarg, true, ext_err, sizeof(ext_err)))
				return merge_bad("%s", ext_err);
			*out = optarg;
			break;
		case OPT_MERGE_FORMAT:
			if (!strcmp(optarg, "json"))
				*format = FORMAT_JSON;
			else if (!strcmp(optarg, "openmetrics"))
				*format = FORMAT_OPENMETRICS;
			else if (!strcmp(optarg, "prometheus"))
				*format = FORMAT_PROMETHEUS;
			else
				return merge_bad("--format wants json, openmetrics or prometheus, not '%s'",
						 optarg);
			break;
		case ':':
			return merge_bad("option '%s' needs a value", pft_optname(argv));
		default:
			return merge_bad("%s", pft_unknown_option(merge_opt_specs, argv));
		}
	}
	if (argc - optind < 2)
		return pft_refuse(NULL, "merge wants two run files or more: pftrace merge A.json "
				  "B.json ... [-o FILE]");
	if (*out && check_output_path(*out, err, sizeof(err)))
		return pft_refuse(NULL, "%s", err);
	return 0;
}

/* "pftrace merge A.json B.json ...", cut to fit */
static void merge_command(char *cmd, size_t len, char **files, int n)
{
	size_t used = (size_t)snprintf(cmd, len, "pftrace merge");
	int i;

	/* escaped as a reader shows them: the command reads back within its bound */
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(cmd + used, len - used, " %s", shown_path(files[i]));
}

/* what the merged run leaves out, said once: each of these is one run's, no sum */
static void left_out_note(const struct merge *mg)
{
	const bool had[] = { mg->left_out.phases, mg->left_out.samples, mg->left_out.snapshots,
			     mg->left_out.latency_fits, mg->left_out.replays };
	static const char *const what[] = { "startup_phases", "samples", "snapshots",
					     "latency fits", "replays" };
	char list[128] = "";
	int k, nhad = 0, said = 0;

	for (k = 0; k < 5; k++)
		nhad += had[k];
	for (k = 0; k < 5; k++) {
		if (!had[k])
			continue;
		said++;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 said == 1 ? "" : said == nhad ? " and " : ", ", what[k]);
	}
	if (nhad)
		fprintf(stderr, "pftrace: merge: %s are one run's each: the merged run has none\n",
			list);
}

/*
 * The files one at a time: the first stays read (the sum's strings are
 * its), each other is read, added and freed, so that memory does not
 * grow with the number of files. 0, or 2 with one line said.
 */
static int merge_files(char **paths, int n, struct run_file *first, struct run_file *next,
		       struct merge *mg)
{
	char err[PFT_ERRLEN];
	int i;

	if (runfile_read(paths[0], first, err, sizeof(err)) ||
	    merge_begin(mg, &first->rep, paths[0], err, sizeof(err)) ||
	    merge_add(mg, &first->rep, paths[0], err, sizeof(err)))
		goto refused;
	for (i = 1; i < n; i++) {
		if (progress_on())
			progress("merge: %d of %d files", i + 1, n);
		if (runfile_read(paths[i], next, err, sizeof(err)))
			goto refused;
		if (merge_add(mg, &next->rep, paths[i], err, sizeof(err))) {
			runfile_free(next);
			goto refused;
		}
		runfile_free(next);
	}
	progress_done();
	merge_end(mg);
	return 0;
refused:
	progress_done();
	fprintf(stderr, "pftrace: %s\n", err);
	return 2;
}

int cmd_merge(int argc, char **argv)
{
	struct run_file *first = calloc(1, sizeof(*first)), *next = calloc(1, sizeof(*next));
	struct merge *mg = calloc(1, sizeof(*mg));
	const char *out;
	enum out_format format;
	char err[PFT_ERRLEN], cmd[4096];
	int n, rc;

	rc = parse_merge_opts(argc, argv, &out, &format);
	if (rc || !first || !next || !mg) {
		if (!rc)
			fprintf(stderr, "pftrace: out of memory\n");
		free(first);
		free(next);
		free(mg);
		return rc < 0 ? 0 : rc ? rc : 1;
	}
	n = argc - optind;
	rc = merge_files(&argv[optind], n, first, next, mg);
	if (!rc) {
		merge_command(cmd, sizeof(cmd), &argv[optind], n);
		mg->out.command = cmd;
		left_out_note(mg);
		if (!out) {
			rc = report_print(&mg->out, format);
		} else if (report_write_file(&mg->out, out, err, sizeof(err))) {
			fprintf(stderr, "pftrace: %s\n", err);
			rc = 1;
		}
	}
	merge_free(mg);
	runfile_free(first);
	free(first);
	free(next);
	free(mg);
	return rc;
}
