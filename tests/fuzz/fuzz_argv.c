// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the command line (user/cmd/cli.c). The input is split
 * at NUL bytes into arguments after "pftrace"; whatever parses must
 * hold the limits the rest of pftrace relies on.
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_ARGS 64

/*
 * Each input is a fresh heap copy, freed after: the parsers start getopt
 * with optind = 0, which makes glibc forget the last argv entirely, so a
 * pointer kept across parses is a bug ASan reports.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2], *p;
	struct trace_opts o;
	struct common_opts co;
	int argc = 1, rc;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "pftrace";
	for (p = buf; p < buf + size && argc <= MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;

	memset(&o, 0, sizeof(o));
	rc = parse_trace_opts(argc, argv, &o);
	if (rc != 0 && rc != 2 && rc != -1)
		abort();
	if (rc == 0) {
		if (o.nfunctions < 1 || o.nfunctions > PFT_MAX_TARGETS ||
		    (unsigned int)o.knobs.attach > KNOB_ATTACH_KPROBE || (unsigned int)o.knobs.walk > KNOB_WALK_OFF ||
		    o.duration_s < 0 || !isfinite(o.duration_s) || !isfinite(o.interval_s) ||
		    (o.interval_s && o.interval_s < PFT_MIN_INTERVAL_S) ||
		    (o.interval_s && o.duration_s && o.interval_s > o.duration_s) ||
		    o.sample_every < 1 || o.duty_one_in < 1 ||
		    (o.duty_one_in > 1 && !(o.slice_s > 0)) || !memchr(o.cmdline, '\0', sizeof(o.cmdline)))
			abort();
	}
	memset(&co, 0, sizeof(co));
	rc = parse_common_opts(argc, argv, &co, "snapshot");
	if (rc != 0 && rc != 2 && rc != -1)
		abort();
	free(buf);
	return 0;
}
