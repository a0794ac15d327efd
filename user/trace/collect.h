/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace session's counts into the report: the per-CPU maps read and
 * summed, each target's figures, the samples laid on the traced code,
 * --latency's walk loops, and the run as the renderers and the run file
 * know it.
 */
#ifndef PFT_COLLECT_H
#define PFT_COLLECT_H

#include "session_state.h"

/* Buffers for this machine's CPUs: 0, or -ENOMEM. */
int counts_reader_init(struct counts_reader *c, unsigned int sample_every);
void counts_reader_free(struct counts_reader *c);
/* T's counts so far: 0, or -errno (not loaded, or a map unreadable). */
int counts_read(const struct counts_reader *c, const struct target *t, struct chain_stats *out);

/* T's report over STATS; DUTY: --sample's summary, for a cycled target. */
void fill_target_report(struct target_report *tr, const struct target *t,
			const struct chain_stats *stats, const struct duty_summary *duty);
/* And its programs' BPF run time, where the session measures it. */
void fill_overhead(struct target_report *tr, const struct session *s, const struct target *t);
/* The machine this run is on: uname, /proc/cpuinfo, online CPUs. */
void set_machine(struct run_report *r);

/* After detach: the samples, laid on each traced function's code. */
void collect_samples(struct session *s);
/* The run as the renderers and the run file know it; pointers into S. */
void collect(struct session *s, struct run_report *rep);

#endif
