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
#include "profile.h"

struct ktext;
struct sample_result;
struct json_object;

/* Decode F from KT and lay the samples of R (may be NULL) on it. */
int profile_function(const struct kfunc *f, struct ktext *kt, const struct sample_result *r,
		     struct function_profile *out);
void profile_free(struct function_profile *p);
/* "0f 18 08" */
void hex_bytes(char *buf, size_t len, const __u8 *b, int n);

#endif
