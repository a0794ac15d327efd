/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -C KEY=VALUE, retsnoop's cfg_specs in small: a table row per knob gives
 * its name, the values it takes, the typed field it sets and its help
 * line. Every knob takes one of a few words, listed in the row or by a
 * registry; the value stored is the word's index + 1, so that a zeroed
 * field means "not given".
 */
#ifndef PFT_KNOBS_H
#define PFT_KNOBS_H

#include <stddef.h>
#include <stdio.h>

#define PFT_KNOB_VALUES 8

struct knob_spec {
	const char *key;
	const char *const *values;  /* NULL-terminated */
	size_t offset;              /* of its int-sized field in the knobs struct */
	const char *help;           /* NULL: a debug knob, left out of --help */
	/* with no values: the I-th value, NULL past the last (a registry's names) */
	const char *(*value_at)(int i);
};

/*
 * Parse KV ("attach=kprobe") against TABLE (ended by a zeroed row) into
 * KNOBS. 0, or 2 with one line on stderr from WHO: the known knobs when
 * the key is unknown, the values it takes when the value is.
 */
int knob_parse(const char *who, const struct knob_spec *table, void *knobs, const char *kv);
/* The "Knobs (-C KEY=VALUE):" block of --help: one line per documented knob. */
void knobs_print_help(FILE *f, const struct knob_spec *table);

/* The trace command's knobs, into struct trace_knobs. */
extern const struct knob_spec trace_knob_specs[];

#endif
