/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel offers pftrace, each answer from a real probe:
 * load and attach a program, open a perf event, read a file.
 */
#ifndef PFT_FEATURES_H
#define PFT_FEATURES_H

#include <stdbool.h>
#include "kernel.h"

enum feature_id {
	FEAT_BTF,
	FEAT_FENTRY,
	FEAT_KPROBES,
	FEAT_PERF_HW,
	FEAT_SELINUX,
	FEAT_KALLSYMS,
	FEAT_KCORE,
	FEAT_BPF_STATS,
	FEAT_LATENCY,
	FEAT_COUNT,
};

struct feature {
	const char *name;
	bool available;
	char detail[PFT_ERRLEN];
};

/* Can an fentry/fexit program attach to FUNC? why gets the reason. */
bool fentry_can_attach(const char *func, char *why, size_t whylen);
/* Can a kprobe attach to FUNC? */
bool kprobe_can_attach(const char *func, char *why, size_t whylen);

/*
 * Switch on BPF run-time statistics for as long as the returned file
 * descriptor stays open; why says what it measures, or why it cannot.
 */
int bpf_stats_open(char *why, size_t whylen);

void features_probe(const struct kernel_facts *kf, struct feature out[FEAT_COUNT]);

#endif
