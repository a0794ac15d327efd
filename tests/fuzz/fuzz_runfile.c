// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the run-file reader and everything that consumes
 * what it returns (text, JSON and OpenMetrics renderers, the commit
 * report). Built with AddressSanitizer; tests/fuzz/run drives it.
 *
 * The round trip: whatever the reader accepts renders as JSON with no
 * NaN or infinity (RFC 8259), which the reader takes back and renders
 * again: the same document (numbers to 12 digits of the 15 written).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "json_check.h"
#include "runfile.h"
#include "report_commit.h"
#include "table.h"

/* what pftrace whatif computes from a snapshot: the own layout and two others */
static void whatif_layouts(const struct run_file *rf)
{
	struct layout_prediction p;
	int i;

	for (i = 0; i < rf->rep.ntargets; i++) {
		const struct table_snapshot *s = rf->rep.targets[i].snapshot;
		const struct table_hash *h;

		if (!s)
			continue;
		h = s->hash;
		if (!predict_own_layout(&p, h, s->shape.buckets, s->keys, s->nkeys, s->counts,
					s->ncounts, true))
			layout_prediction_free(&p);
		if (!predict_layout(&p, h, s->shape.buckets > 2 ? s->shape.buckets / 2 : 2, s->keys,
				    s->nkeys, s->counts, s->ncounts, true))
			layout_prediction_free(&p);
		if (!predict_layout(&p, &table_hash_jhash, 64, s->keys, s->nkeys, s->counts, s->ncounts,
				    true))
			layout_prediction_free(&p);
	}
}

/* render_json's text of RF, as pftrace writes it, or abort on a number JSON lacks */
static char *rendered(const struct run_file *rf)
{
	struct json_object *root = render_json(&rf->rep);
	char *text;

	if (has_nonfinite(root)) {
		fprintf(stderr, "render_json wrote a NaN or an infinity\n");
		abort();
	}
	text = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return text;
}

static void round_trip(const struct run_file *rf)
{
	struct run_file again;
	char err[512], *first = rendered(rf), *second;

	if (!first)
		return;
	if (runfile_parse(first, strlen(first), "rendered.json", &again, err, sizeof(err))) {
		fprintf(stderr, "the reader refuses what it rendered: %s\n%s\n", err, first);
		abort();
	}
	second = rendered(&again);
	if (second && !json_text_same(first, second)) {
		fprintf(stderr, "rendered again, the run differs:\n%s\n---\n%s\n", first, second);
		abort();
	}
	free(second);
	free(first);
	runfile_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_file rf;
	char err[512], *text = malloc(size + 1);
	FILE *sink;

	if (!text)
		return 0;
	/* as pftrace's main() has it */
	json_c_set_serialization_double_format("%.15g", JSON_C_OPTION_GLOBAL);
	memcpy(text, data, size);
	text[size] = '\0';
	if (!runfile_parse(text, size, "fuzz.json", &rf, err, sizeof(err))) {
		sink = fopen("/dev/null", "w");
		if (sink) {
			render_text(sink, &rf.rep);
			render_openmetrics(sink, &rf.rep);
			report_commit_text(sink, &rf.rep);
			fclose(sink);
		}
		round_trip(&rf);
		whatif_layouts(&rf);
		runfile_free(&rf);
	} else if (!strchr(err, ':') || strchr(err, '\n')) {
		/* every refusal is one line naming the file */
		abort();
	}
	free(text);
	return 0;
}
