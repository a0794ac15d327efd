/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a trace's start-up time goes, phase by phase (-v prints each as
 * it ends; the run file keeps them as startup_phases): the kernel's
 * facts, the plan, the sampler, and each target's open, load and
 * verify, and attach.
 */
#ifndef PFT_STARTUP_H
#define PFT_STARTUP_H

#include <stdbool.h>
#include "report.h"
#include "targets.h"

struct startup_log {
	bool verbose;
	struct startup_phase phases[PFT_MAX_PHASES];
	int nphases;
	double since;                /* monotonic: where the next phase began */
};

/* The first phase began at SINCE (the process's start). */
void startup_init(struct startup_log *l, bool verbose, double since);
/* A phase NAME ended now. */
void startup_phase(struct startup_log *l, const char *name);
/* T was opened: its open's own time. */
void startup_target_open(struct startup_log *l, const struct target *t);
/* T was started: its load and verify, its attach, and what a refused attempt took. */
void startup_target_start(struct startup_log *l, const struct target *t);

#endif
