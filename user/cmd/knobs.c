// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "knobs.h"
#include "trace_opts.h"

static const char *const attach_values[] = { "fexit", "kprobe", NULL };
static const char *const walk_values[] = { "on", "off", NULL };
static const char *const loads_values[] = { "direct", "probe", NULL };
static const char *const adds_values[] = { "plain", "atomic", NULL };
static const char *const avc_hash_values[] = { "xor", "murmur3", NULL };

#define TRACE_KNOB(key, values, field, help) \
	{ key, values, offsetof(struct trace_knobs, field), help }

/* The enums of trace_opts.h list their values in these orders, after AUTO. */
const struct knob_spec trace_knob_specs[] = {
	TRACE_KNOB("attach", attach_values, attach, "force the attach method"),
	/* Forces the AVC bucket function: exists to prove the self-check. */
	TRACE_KNOB("avc.hash", avc_hash_values, avc_hash, NULL),
	/* Programs return at once: the benchmark's floor (attach cost only). */
	TRACE_KNOB("walk", walk_values, walk, "off: attach and return at once (the benchmark's floor)"),
	/* Probe reads where direct loads would be used: the benchmark's comparison. */
	TRACE_KNOB("loads", loads_values, loads, "how walks read nodes (default: direct where 6.2+)"),
	/* Atomic adds where plain ones would be used: the benchmark's comparison. */
	TRACE_KNOB("adds", adds_values, adds, "how counters are bumped (default: plain where safe)"),
	{ 0 },
};

_Static_assert(sizeof(enum knob_attach) == sizeof(int), "knob fields are int-sized");
_Static_assert(KNOB_ATTACH_KPROBE == 2 && KNOB_WALK_OFF == 2 && KNOB_LOADS_PROBE == 2 &&
	       KNOB_ADDS_ATOMIC == 2 && KNOB_AVC_HASH_MURMUR3 == 2,
	       "a knob's enum is its values' index + 1");

/* K's I-th value, NULL past the last */
static const char *knob_value(const struct knob_spec *k, int i)
{
	return k->values ? k->values[i] : k->value_at(i);
}

/* "a|b|c" into BUF */
static const char *joined(const struct knob_spec *k, const char *sep, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; knob_value(k, i) && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? sep : "", knob_value(k, i));
	return buf;
}

static const struct knob_spec *knob_named(const struct knob_spec *table, const char *key, size_t keylen)
{
	for (; table->key; table++)
		if (strlen(table->key) == keylen && !strncmp(table->key, key, keylen))
			return table;
	return NULL;
}

int knob_parse(const char *who, const struct knob_spec *table, void *knobs, const char *kv)
{
	const char *eq = strchr(kv, '=');
	const struct knob_spec *k;
	char list[256];
	int i;

	if (!eq || eq == kv || !eq[1])
		return pft_refuse(who, "-C wants KEY=VALUE, not '%s'", kv);
	k = knob_named(table, kv, (size_t)(eq - kv));
	if (!k)
		return pft_refuse(who, "-C: unknown knob '%.*s' (pftrace %s%s--help lists them)",
				  (int)(eq - kv), kv, who ? who : "", who ? " " : "");
	for (i = 0; knob_value(k, i); i++)
		if (!strcmp(knob_value(k, i), eq + 1)) {
			*(int *)((char *)knobs + k->offset) = i + 1;
			return 0;
		}
	return pft_refuse(who, "-C %s: unknown value '%s' (it takes %s)", k->key, eq + 1,
			  joined(k, ", ", list, sizeof(list)));
}

void knobs_print_help(FILE *f, const struct knob_spec *table)
{
	char kv[64], values[48];

	fprintf(f, "\nKnobs (-C KEY=VALUE):\n");
	for (; table->key; table++) {
		if (!table->help)
			continue;
		snprintf(kv, sizeof(kv), "%s=%s", table->key, joined(table, "|", values, sizeof(values)));
		fprintf(f, "  %-26s %s\n", kv, table->help);
	}
}
