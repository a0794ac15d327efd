// SPDX-License-Identifier: GPL-2.0
/* Command-line parsing: what is accepted, and the refusals (exit 2). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cmocka_prelude.h"
#include "cli.h"
#include "knobs.h"

static int parse(struct trace_opts *o, const char *first, ...)
{
	static char storage[16][128];
	char *argv[17];
	const char *a;
	va_list ap;
	int argc = 0, saved, devnull, rc;

	va_start(ap, first);
	for (a = first; a; a = va_arg(ap, const char *)) {
		snprintf(storage[argc], sizeof(storage[argc]), "%s", a);
		argv[argc] = storage[argc];
		argc++;
	}
	va_end(ap);
	argv[argc] = NULL;
	/* refusals print their one line on stderr: keep the test log clean */
	fflush(stderr);
	saved = dup(2);
	devnull = open("/dev/null", O_WRONLY);
	dup2(devnull, 2);
	rc = parse_trace_opts(argc, argv, o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(devnull);
	return rc;
}

static void test_accepts_a_full_command(void **state)
{
	struct trace_opts o;

	assert_int_equal(parse(&o, "pftrace", "-f", "avc_has_perm_noaudit", "-d", "2.5", "-i",
			       "0.5", "-o", "run.json", "--format", "json", "--sample", "16",
			       "-C", "attach=kprobe", "-v", NULL), 0);
	assert_int_equal(o.nfunctions, 1);
	assert_string_equal(o.functions[0], "avc_has_perm_noaudit");
	assert_true(o.duration_s == 2.5);
	assert_true(o.interval_s == 0.5);
	assert_string_equal(o.output_path, "run.json");
	assert_int_equal(o.common.format, FORMAT_JSON);
	assert_int_equal(o.duty_one_in, 16);
	assert_int_equal(o.sample_every, 1);
	assert_true(o.slice_s == PFT_DEFAULT_SLICE_MS / 1000.0);
	assert_int_equal(o.knobs.attach, KNOB_ATTACH_KPROBE);
	assert_int_equal(o.knobs.avc_hash, KNOB_AVC_HASH_AUTO);
	assert_true(o.common.verbose);
	assert_null(o.command);
	assert_string_equal(o.cmdline, "pftrace -f avc_has_perm_noaudit -d 2.5 -i 0.5 -o run.json "
			    "--format json --sample 16 -C attach=kprobe -v");
}

static void test_two_kinds_of_sampling(void **state)
{
	struct trace_opts o;

	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--sample-calls", "8", NULL), 0);
	assert_int_equal(o.sample_every, 8);
	assert_int_equal(o.duty_one_in, 1);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--sample", "4", "--slice", "50", NULL), 0);
	assert_int_equal(o.duty_one_in, 4);
	assert_true(o.slice_s == 0.05);
	/* one way to thin a trace at a time; a slice needs a duty cycle */
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--sample", "4", "--sample-calls", "4",
			       NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--slice", "50", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--sample", "4", "--slice", "4", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--sample", "4", "--slice", "10001",
			       NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--sample", "10001", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--sample", "4", "--latency", NULL), 2);
}

static void test_command_after_dashes(void **state)
{
	struct trace_opts o;

	assert_int_equal(parse(&o, "pftrace", "-f", "avc_lookup", "--", "make", "-j2", NULL), 0);
	assert_non_null(o.command);
	assert_string_equal(o.command[0], "make");
	assert_string_equal(o.command[1], "-j2");
	assert_null(o.command[2]);
}

static void test_refusals(void **state)
{
	struct trace_opts o;

	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-d", "abc", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-d", "0", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-d", "-3", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-d", "1e400", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-d", "nan", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-d", "5s", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-i", "5", "-d", "1", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-d", "1", NULL), 2);             /* no -f */
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--bogus", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", NULL), 2);                  /* missing value */
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "stray", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--format", "xml", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--sample", "0", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--sample", "3x", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "--sample-calls", "0", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-C", "attach", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-C", "attach=uprobe", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-C", "nope=1", NULL), 2);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-o", "", NULL), 2);
}

/* knob_parse's refusal, as the user reads it on stderr */
static int knob_refusal(const char *kv, char *msg, size_t len)
{
	struct trace_knobs k = { 0 };
	FILE *f = tmpfile();
	int saved, rc;
	size_t n;

	fflush(stderr);
	saved = dup(2);
	dup2(fileno(f), 2);
	rc = knob_parse(NULL, trace_knob_specs, &k, kv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(msg, 1, len - 1, f);
	msg[n] = '\0';
	fclose(f);
	return rc;
}

/*
 * Every knob of the table: each of its values sets its typed field to
 * that value's place in the enum, and a value it does not take is
 * refused with a message that lists the ones it does.
 */
static void test_every_knob(void **state)
{
	const struct knob_spec *k;
	char kv[96], msg[512];
	int nknobs = 0, i;

	for (k = trace_knob_specs; k->key; k++, nknobs++) {
		for (i = 0; k->values[i]; i++) {
			struct trace_opts o;
			int field;

			snprintf(kv, sizeof(kv), "%s=%s", k->key, k->values[i]);
			assert_int_equal(parse(&o, "pftrace", "-f", "x", "-C", kv, NULL), 0);
			memcpy(&field, (char *)&o.knobs + k->offset, sizeof(field));
			assert_int_equal(field, i + 1);
		}
		snprintf(kv, sizeof(kv), "%s=nonsense", k->key);
		assert_int_equal(knob_refusal(kv, msg, sizeof(msg)), 2);
		assert_non_null(strstr(msg, "unknown value 'nonsense'"));
		for (i = 0; k->values[i]; i++)
			assert_non_null(strstr(msg, k->values[i]));
		assert_int_equal(strchr(msg, '\n') - msg, (long)strlen(msg) - 1);
	}
	assert_int_equal(nknobs, 5);
	assert_int_equal(knob_refusal("nosuch=1", msg, sizeof(msg)), 2);
	assert_non_null(strstr(msg, "unknown knob 'nosuch'"));
	assert_int_equal(knob_refusal("attach", msg, sizeof(msg)), 2);
	assert_int_equal(knob_refusal("=fexit", msg, sizeof(msg)), 2);
	assert_int_equal(knob_refusal("attach=", msg, sizeof(msg)), 2);
}

/* The typed fields the use sites read, by name: the table's rows point at them. */
static void test_knobs_reach_their_fields(void **state)
{
	struct trace_opts o;

	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-C", "walk=off", "-C", "loads=probe",
			       "-C", "adds=atomic", "-C", "avc.hash=murmur3", "-C", "attach=fexit", NULL), 0);
	assert_int_equal(o.knobs.walk, KNOB_WALK_OFF);
	assert_int_equal(o.knobs.loads, KNOB_LOADS_PROBE);
	assert_int_equal(o.knobs.adds, KNOB_ADDS_ATOMIC);
	assert_int_equal(o.knobs.avc_hash, KNOB_AVC_HASH_MURMUR3);
	assert_int_equal(o.knobs.attach, KNOB_ATTACH_FEXIT);
	/* the last one given wins */
	assert_int_equal(parse(&o, "pftrace", "-f", "x", "-C", "attach=fexit", "-C", "attach=kprobe", NULL), 0);
	assert_int_equal(o.knobs.attach, KNOB_ATTACH_KPROBE);
	assert_int_equal(parse(&o, "pftrace", "-f", "x", NULL), 0);
	assert_int_equal(o.knobs.attach, KNOB_ATTACH_AUTO);
	assert_int_equal(o.knobs.walk, KNOB_WALK_AUTO);
}

static void test_help_and_version(void **state)
{
	struct trace_opts o;
	FILE *saved = stdout;

	stdout = fopen("/dev/null", "w");
	assert_int_equal(parse(&o, "pftrace", "--help", NULL), -1);
	assert_int_equal(parse(&o, "pftrace", "-V", NULL), -1);
	fclose(stdout);
	stdout = saved;
}

static void test_common_opts(void **state)
{
	struct common_opts o;
	char a0[] = "features", a1[] = "--format", a2[] = "json", a3[] = "extra";
	char *ok[] = { a0, a1, a2, NULL };
	char *bad[] = { a0, a3, NULL };

	assert_int_equal(parse_common_opts(3, ok, &o, "features"), 0);
	assert_int_equal(o.format, FORMAT_JSON);
	assert_int_equal(parse_common_opts(2, bad, &o, "features"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepts_a_full_command),
		cmocka_unit_test(test_two_kinds_of_sampling),
		cmocka_unit_test(test_command_after_dashes),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_every_knob),
		cmocka_unit_test(test_knobs_reach_their_fields),
		cmocka_unit_test(test_help_and_version),
		cmocka_unit_test(test_common_opts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
