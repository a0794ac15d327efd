// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the JSON-lines reader plot takes -i --format json's
 * output through (runfile_parse_line), and the heat map drawn from it.
 * Each interval it takes is written again as pftrace writes one
 * (render_target_json), read back and written again: the same document,
 * with no NaN or infinity. Built with AddressSanitizer and UBSan;
 * tests/fuzz/run drives it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "json_check.h"
#include "plot_svg.h"
#include "runfile.h"

#define MAX_ROWS 64

/* an interval record as the trace writes one: its targets over INTERVAL_S */
static char *interval_text(const struct run_report *r, double interval_s)
{
	struct json_object *rec = json_object_new_object(), *targets = json_object_new_array();
	char *text;
	int i;

	json_object_object_add(rec, "interval_end", json_object_new_string("00:00:00"));
	json_object_object_add(rec, "interval_s", json_object_new_double(interval_s));
	for (i = 0; i < r->ntargets; i++)
		json_object_array_add(targets, render_target_json(&r->targets[i], interval_s));
	json_object_object_add(rec, "targets", targets);
	if (has_nonfinite(rec)) {
		fprintf(stderr, "an interval written with a NaN or an infinity\n");
		abort();
	}
	text = strdup(json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
						     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(rec);
	return text;
}

static void round_trip(const struct run_report *r, double interval_s)
{
	struct run_file *again = calloc(1, sizeof(*again));
	char err[512], *first = interval_text(r, interval_s), *second = NULL;
	double again_s;

	if (!first || !again)
		goto out;
	if (runfile_parse_line(first, strlen(first), "rendered", again, &again_s, err,
			       sizeof(err)) != 1) {
		fprintf(stderr, "the reader refuses the interval it wrote: %s\n%s\n", err, first);
		abort();
	}
	second = interval_text(&again->rep, again_s);
	if (second && !json_text_same(first, second)) {
		fprintf(stderr, "written again, the interval differs:\n%s\n---\n%s\n", first, second);
		abort();
	}
	runfile_free(again);
out:
	free(second);
	free(first);
	free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static __u64 rows[MAX_ROWS * PFT_HIST_SLOTS];
	struct run_file *rf = calloc(1, sizeof(*rf));
	const char *p = (const char *)data, *end = p + size, *nl;
	char err[512];
	double interval_s = 0, span = 0;
	int n = 0, got;
	FILE *sink;

	json_c_set_serialization_double_format("%.15g", JSON_C_OPTION_GLOBAL);
	for (; rf && p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		nl = nl ? nl : end;
		if (nl == p)
			continue;
		got = runfile_parse_line(p, (size_t)(nl - p), "fuzz.jsonl: line 1", rf, &interval_s,
					 err, sizeof(err));
		if (got < 0) {
			/* every refusal is one line naming the line */
			if (!strstr(err, "line 1") || strchr(err, '\n'))
				abort();
			break;
		}
		if (got == 1) {
			round_trip(&rf->rep, interval_s);
			if (n < MAX_ROWS && rf->rep.ntargets && rf->rep.targets[0].sum.self_check_ok) {
				memcpy(rows + (size_t)n * PFT_HIST_SLOTS,
				       rf->rep.targets[0].stats.chain_walked_hist, sizeof(__u64) * PFT_HIST_SLOTS);
				span = interval_s;
				n++;
			}
		}
		runfile_free(rf);
	}
	if (n && (sink = fopen("/dev/null", "w"))) {
		plot_heatmap(sink, "fuzz", rows, n, PFT_HIST_SLOTS, span);
		fclose(sink);
	}
	free(rf);
	return 0;
}
