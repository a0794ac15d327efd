// SPDX-License-Identifier: GPL-2.0
/*
 * A function's samples and prefetch instructions, as text and JSON: pure
 * renderers of what annotate.c measured, with no kernel access, so the
 * run-file tools and their fuzz target link them alone.
 */
#include <stdio.h>
#include <json-c/json.h>

#include "report.h"

static double share(__u64 part, __u64 whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* indexes of the hottest instructions, hottest first */
static int hottest(const struct function_profile *p, int *idx, int max)
{
	int n = 0, i, j;

	for (i = 0; i < p->ninsns; i++) {
		__u64 s = p->insns[i].samples;

		if (!s)
			continue;
		if (n < max)
			n++;
		else if (s <= p->insns[idx[max - 1]].samples)
			continue;
		for (j = n - 1; j > 0 && p->insns[idx[j - 1]].samples < s; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
	}
	return n;
}

int profile_hottest(const struct function_profile *p, int *idx, int max)
{
	return hottest(p, idx, max);
}

void render_profile_text(FILE *f, const struct function_profile *p, const struct sample_result *r)
{
	int idx[PFT_HOTTEST], n, i;

	if (p->error[0]) {
		fprintf(f, "  samples: %s\n", p->error);
		return;
	}
	fprintf(f, "  samples     %12llu  of %llu %s samples (%.2f%%) landed in %s\n",
		(unsigned long long)p->samples, (unsigned long long)r->counts.total, r->event,
		share(p->samples, r->counts.total), p->name);
	if (r->fallback)
		fprintf(f, "              (%s)\n", r->note);
	n = hottest(p, idx, PFT_HOTTEST);
	if (n) {
		fprintf(f, "     percent : offset : instruction   (hottest, of the function's samples)\n");
		for (i = 0; i < n; i++) {
			const struct annotated_insn *a = &p->insns[idx[i]];

			fprintf(f, "     %6.2f%% : %#6lx : %s%s\n", share(a->samples, p->samples),
				a->offset, a->text, a->prefetch ? "   <- prefetch" : "");
		}
	}
	if (!p->nprefetch) {
		fprintf(f, "  %s has no prefetch instruction: today's hlist walks do not prefetch\n",
			p->name);
		return;
	}
	fprintf(f, "  prefetch instructions (a stall shows on the instruction after one, by skid):\n");
	for (i = 0; i < p->ninsns; i++) {
		const struct annotated_insn *a = &p->insns[i], *next = i + 1 < p->ninsns ? a + 1 : NULL;

		if (!a->prefetch)
			continue;
		fprintf(f, "     %6.2f%% : %#6lx : %s   next %#lx: %.2f%%\n", share(a->samples, p->samples),
			a->offset, a->text, next ? next->offset : 0, next ? share(next->samples, p->samples) : 0);
	}
}

struct json_object *profile_json(const struct function_profile *p, const struct sample_result *r)
{
	struct json_object *o = json_object_new_object(), *hot, *pf;
	int idx[PFT_HOTTEST], n, i;

	json_object_object_add(o, "function", json_object_new_string(p->name));
	json_object_object_add(o, "size", json_object_new_uint64(p->size));
	if (p->error[0]) {
		json_object_object_add(o, "error", json_object_new_string(p->error));
		return o;
	}
	json_object_object_add(o, "samples", json_object_new_uint64(p->samples));
	json_object_object_add(o, "share_pct",
			       json_object_new_double(r ? share(p->samples, r->counts.total) : 0));
	hot = json_object_new_array();
	n = hottest(p, idx, PFT_HOTTEST);
	for (i = 0; i < n; i++) {
		const struct annotated_insn *a = &p->insns[idx[i]];
		struct json_object *h = json_object_new_object();

		json_object_object_add(h, "offset", json_object_new_uint64(a->offset));
		json_object_object_add(h, "samples", json_object_new_uint64(a->samples));
		json_object_object_add(h, "percent", json_object_new_double(share(a->samples, p->samples)));
		json_object_object_add(h, "instruction", json_object_new_string(a->text));
		json_object_array_add(hot, h);
	}
	json_object_object_add(o, "hottest", hot);
	pf = json_object_new_array();
	for (i = 0; i < p->ninsns; i++) {
		const struct annotated_insn *a = &p->insns[i], *next = i + 1 < p->ninsns ? a + 1 : NULL;
		struct json_object *s;

		if (!a->prefetch)
			continue;
		s = json_object_new_object();
		json_object_object_add(s, "offset", json_object_new_uint64(a->offset));
		json_object_object_add(s, "instruction", json_object_new_string(a->text));
		json_object_object_add(s, "bytes", json_object_new_string(a->bytes));
		json_object_object_add(s, "samples", json_object_new_uint64(a->samples));
		json_object_object_add(s, "next_samples", json_object_new_uint64(next ? next->samples : 0));
		json_object_array_add(pf, s);
	}
	json_object_object_add(o, "prefetch", pf);
	json_object_object_add(o, "has_prefetch", json_object_new_boolean(p->nprefetch > 0));
	return o;
}

struct json_object *sampling_json(const struct sample_result *r)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "event", json_object_new_string(r->event));
	json_object_object_add(o, "asked", json_object_new_string(r->asked));
	json_object_object_add(o, "fallback", json_object_new_boolean(r->fallback));
	json_object_object_add(o, "note", json_object_new_string(r->note));
	json_object_object_add(o, "freq", json_object_new_int(r->freq));
	json_object_object_add(o, "cpus", json_object_new_int(r->cpus));
	json_object_object_add(o, "total", json_object_new_uint64(r->counts.total));
	json_object_object_add(o, "kernel", json_object_new_uint64(r->counts.kernel));
	json_object_object_add(o, "in_traced", json_object_new_uint64(r->counts.kept));
	json_object_object_add(o, "dropped", json_object_new_uint64(r->counts.dropped));
	return o;
}
