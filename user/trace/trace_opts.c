// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "trace_opts.h"

const char *knob_get(const struct trace_opts *o, const char *key)
{
	int i;

	for (i = o->nknobs - 1; i >= 0; i--)
		if (!strcmp(o->knobs[i].key, key))
			return o->knobs[i].value;
	return NULL;
}
