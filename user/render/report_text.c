// SPDX-License-Identifier: GPL-2.0
/* The terminal view of a run: counts, histograms, the prefetch model. */
#include <stdio.h>
#include <string.h>

#include "hist.h"
#include "report.h"
#include "table_render.h"
#include "latency_render.h"

static double pct(__u64 part, __u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void report_finish_target(struct target_report *t)
{
	walk_summarize(&t->stats, &t->sum);
}

double overhead_ns_per_call(const struct target_report *t)
{
	return t->stats.calls ? (double)t->run_time_ns / (double)t->stats.calls : 0;
}

double overhead_cpu_pct(const struct target_report *t, double duration_s)
{
	return duration_s > 0 ? 100.0 * (double)t->run_time_ns / (duration_s * 1e9) : 0;
}

bool report_self_check_ok(const struct run_report *r)
{
	int i;

	for (i = 0; i < r->ntargets; i++)
		if (!r->targets[i].sum.self_check_ok)
			return false;
	return true;
}

static void render_self_check_failure(FILE *f, const struct target_report *t)
{
	const struct chain_stats *s = &t->stats;

	fprintf(f, "pftrace: SELF-CHECK FAILED for %s: pftrace's walk agreed with the "
		"kernel on %llu of %llu lookups (%.2f%%, %llu unreadable); its bucket "
		"function or layout does not match this kernel, so no histograms are "
		"shown\n", t->traced, (unsigned long long)s->self_agree,
		(unsigned long long)t->sum.checked, t->sum.agree_pct,
		(unsigned long long)s->read_faults);
}

static void render_prefetch_model(FILE *f, const struct target_report *t)
{
	const struct prefetch_model *p = &t->sum.prefetch;

	if (t->chain_end == PFT_END_NULLS)
		fprintf(f, "  prefetch model: %s never prefetched; what a prefetching walk "
			"would issue%s\n", t->iterator, p->exact ? "" : " (truncated walks left out)");
	else
		fprintf(f, "  prefetch model: what pre-3.0 hlist_for_each_entry() would issue on "
			"these walks%s\n", p->exact ? "" : " (truncated walks left out)");
	fprintf(f, "    prefetch(pos->next) per node  %12llu issued, %llu of NULL (%.2f%%)\n",
		(unsigned long long)p->issued, (unsigned long long)p->null,
		pct(p->null, p->issued));
	fprintf(f, "    (b) only when next != NULL    %12llu issued\n",
		(unsigned long long)p->nonnull_only);
	fprintf(f, "    (c) no prefetch (Linux 3.0+)  %12llu issued\n",
		(unsigned long long)p->none);
}

/* --by: the top rows by nodes walked, and what the bounded map dropped */
#define BY_TEXT_ROWS 10
static void render_by(FILE *f, const struct by_report *b, __u64 lookups)
{
	int i;

	fprintf(f, "\n  who walked, by %s (top %d of %d by nodes walked)%s%s\n", b->key,
		b->nrows < BY_TEXT_ROWS ? b->nrows : BY_TEXT_ROWS, b->nrows,
		b->scaled ? ", scaled from the sample" : "",
		!b->netns_of ? "" : !strcmp(b->netns_of, "lookup") ? "; the lookup's own namespace" :
		"; the namespace of the task the lookup ran in");
	fprintf(f, "  %-24s %10s %12s %12s %9s %7s\n", b->key, "id", "lookups", "nodes",
		"mean walk", "share");
	for (i = 0; i < b->nrows && i < BY_TEXT_ROWS; i++) {
		const struct by_row *r = &b->rows[i];
		char id[24] = "";

		if (r->id)
			snprintf(id, sizeof(id), "%llu", (unsigned long long)r->id);
		fprintf(f, "  %-24.64s %10s %12llu %12llu %9.2f %6.2f%%\n", r->name, id,
			(unsigned long long)r->lookups, (unsigned long long)r->nodes,
			r->lookups ? (double)r->nodes / (double)r->lookups : 0.0, pct(r->lookups, lookups));
	}
	if (b->dropped)
		fprintf(f, "  %llu lookups charged to no one: the map of %d keys was full\n",
			(unsigned long long)b->dropped, PFT_BY_MAX);
}

/* --sample-calls and --sample: what the counts below are of */
static void render_sampling(FILE *f, const struct target_report *t)
{
	const struct chain_stats *s = &t->stats;

	if (t->sample_every > 1)
		fprintf(f, "  SAMPLED: 1 call in %u per CPU was walked; the counts below are of "
			"those, %llu calls were seen in all\n", t->sample_every,
			(unsigned long long)s->calls);
	if (t->duty.one_in > 1 && !t->duty.slice_chosen)
		fprintf(f, "  SAMPLED: attached 1 slice of %.0f ms in %u, %.2f s in %u slices; the "
			"counts below are of that time, x%.2f for the whole run: about %.0f lookups "
			"(fewer if tracing slowed the workload)\n",
			t->duty.slice_ms, t->duty.one_in, t->duty.attached_s, t->duty.slices,
			t->duty.scale, (double)s->lookups * t->duty.scale);
	/* slices that pftrace lengthened: the two costs it weighed */
	if (t->duty.one_in > 1 && t->duty.slice_chosen) {
		fprintf(f, "  SAMPLED: attached 1 slice in %u, %.2f s in %u slices, lengthened until a "
			"slice's walks cost twice a switch", t->duty.one_in, t->duty.attached_s,
			t->duty.slices);
		if (t->duty.switch_cpu_ms > 0 && t->duty.walk_cpu_s > 0)
			fprintf(f, " (a switch: %.1f ms of pftrace's CPU; the walks: %.1f%% of a CPU)",
				t->duty.switch_cpu_ms, 100 * t->duty.walk_cpu_s / t->duty.attached_s);
		fprintf(f, ", %.0f ms by the end; the counts below are of that time, x%.2f for the "
			"whole run: about %.0f lookups (fewer if tracing slowed the workload)\n",
			t->duty.slice_ms, t->duty.scale, (double)s->lookups * t->duty.scale);
	}
	if (t->duty.one_in > 1 && t->duty.stays_attached)
		fprintf(f, "  NOTE: this kernel cannot attach a detached fexit program again (before "
			"5.19): the programs stayed attached, their walks paused between slices, and "
			"every call paid the trampoline\n");
	/* the kernel's detach outlasting a slice: the period stretches, paused but hooked */
	if (t->duty.one_in > 1 && t->duty.detach_ms > t->duty.slice_ms)
		fprintf(f, "  NOTE: a detach took %.0f ms (the kernel waits for an RCU-tasks grace "
			"period), more than a slice; the walks were paused meanwhile, the "
			"trampolines still hooked\n", t->duty.detach_ms);
}

/* The lookups, the self-check, and what the trace cost and missed. */
static void render_counts(FILE *f, const struct target_report *t, double duration_s)
{
	const struct chain_stats *s = &t->stats;
	const struct walk_summary *w = &t->sum;
	int i;

	fprintf(f, "  lookups     %12llu  %.1f/s\n", (unsigned long long)s->lookups,
		duration_s > 0 ? (double)s->lookups / duration_s : 0.0);
	fprintf(f, "  hits        %12llu  %6.2f%%\n", (unsigned long long)s->hits,
		pct(s->hits, s->lookups));
	fprintf(f, "  misses      %12llu  %6.2f%%\n", (unsigned long long)s->misses,
		pct(s->misses, s->lookups));
	fprintf(f, "  self-check  %11.2f%%  of %llu walks agree with the kernel's verdict\n",
		w->agree_pct, (unsigned long long)w->checked);
	fprintf(f, "  truncated   %12llu  walks longer than %d nodes\n",
		(unsigned long long)s->truncated, PFT_MAX_WALK);
	if (t->overhead_known)
		fprintf(f, "  overhead    %9.0f ns  per call, %.3f%% of one CPU (BPF run time)\n",
			overhead_ns_per_call(t), overhead_cpu_pct(t, duration_s));
	/* PREEMPT_RT: a task preempted inside the program blocks it on that CPU */
	if (t->recursion_misses)
		fprintf(f, "  MISSED      %12llu  calls the kernel did not hand to pftrace: its program "
			"was busy on that CPU (in no count above)\n",
			(unsigned long long)t->recursion_misses);
	if (s->read_faults || s->lost)
		fprintf(f, "  unreadable  %12llu  lost %llu\n",
			(unsigned long long)s->read_faults, (unsigned long long)s->lost);
	for (i = 0; i < t->nrecipe_counts; i++)
		fprintf(f, "  %-11s %12llu  %s\n", t->recipe_counts[i].name,
			(unsigned long long)t->recipe_counts[i].value, t->recipe_counts[i].what);
}

/* The walks of a target whose self-check passed: histograms, the prefetch model, --by, --latency. */
static void render_walks(FILE *f, const struct target_report *t)
{
	const struct chain_stats *s = &t->stats;
	const struct walk_summary *w = &t->sum;

	fprintf(f, "\n  nodes walked per lookup: mean %.2f, max %d\n", w->mean_walked,
		w->max_walked);
	hist_print(f, s->chain_walked_hist, PFT_HIST_SLOTS, 0, "nodes");
	if (s->walk_hits) {
		fprintf(f, "\n  hit position: max %d\n", w->max_hit_pos);
		hist_print(f, s->hit_pos_hist, PFT_HIST_SLOTS, 1, "position");
	}
	fprintf(f, "\n  next == %s at hit  %llu of %llu hits (%.2f%%)\n",
		t->chain_end == PFT_END_NULLS ? "the end marker" : "NULL",
		(unsigned long long)s->next_null_at_hit, (unsigned long long)s->walk_hits,
		pct(s->next_null_at_hit, s->walk_hits));
	fprintf(f, "  misses on an empty bucket  %llu of %llu\n\n",
		(unsigned long long)s->walk_empty, (unsigned long long)s->walk_misses);
	render_prefetch_model(f, t);
	if (t->by)
		render_by(f, t->by, s->lookups);
	if (t->latency)
		render_latency_text(f, t);
}

void render_target_text(FILE *f, const struct target_report *t, double duration_s)
{
	fprintf(f, "%s -> %s [%s, %s%s]\n", t->requested, t->traced, t->table, t->method,
		t->loads && !strcmp(t->loads, "direct") ? ", direct loads" : "");
	if (t->table_slots)
		fprintf(f, "  table       %12llu  buckets, walked by %s\n",
			(unsigned long long)t->table_slots, t->iterator);
	render_sampling(f, t);
	render_counts(f, t, duration_s);
	if (t->snapshot)
		render_snapshot_text(f, t->snapshot);
	else if (t->snapshot_error)
		fprintf(f, "  no snapshot: %s\n", t->snapshot_error);
	if (!t->sum.self_check_ok)
		render_self_check_failure(f, t);
	else if (t->sum.completed)
		render_walks(f, t);
}

static void render_samples(FILE *f, const struct target_report *t, const struct run_report *r)
{
	if (!r->samples || !t->profile)
		return;
	fputc('\n', f);
	render_profile_text(f, t->profile, r->samples);
}

void render_text(FILE *f, const struct run_report *r)
{
	int i;

	/* A failed self-check is the first thing the reader sees. */
	for (i = 0; i < r->ntargets; i++)
		if (!r->targets[i].sum.self_check_ok)
			render_self_check_failure(f, &r->targets[i]);
	fprintf(f, "pftrace %s on %s, %.2f s (%s)\n", PFTRACE_VERSION, r->kernel_release,
		r->duration_s, r->end_reason);
	if (r->bpf_stats && r->bpf_stats[0])
		fprintf(f, "overhead not measured: %s\n", r->bpf_stats);
	if (r->child_command)
		fprintf(f, "command: %s (exit %d)\n", r->child_command, r->child_exit);
	if (r->filter && r->filter->present) {
		fprintf(f, "counted: lookups of");
		if (r->filter->pid)
			fprintf(f, " process %ld", r->filter->pid);
		if (r->filter->only_command)
			fprintf(f, " the command and the %llu processes it forked%s",
				(unsigned long long)r->filter->followed,
				r->filter->follow_dropped ? " (some not followed: see JSON)" : "");
		if (r->filter->cgroup)
			fprintf(f, "%s tasks in cgroup %s and below", r->filter->pid ||
				r->filter->only_command ? ", only" : "", r->filter->cgroup);
		fprintf(f, "\n");
	}
	if (r->sampling_off && r->sampling_off[0])
		fprintf(f, "not sampled: %s\n", r->sampling_off);
	for (i = 0; i < r->ntargets; i++) {
		fputc('\n', f);
		render_target_text(f, &r->targets[i], r->duration_s);
		if (r->targets[i].sum.self_check_ok)
			render_samples(f, &r->targets[i], r);
	}
	fflush(f);
}
