/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Histograms as people know them from libbpf-tools and bpftrace: text
 * with 40-column star bars (linear for short chains, log2 once values
 * pass 32) and JSON lists of {"min","max","count"} buckets.
 */
#ifndef PFT_HIST_H
#define PFT_HIST_H

#include <stdio.h>
#include <linux/types.h>

#define PFT_HIST_LINEAR_MAX 32
#define PFT_HIST_BAR 40

struct json_object;

/* SLOTS[i] counts value i; values below FIRST are not shown. */
void hist_print(FILE *f, const __u64 *slots, int nslots, int first, const char *unit);
/* The same with bars BAR characters wide (a 72-column report). */
void hist_print_bar(FILE *f, const __u64 *slots, int nslots, int first, const char *unit, int bar);
/* log2 buckets: 0 holds 0, k holds [2^(k-1), 2^k - 1]; returns buckets up to the last used */
#define HIST_LOG2_BUCKETS 20
int hist_log2(const __u64 *slots, int nslots, __u64 out[HIST_LOG2_BUCKETS]);
/* "0", "1", "2 -> 3", "4 -> 7" */
void hist_log2_range(int k, char *buf, size_t len);
/* Non-empty values as {"min": i, "max": i, "count": n}, exact. */
struct json_object *hist_json(const __u64 *slots, int nslots);

#endif
