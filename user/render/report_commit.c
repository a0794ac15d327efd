// SPDX-License-Identifier: GPL-2.0
/*
 * The text of `pftrace report RUN.json`: a block of plain text, 72
 * columns wide, to paste into a commit message or a mailing-list reply.
 * A pure function of the run (fuzzed with the reader); the command, and
 * what it times on this CPU, are in cmd/cmd_report.c.
 */
#include <stdio.h>
#include <string.h>

#include "hist.h"
#include "latency.h"
#include "report_commit.h"
#include "stats.h"

#define WIDTH 72

/* "label  text", the text wrapped at WIDTH under itself */
/* a histogram's bars in the 72-column report */
#define REPORT_BAR 20

static void field(FILE *f, const char *label, const char *text)
{
	int indent = 16, col = indent;
	const char *p = text, *word;

	fprintf(f, "%-*s", indent, label);
	while (*p) {
		size_t len;

		while (*p == ' ')
			p++;
		word = p;
		while (*p && *p != ' ')
			p++;
		len = (size_t)(p - word);
		if (!len)
			break;
		if (col > indent && col + 1 + (int)len > WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)len, word);
		col += (int)len;
	}
	fputc('\n', f);
}

static double pct(__u64 part, __u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* Where and how the run was made: kernel, machine, times, workload, whose lookups. */
static void commit_run(FILE *f, const struct run_report *r)
{
	char buf[512], pid[32] = "";

	snprintf(buf, sizeof(buf), "Linux %s%s", r->kernel_release,
		 r->merged_runs > 1 ? " (merged runs)" : "");
	field(f, "Kernel:", buf);
	snprintf(buf, sizeof(buf), "%s, %d CPUs, %s%s%s", r->arch && r->arch[0] ? r->arch : "?",
		 r->cpus, r->cpu_model && r->cpu_model[0] ? r->cpu_model : "unknown CPU",
		 r->hostname && r->hostname[0] ? ", host " : "", r->hostname ? r->hostname : "");
	field(f, "Machine:", buf);
	snprintf(buf, sizeof(buf), "%.2f s%s from %s, ended by %s", r->duration_s,
		 r->merged_runs > 1 ? " summed over runs" : "", r->started, r->end_reason);
	field(f, "Traced:", buf);
	if (r->child_command) {
		snprintf(buf, sizeof(buf), "%s (exit %d)", r->child_command, r->child_exit);
		field(f, "Workload:", buf);
	}
	if (!r->filter || !r->filter->present)
		return;
	if (r->filter->pid)
		snprintf(pid, sizeof(pid), "process %ld", r->filter->pid);
	snprintf(buf, sizeof(buf), "only the lookups of %s%s%s%s", pid,
		 r->filter->only_command ? "the workload and its children" : "",
		 r->filter->cgroup ? (pid[0] || r->filter->only_command ? " in cgroup " : "cgroup ") : "",
		 r->filter->cgroup ? r->filter->cgroup : "");
	field(f, "Counted:", buf);
}

/* What was traced, how many lookups, how they were thinned, whether the walks agree. */
static void commit_lookups(FILE *f, const struct run_report *r, const struct target_report *t)
{
	const struct chain_stats *s = &t->stats;
	const struct walk_summary *w = &t->sum;
	char buf[512];

	snprintf(buf, sizeof(buf), "%s (%s, %s)%s%s", t->traced, t->table, t->method,
		 strcmp(t->requested, t->traced) ? ", asked as " : "",
		 strcmp(t->requested, t->traced) ? t->requested : "");
	field(f, "Function:", buf);
	if (t->table_slots) {
		snprintf(buf, sizeof(buf), "%llu buckets", (unsigned long long)t->table_slots);
		field(f, "Table:", buf);
	}
	snprintf(buf, sizeof(buf), "%llu (%.1f/s), %.2f%% hits%s", (unsigned long long)s->lookups,
		 r->duration_s > 0 ? (double)s->lookups / r->duration_s : 0, pct(s->hits, s->lookups),
		 t->sample_every > 1 || t->duty.one_in > 1 ? ", sampled" : "");
	field(f, "Lookups:", buf);
	if (t->sample_every > 1) {
		snprintf(buf, sizeof(buf), "1 call in %u walked; %llu calls in all", t->sample_every,
			 (unsigned long long)s->calls);
		field(f, "Sampling:", buf);
	}
	if (t->duty.one_in > 1) {
		snprintf(buf, sizeof(buf), "attached 1 slice %s%.0f ms in %u: %.2f s; x%.2f "
			 "for the whole run", t->duty.slice_chosen ? "chosen by the costs, lately " : "of ",
			 t->duty.slice_ms, t->duty.one_in, t->duty.attached_s, t->duty.scale);
		field(f, "Sampling:", buf);
	}
	snprintf(buf, sizeof(buf), "%.2f%% of %llu walks agree with the kernel%s", w->agree_pct,
		 (unsigned long long)w->checked, w->self_check_ok ? "" : ": FAILED, no walk data");
	field(f, "Self-check:", buf);
}

/* The walks: their lengths, where the hits were, and what the old prefetch would do. */
static void commit_walks(FILE *f, const struct target_report *t)
{
	const struct chain_stats *s = &t->stats;
	const struct walk_summary *w = &t->sum;
	const struct prefetch_model *p = &w->prefetch;
	char buf[512];

	snprintf(buf, sizeof(buf), "mean %.2f, p50 %d, p99 %d, max %d",
		 w->mean_walked, hist_percentile(s->chain_walked_hist, PFT_HIST_SLOTS, 0.5),
		 hist_percentile(s->chain_walked_hist, PFT_HIST_SLOTS, 0.99), w->max_walked);
	field(f, "Nodes walked:", buf);
	/* what the trace printed, in the trace's own layout, bars narrowed to 72 columns */
	hist_print_bar(f, s->chain_walked_hist, PFT_HIST_SLOTS, 0, "nodes", REPORT_BAR);
	if (s->walk_hits) {
		fprintf(f, "Hit position:\n");
		hist_print_bar(f, s->hit_pos_hist, PFT_HIST_SLOTS, 1, "position", REPORT_BAR);
	}
	snprintf(buf, sizeof(buf), "%.2f%% of hits (%llu of %llu)", pct(s->next_null_at_hit, s->walk_hits),
		 (unsigned long long)s->next_null_at_hit, (unsigned long long)s->walk_hits);
	field(f, t->chain_end == PFT_END_NULLS ? "Next == end:" : "Next == NULL:", buf);
	snprintf(buf, sizeof(buf), "%s: prefetch(pos->next) per node %llu, of NULL "
		 "%llu (%.2f%%); (b) only non-NULL %llu; (c) none 0",
		 t->chain_end == PFT_END_NULLS ? "never prefetched; as if it had"
					       : "the pre-3.0 hlist macro would issue",
		 (unsigned long long)p->issued, (unsigned long long)p->null,
		 pct(p->null, p->issued), (unsigned long long)p->nonnull_only);
	field(f, "Prefetch:", buf);
}

/* What else the run measured of it: the whole table, a node's cost, samples on its code. */
static void commit_extras(FILE *f, const struct run_report *r, const struct target_report *t)
{
	const struct table_snapshot *sn = t->snapshot;
	char buf[512];

	if (sn) {
		snprintf(buf, sizeof(buf), "%llu entries in %llu buckets (%s): %llu used "
			 "(ideal hashing %.1f), longest chain %llu (ideal %.1f), dispersion "
			 "p = %.3g%s", (unsigned long long)sn->shape.entries,
			 (unsigned long long)sn->shape.buckets, sn->hash->name,
			 (unsigned long long)sn->shape.used, sn->uniform.used,
			 (unsigned long long)sn->shape.longest, sn->uniform.longest,
			 sn->uniform.p_value, sn->changed_buckets ? "; moved while walked" : "");
		field(f, "Snapshot:", buf);
	}
	if (t->latency_fit && t->latency_unit) {
		snprintf(buf, sizeof(buf), "%.1f %s fixed + %.2f %s per node [%.2f, %.2f]%s",
			 t->latency_fit->fixed, t->latency_unit, t->latency_fit->per_node,
			 t->latency_unit, t->latency_fit->per_node_lo, t->latency_fit->per_node_hi,
			 latency_fit_poor(t->latency_fit) ? " (a poor fit: the medians stray off the line)" : "");
		field(f, "Cost:", buf);
	}
	if (!r->samples || !t->profile)
		return;
	snprintf(buf, sizeof(buf), "%llu of %llu %s samples (%.2f%%) in %s; %s%s%s",
		 (unsigned long long)t->profile->samples,
		 (unsigned long long)r->samples->counts.total, r->samples->event,
		 pct(t->profile->samples, r->samples->counts.total), t->traced,
		 t->profile->nprefetch ? "it holds prefetch instructions" :
					 "no prefetch instruction in it",
		 r->samples->fallback ? "; cpu-clock: no hardware PMU for " : "",
		 r->samples->fallback ? r->samples->asked : "");
	field(f, "Samples:", buf);
}

static void commit_replay(FILE *f, const struct replay_summary *rs)
{
	const char *unit = !strcmp(rs->unit, "tsc") ? "TSC ticks" : "ns";
	char buf[512];

	fputc('\n', f);
	snprintf(buf, sizeof(buf), "%s chains on a %s table, %s per lookup, median of %d "
		 "passes: no prefetch %.2f; prefetch(pos->next) at every node %.2f (%.2fx); "
		 "only if not NULL %.2f (%.2fx)", rs->traced, rs->mode, unit, rs->reps,
		 rs->median[0], rs->median[1], rs->median[1] / rs->median[0],
		 rs->median[2], rs->median[2] / rs->median[0]);
	field(f, "Replay:", buf);
}

void report_commit_text(FILE *f, const struct run_report *r)
{
	int i;

	/* a synthetic replay has no kernel and no trace */
	if (r->ntargets)
		commit_run(f, r);
	for (i = 0; i < r->ntargets; i++) {
		const struct target_report *t = &r->targets[i];

		fputc('\n', f);
		commit_lookups(f, r, t);
		if (!t->sum.self_check_ok || !t->sum.completed)
			continue;
		commit_walks(f, t);
		commit_extras(f, r, t);
	}
	if (r->replay.present)
		commit_replay(f, &r->replay);
	fputc('\n', f);
	field(f, "Measured by:", r->command);
}
