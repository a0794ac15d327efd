/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Samples on a function's instructions, perf-annotate style: where the
 * cost lands, and what the prefetch instructions (and the instruction
 * after each, where a stall shows through skid) take of it.
 */
#ifndef PFT_ANNOTATE_H
#define PFT_ANNOTATE_H

#include <stdio.h>
#include <linux/types.h>
#include "kernel.h"

struct ktext;
struct sample_result;
struct json_object;

#define PFT_HOTTEST 8

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
	char error[PFT_ERRLEN]; /* text unreadable: why */
};

/* Decode F from KT and lay the samples of R (may be NULL) on it. */
int profile_function(const struct kfunc *f, struct ktext *kt, const struct sample_result *r,
		     struct function_profile *out);
void profile_free(struct function_profile *p);
void render_profile_text(FILE *f, const struct function_profile *p, const struct sample_result *r);
struct json_object *profile_json(const struct function_profile *p, const struct sample_result *r);
/* What was sampled, for a JSON document's "sampling" key. */
struct json_object *sampling_json(const struct sample_result *r);
/* "0f 18 08" */
void hex_bytes(char *buf, size_t len, const __u8 *b, int n);

#endif
