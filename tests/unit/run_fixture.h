/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the report and run-file tests share: the identity of one AVC run
 * (each test then sets the counts it asserts on), and a renderer's text
 * captured as a string.
 */
#ifndef RUN_FIXTURE_H
#define RUN_FIXTURE_H

#include <stdio.h>
#include <string.h>
#include "report.h"

static inline void fixture_avc_run(struct run_report *r, const char *command,
				   const char *plan_note)
{
	struct target_report *t = &r->targets[0];

	memset(r, 0, sizeof(*r));
	r->command = command;
	r->kernel_release = "6.12.0-test";
	r->btf_path = "/sys/kernel/btf/vmlinux";
	strcpy(r->started, "2026-12-03T00:00:00Z");
	r->duration_s = 10;
	r->end_reason = "duration";
	r->ntargets = 1;
	t->requested = "avc_has_perm_noaudit";
	t->traced = "avc_lookup";
	t->recipe = "avc";
	t->table = "SELinux access vector cache";
	t->method = "fexit";
	t->plan_note = plan_note;
	t->detail = "avc_lookup(ssid, tsid, tclass)";
	t->sample_every = 1;
}

/* The caller frees the text. */
static inline char *render_to_string(void (*render)(FILE *, const struct run_report *),
				     const struct run_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	render(f, r);
	fclose(f);
	return text;
}

#endif
