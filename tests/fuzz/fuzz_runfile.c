// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the run-file reader and everything that consumes
 * what it returns (text, JSON and OpenMetrics renderers, the commit
 * report). Built with AddressSanitizer; tests/fuzz/run drives it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

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
					s->ncounts))
			layout_prediction_free(&p);
		if (!predict_layout(&p, h, s->shape.buckets > 2 ? s->shape.buckets / 2 : 2, s->keys,
				    s->nkeys, s->counts, s->ncounts))
			layout_prediction_free(&p);
		if (!predict_layout(&p, &table_hash_jhash, 64, s->keys, s->nkeys, s->counts, s->ncounts))
			layout_prediction_free(&p);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_file rf;
	char err[512], *text = malloc(size + 1);
	FILE *sink;

	if (!text)
		return 0;
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
		json_object_put(render_json(&rf.rep));
		whatif_layouts(&rf);
		runfile_free(&rf);
	} else if (!strchr(err, ':') || strchr(err, '\n')) {
		/* every refusal is one line naming the file */
		abort();
	}
	free(text);
	return 0;
}
