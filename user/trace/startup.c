// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "startup.h"
#include "workload.h"

void startup_init(struct startup_log *l, bool verbose, double since)
{
	l->verbose = verbose;
	l->nphases = 0;
	l->since = since;
}

/* -v: where start-up time goes, the figure the overhead issue bounds */
static void add_phase(struct startup_log *l, const char *name, double ms, __u64 insns)
{
	struct startup_phase *p;

	if (l->verbose && insns)
		fprintf(stderr, "pftrace: start-up: %-40s %8.1f ms, %llu instructions verified\n",
			name, ms, (unsigned long long)insns);
	else if (l->verbose)
		fprintf(stderr, "pftrace: start-up: %-40s %8.1f ms\n", name, ms);
	if (l->nphases == PFT_MAX_PHASES)
		return;
	p = &l->phases[l->nphases++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->ms = ms;
	p->verified_insns = insns;
}

void startup_phase(struct startup_log *l, const char *name)
{
	double now = monotonic_s();

	add_phase(l, name, (now - l->since) * 1000, 0);
	l->since = now;
}

void startup_target_open(struct startup_log *l, const struct target *t)
{
	char name[64];

	snprintf(name, sizeof(name), "%s: open", t->recipe->traced);
	add_phase(l, name, t->open_ms, 0);
	l->since = monotonic_s();
}

void startup_target_start(struct startup_log *l, const struct target *t)
{
	char name[64];
	double now = monotonic_s(), rest;

	snprintf(name, sizeof(name), "%s: load and verify", t->recipe->traced);
	add_phase(l, name, t->load_ms, t->verified_insns);
	snprintf(name, sizeof(name), "%s: attach", t->recipe->traced);
	add_phase(l, name, t->attach_ms, 0);
	/* a refused attempt, and its fallback's open, load and attach, are the rest */
	rest = (now - l->since) * 1000 - t->load_ms - t->attach_ms;
	if (rest > 5) {
		snprintf(name, sizeof(name), "%s: the rest (a refused attempt and its fallback)",
			 t->recipe->traced);
		add_phase(l, name, rest, 0);
	}
	l->since = now;
}
