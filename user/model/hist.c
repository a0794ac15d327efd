// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <json-c/json.h>

#include "aggregate.h"
#include "hist.h"

static void print_bar(FILE *f, __u64 count, __u64 max, int width)
{
	int stars = max ? (int)((count * (__u64)width + max - 1) / max) : 0;
	int i;

	if (stars > width)
		stars = width;
	fputc('|', f);
	for (i = 0; i < width; i++)
		fputc(i < stars ? '*' : ' ', f);
	fputs("|\n", f);
}

static void print_linear(FILE *f, const __u64 *slots, int first, int last, const char *unit,
			 int width)
{
	__u64 max = 0;
	int i;

	for (i = first; i <= last; i++)
		if (slots[i] > max)
			max = slots[i];
	fprintf(f, "     %-10s : count      distribution\n", unit);
	for (i = first; i <= last; i++) {
		fprintf(f, "     %10d : %-10llu ", i, (unsigned long long)slots[i]);
		print_bar(f, slots[i], max, width);
	}
}

/* Bucket b holds values [2^(b-1), 2^b - 1]; bucket 0 holds 0. */
static void print_log2(FILE *f, const __u64 *slots, int nslots, int first, int last,
		       const char *unit, int width)
{
	__u64 buckets[64] = { 0 }, max = 0;
	int b, i, nb = 0, b_first = -1;

	for (i = first; i <= last && i < nslots; i++) {
		for (b = 0; (1 << b) <= i; b++)
			;
		buckets[b] += slots[i];
		if (b + 1 > nb)
			nb = b + 1;
		if (b_first < 0)
			b_first = b;
	}
	for (b = 0; b < nb; b++)
		if (buckets[b] > max)
			max = buckets[b];
	fprintf(f, "     %-23s : count      distribution\n", unit);
	for (b = b_first < 0 ? 0 : b_first; b < nb; b++) {
		long lo = b ? 1L << (b - 1) : 0, hi = b ? (1L << b) - 1 : 0;

		fprintf(f, "     %10ld -> %-10ld : %-10llu ", lo, hi,
			(unsigned long long)buckets[b]);
		print_bar(f, buckets[b], max, width);
	}
}

void hist_print_bar(FILE *f, const __u64 *slots, int nslots, int first, const char *unit, int bar)
{
	int last = hist_max_slot(slots, nslots);

	if (last < first) {
		fprintf(f, "     (none)\n");
		return;
	}
	if (last <= PFT_HIST_LINEAR_MAX)
		print_linear(f, slots, first, last, unit, bar);
	else
		print_log2(f, slots, nslots, first, last, unit, bar);
}

void hist_print(FILE *f, const __u64 *slots, int nslots, int first, const char *unit)
{
	hist_print_bar(f, slots, nslots, first, unit, PFT_HIST_BAR);
}

int hist_log2(const __u64 *slots, int nslots, __u64 out[HIST_LOG2_BUCKETS])
{
	int i, k, n = 0;

	memset(out, 0, HIST_LOG2_BUCKETS * sizeof(*out));
	for (i = 0; i < nslots; i++) {
		for (k = 0; k < HIST_LOG2_BUCKETS - 1 && (1 << k) <= i; k++)
			;
		out[k] += slots[i];
		if (slots[i] && k + 1 > n)
			n = k + 1;
	}
	return n;
}

void hist_log2_range(int k, char *buf, size_t len)
{
	if (k < 2)
		snprintf(buf, len, "%d", k);
	else
		snprintf(buf, len, "%d -> %d", 1 << (k - 1), (1 << k) - 1);
}

struct json_object *hist_json(const __u64 *slots, int nslots)
{
	struct json_object *arr = json_object_new_array();
	int i;

	for (i = 0; i < nslots; i++) {
		struct json_object *b;

		if (!slots[i])
			continue;
		b = json_object_new_object();
		json_object_object_add(b, "min", json_object_new_int(i));
		json_object_object_add(b, "max", json_object_new_int(i));
		json_object_object_add(b, "count", json_object_new_uint64(slots[i]));
		json_object_array_add(arr, b);
	}
	return arr;
}
