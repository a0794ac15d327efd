/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Perf-event sampling beside a trace (or kernel-wide, for `sites -d`):
 * one event per online CPU, bpf/sample.bpf.c counting kernel IPs.
 * Hardware events fall back to cpu-clock where the machine has no PMU
 * (VMs, the lab), and the result says so.
 */
#ifndef PFT_SAMPLING_H
#define PFT_SAMPLING_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "pftrace.h"
#include "profile.h"

#define PFT_DEFAULT_SAMPLE_HZ 999

struct sampler;

/* The perf_event_attr for a name (perf's common names, else libpfm4); 0 or 2 with err. */
struct perf_event_attr;
int sample_event_parse(const char *name, struct perf_event_attr *attr, char *err, size_t errlen);
/* 0 when HZ is a rate this kernel allows, else 2 with err */
int sample_freq_check(long hz, char *err, size_t errlen);

/*
 * Set up: RANGES ([lo, hi) pairs) or, with nranges 0, the whole kernel.
 * With paused, the events are open but count nothing until
 * sampler_resume(): a trace sets up before it attaches, and samples
 * only the traced window, not its own start.
 */
struct sampler *sampler_start(const char *event, int freq, const unsigned long ranges[][2],
			      int nranges, bool paused, char *err, size_t errlen);
void sampler_resume(struct sampler *s);

/* Beside a trace: the first bytes of each traced function sampled, until trimmed. */
#define PFT_SAMPLE_FN_BYTES 16384
struct ksyms;
struct kfunc;
/*
 * Set up paused on the first PFT_SAMPLE_FN_BYTES of each of the N
 * functions NAMES (their starts from KS). NULL, with why, when none is
 * in kallsyms or the sampler cannot start: the trace goes on without.
 */
struct sampler *sampler_start_traced(const char *event, int freq, struct ksyms *ks,
				     const char *const *names, int n, char *err, size_t errlen);
/*
 * After the trace: the samples cut to the traced functions' true extent
 * FNS[N] (kallsyms, read once nothing is traced; NULL: not there);
 * counts.kept counts those, and note says where a function was longer
 * than what the sampler kept.
 */
void sample_result_trim(struct sample_result *r, const struct kfunc *const *fns, int n);
/* Stop sampling and collect; the result stays valid after sampler_free. */
int sampler_finish(struct sampler *s, struct sample_result *out);
void sampler_free(struct sampler *s);
void sample_result_free(struct sample_result *r);
/* Samples at IP exactly, and in [lo, hi). */
__u64 samples_at(const struct sample_result *r, unsigned long ip);
__u64 samples_in(const struct sample_result *r, unsigned long lo, unsigned long hi);

#endif
