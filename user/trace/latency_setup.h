/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --latency for a session: which unit (cycles where a PMU counts them,
 * else nanoseconds), the per-CPU cycle counters, each target's entry
 * program and maps, the calibration of what the measurement adds, and
 * reading the counts back (model/latency.h holds what they mean).
 */
#ifndef PFT_LATENCY_SETUP_H
#define PFT_LATENCY_SETUP_H

#include <stdbool.h>
#include "fileio.h"
#include "latency.h"
#include "targets.h"

struct lat_session {
	enum pft_lat_unit unit;
	unsigned int shift;
	bool shift_chosen;              /* given by the caller: calibration leaves it */
	char unit_why[PFT_ERRLEN];      /* why not cycles */
	int ncpus;
	int *cycle_fds;                 /* one counting cycles per CPU (unit cycles) */
	bool overhead_known;
	double overhead;                /* median of the calibration pair */
	char overhead_why[PFT_ERRLEN];  /* why not known */
};

/* Pick the unit and open the counters. SHIFT: -1 for the unit's default. */
void lat_session_start(struct lat_session *ls, int ncpus, int shift);
/* Before load: keep the entry program, set the unit, size the maps. */
int lat_prepare_target(struct target *t, const struct lat_session *ls, char *err, size_t errlen);
/* After load: the cycle counters into the object's lat_cycles map. */
int lat_after_load(struct target *t, const struct lat_session *ls, char *err, size_t errlen);
/* The per-CPU counts, summed; the session's unit, shift and calibration. */
int lat_read(const struct target *t, const struct lat_session *ls, struct latency_stats *out);
/* The measurement's own cost, on bpf_fentry_test1() (fentry kernels only). */
void lat_calibrate(struct lat_session *ls, const char *btf_custom_path);
void lat_session_free(struct lat_session *ls);

#endif
