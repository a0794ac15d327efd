/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Samples and a function's annotated code as the model holds them: what
 * the sampler (sampling.c) and the annotator (annotate.c) fill in, and
 * what the renderers and the run file read. Types only.
 */
#ifndef PFT_PROFILE_H
#define PFT_PROFILE_H

#include <stdbool.h>
#include <linux/types.h>
#include "pftrace.h"

#define PFT_HOTTEST 8
#define PFT_PROFILE_ERRLEN 512

struct ip_count {
	unsigned long ip;
	__u64 count;
};

struct sample_result {
	char event[64];           /* what was sampled */
	char asked[64];           /* what was asked for */
	bool fallback;            /* asked for a hardware event, got cpu-clock */
	char note[256];
	int freq;
	int cpus;
	struct sample_counts counts;
	struct ip_count *ips;     /* sorted by address */
	int nips;
};

struct annotated_insn {
	unsigned long offset;
	char text[136];         /* "mnemonic operands" */
	char bytes[48];         /* hex */
	__u64 samples;
	bool prefetch;
};

struct function_profile {
	char name[128];
	unsigned long addr, size;
	__u64 samples;          /* in this function */
	struct annotated_insn *insns;
	int ninsns;
	int nprefetch;
	char error[PFT_PROFILE_ERRLEN]; /* text unreadable: why */
};

#endif
