// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <json-c/json.h>

#include "collect.h"
#include "interval.h"
#include "output.h"

/* A JSON interval record, its targets to be added to TARGETS */
static struct json_object *interval_record(const char *stamp, double span_s,
					   struct json_object **targets)
{
	struct json_object *rec = json_object_new_object();

	*targets = json_object_new_array();
	json_object_object_add(rec, "interval_end", json_object_new_string(stamp));
	json_object_object_add(rec, "interval_s", json_object_new_double(span_s));
	json_object_object_add(rec, "targets", *targets);
	return rec;
}

void print_interval(struct session *s, double span_s)
{
	bool json = s->opts->common.format == FORMAT_JSON;
	struct json_object *rec = NULL, *targets = NULL;
	struct target_report tr;
	struct chain_stats cur, delta;
	struct duty_summary duty;
	char stamp[16];
	time_t now = time(NULL);
	int i;

	/* this interval's share of the duty cycle, for its own scale */
	duty_cycle_interval(&s->duty, span_s, monotonic_s(), &duty);
	strftime(stamp, sizeof(stamp), "%H:%M:%S", localtime(&now));
	if (json)
		rec = interval_record(stamp, span_s, &targets);
	else
		printf("%s\n", stamp);
	for (i = 0; i < s->ntargets; i++) {
		struct session_target *st = &s->targets[i];

		if (counts_read(&s->counts, &st->t, &cur))
			continue;
		chain_stats_sub(&delta, &cur, &st->prev);
		st->prev = cur;
		fill_target_report(&tr, &st->t, &delta, &duty);
		if (json) {
			json_object_array_add(targets, render_target_json(&tr, span_s));
		} else {
			render_target_text(stdout, &tr, span_s);
			printf("\n");
		}
	}
	if (json) {
		json_print_line(rec, stdout);
		json_object_put(rec);
	}
	fflush(stdout);
}

/*
 * A full disk fails every interval's rewrite until space comes back: said
 * once when the failures start (the last whole file stays, the rename
 * never happened) and once when they end, with their count, and never
 * at each interval in between. The trace goes on meanwhile.
 */
static void metrics_written(struct session *s, bool ok, const char *err)
{
	if (!ok && !s->metrics_failed++)
		fprintf(stderr, "pftrace: %s; the last whole metrics file stays until a rewrite "
			"succeeds\n", err);
	if (ok && s->metrics_failed) {
		char safe[PFT_ERRLEN];

		fprintf(stderr, "pftrace: %s: written again, after %u failed rewrite%s\n",
			text_safe(s->opts->output_path, safe, sizeof(safe)), s->metrics_failed,
			s->metrics_failed == 1 ? "" : "s");
		s->metrics_failed = 0;
	}
}

void interval_metrics_end(struct session *s)
{
	char safe[PFT_ERRLEN];

	if (s->metrics_failed)
		fprintf(stderr, "pftrace: %s: %u failed rewrite%s, up to the run's end\n",
			text_safe(s->opts->output_path, safe, sizeof(safe)), s->metrics_failed,
			s->metrics_failed == 1 ? "" : "s");
}

void write_interval_metrics(struct session *s)
{
	struct run_report *rep = calloc(1, sizeof(*rep));
	struct by_report *by = calloc(PFT_MAX_TARGETS, sizeof(*by));
	struct chain_stats cur;
	struct duty_summary duty;
	char err[PFT_ERRLEN];
	double now;
	int i;

	if (!rep || !by) {
		free(rep);
		free(by);
		return;
	}
	now = monotonic_s();
	rep->kernel_release = s->kf.release;
	rep->duration_s = now - s->start;
	rep->bpf_stats = s->bpf_stats_fd >= 0 ? "" : s->stats_why;
	duty_cycle_summarize(&s->duty, rep->duration_s, now, &duty);
	set_machine(rep);
	for (i = 0; i < s->ntargets; i++) {
		struct target_report *tr = &rep->targets[rep->ntargets];
		const struct target *t = &s->targets[i].t;

		if (counts_read(&s->counts, t, &cur))
			continue;
		fill_target_report(tr, t, &cur, &duty);
		fill_overhead(tr, s, t);
		if (s->opts->by && !filter_read_by(&s->filter, t, s->opts->sample_every,
						   s->counts.ncpus, &by[i]))
			tr->by = &by[i];
		rep->ntargets++;
	}
	metrics_written(s, !report_write_file(rep, s->opts->output_path, err, sizeof(err)), err);
	for (i = 0; i < PFT_MAX_TARGETS; i++)
		free(by[i].rows);
	free(by);
	free(rep);
}
