// SPDX-License-Identifier: GPL-2.0
/*
 * Run files read back: a round trip through the writer, every refusal
 * of a malformed file, and what report, diff and merge make of them.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "cmocka_prelude.h"
#include "runfile.h"
#include "report_commit.h"
#include "runtools.h"
#include "stats.h"
#include "run_fixture.h"

/* A run as the session would report it: chains of 1-3 nodes, n lookups. */
static void make_run(struct run_report *r, __u64 scale, int long_chains)
{
	struct target_report *t = &r->targets[0];
	struct chain_stats *s = &t->stats;
	int i;

	fixture_avc_run(r, "pftrace -f avc_lookup -d 10 -o run.json", "");
	r->hostname = "box1";
	r->arch = "x86_64";
	r->cpu_model = "A CPU with a rather long model name that will not fit on one line";
	r->cpus = 2;
	r->bpf_stats = "";
	t->iterator = "hlist_for_each_entry_rcu()";
	t->loads = "direct";
	t->adds = "plain";
	t->table_slots = 512;
	for (i = 0; i <= (long_chains ? 20 : 2); i++) {
		__u64 n = scale * (long_chains ? 50 : (i == 1 ? 900 : 50));

		s->chain_walked_hist[i] = n;
		if (i > 0)
			s->hit_pos_hist[i] = n - scale;
	}
	s->next_null_at_hit = scale * 10;
	s->self_disagree = 0;
	for (i = 0; i < PFT_HIST_SLOTS; i++) {
		s->hits += s->hit_pos_hist[i];
		s->misses += s->chain_walked_hist[i] - s->hit_pos_hist[i];
	}
	chain_stats_derive(s, 1);
	report_finish_target(t);
}

static char *to_json(const struct run_report *r)
{
	struct json_object *root = render_json(r);
	char *text = strdup(json_object_to_json_string(root));

	json_object_put(root);
	return text;
}

static void test_round_trip(void **state)
{
	struct run_report r;
	struct run_file rf;
	char err[512], *text;

	make_run(&r, 3, 1);
	text = to_json(&r);
	assert_int_equal(runfile_parse(text, strlen(text), "x.json", &rf, err, sizeof(err)), 0);
	assert_int_equal(rf.rep.ntargets, 1);
	assert_string_equal(rf.rep.kernel_release, "6.12.0-test");
	assert_string_equal(rf.rep.hostname, "box1");
	assert_string_equal(rf.rep.targets[0].traced, "avc_lookup");
	assert_int_equal(rf.rep.targets[0].table_slots, 512);
	assert_string_equal(rf.rep.targets[0].loads, "direct");
	assert_string_equal(rf.rep.targets[0].adds, "plain");
	assert_memory_equal(&rf.rep.targets[0].stats, &r.targets[0].stats, sizeof(struct chain_stats));
	assert_true(rf.rep.targets[0].sum.mean_walked == r.targets[0].sum.mean_walked);
	assert_null(rf.rep.filter);
	runfile_free(&rf);
	free(text);
}

/* KEY's value VALUE overwritten with JUNK (as long): the reader must refuse it */
static void refuses_overwritten(const char *key, const char *value, const char *junk)
{
	struct run_report r;
	struct run_file rf;
	char err[512], want[64], *text, *at;

	make_run(&r, 3, 1);
	text = to_json(&r);
	snprintf(want, sizeof(want), "\"%s\": \"%s\"", key, value);
	at = strstr(text, want);
	assert_non_null(at);
	memcpy(at + strlen(key) + 5, junk, strlen(junk));
	assert_int_not_equal(runfile_parse(text, strlen(text), "x.json", &rf, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "\"%s\" '%s'", key, junk);
	assert_non_null(strstr(err, want));
	free(text);
}

/* how the walks read nodes, and how counters were bumped, are part of
 * the data: only the kinds pftrace writes */
static void test_refuses_unknown_loads(void **state)
{
	refuses_overwritten("loads", "direct", "xyzzy!");
}

static void test_refuses_unknown_adds(void **state)
{
	refuses_overwritten("adds", "plain", "xyzzy");
}

/* the filter goes out and comes back: who was counted is part of the data */
static void test_filter_round_trip(void **state)
{
	struct run_filter f = { .present = true, .cgroup = "/sys/fs/cgroup/A", .cgroup_id = 27 };
	struct run_report r;
	struct run_file rf;
	char err[512], *text;

	make_run(&r, 3, 1);
	r.filter = &f;
	text = to_json(&r);
	assert_int_equal(runfile_parse(text, strlen(text), "x.json", &rf, err, sizeof(err)), 0);
	assert_non_null(rf.rep.filter);
	assert_string_equal(rf.rep.filter->cgroup, "/sys/fs/cgroup/A");
	assert_int_equal(rf.rep.filter->cgroup_id, 27);
	assert_int_equal(rf.rep.filter->pid, 0);
	runfile_free(&rf);
	free(text);
}

/* each malformed file: refused, one line naming the file and the reason */
static void refuse(const char *text, const char *why)
{
	struct run_file rf;
	char err[512] = "";

	assert_int_equal(runfile_parse(text, strlen(text), "bad.json", &rf, err, sizeof(err)), -1);
	if (!strstr(err, why) || strncmp(err, "bad.json: ", 10) || strchr(err, '\n'))
		fail_msg("for %s: got \"%s\", wanted \"%s\"", text, err, why);
}

/* TEXT with KEY's value replaced by VALUE (a number or a literal, up to , or }) */
static char *with_value(const char *text, const char *key, const char *value)
{
	char want[64], *out;
	const char *at, *end;

	snprintf(want, sizeof(want), "\"%s\": ", key);
	at = strstr(text, want);
	assert_non_null(at);
	at += strlen(want);
	end = at + strcspn(at, ",}");
	out = malloc(strlen(text) + strlen(value) + 1);
	assert_non_null(out);
	sprintf(out, "%.*s%s%s", (int)(at - text), text, value, end);
	return out;
}

/* TEXT with KEY set to VALUE, refused for WHY */
static void refuse_with(const char *text, const char *key, const char *value, const char *why)
{
	char *bad = with_value(text, key, value);

	refuse(bad, why);
	free(bad);
}

/* --sample: the duty cycle reads back, and a merge adds its time */
static void test_duty_cycle(void **state)
{
	struct run_report r, b, m;
	const struct run_report *runs[2] = { &r, &b };
	const char *names[2] = { "a.json", "b.json" };
	struct run_file rf;
	char err[512], *text, *bad;

	make_run(&r, 3, 0);
	r.duration_s = 10;
	r.cpu_s = 0.25;
	r.targets[0].duty = (struct duty_summary){ .one_in = 16, .slice_ms = 20, .slices = 31,
						   .attached_s = 0.625, .switching_s = 4.5,
						   .attach_ms = 16.5, .detach_ms = 128.25, .scale = 16 };
	text = to_json(&r);
	assert_non_null(strstr(text, "\"duty_cycle\""));
	assert_int_equal(runfile_parse(text, strlen(text), "x.json", &rf, err, sizeof(err)), 0);
	assert_int_equal(rf.rep.targets[0].duty.one_in, 16);
	assert_int_equal(rf.rep.targets[0].duty.slices, 31);
	assert_true(rf.rep.targets[0].duty.attached_s == 0.625);
	assert_true(rf.rep.targets[0].duty.scale == 16);
	assert_true(rf.rep.targets[0].duty.attach_ms == 16.5);
	assert_true(rf.rep.targets[0].duty.detach_ms == 128.25);
	assert_true(rf.rep.cpu_s == 0.25);
	assert_false(rf.rep.targets[0].duty.slice_chosen);
	runfile_free(&rf);
	free(text);
	/* slices pftrace chose, and the two costs it weighed, read back */
	r.targets[0].duty.slice_chosen = true;
	r.targets[0].duty.switch_cpu_ms = 61.5;
	r.targets[0].duty.walk_cpu_s = 0.125;
	text = to_json(&r);
	assert_int_equal(runfile_parse(text, strlen(text), "x.json", &rf, err, sizeof(err)), 0);
	assert_true(rf.rep.targets[0].duty.slice_chosen);
	assert_false(rf.rep.targets[0].duty.stays_attached);
	assert_true(rf.rep.targets[0].duty.switch_cpu_ms == 61.5);
	assert_true(rf.rep.targets[0].duty.walk_cpu_s == 0.125);
	runfile_free(&rf);
	/* what pftrace never writes is refused: a flag that is not a boolean, */
	refuse_with(text, "slice_chosen", "\"yes\"", "duty_cycle.slice_chosen is not true or false");
	refuse_with(text, "slice_chosen", "1", "duty_cycle.slice_chosen is not true or false");
	/* a chosen slice past the longest pftrace chooses, */
	refuse_with(text, "slice_ms", "1500", "a chosen slice of 1500 ms, past 1000");
	/* walks on more CPUs than the machine has (2, over 0.625 s), */
	refuse_with(text, "walk_cpu_s", "1.5",
		    "walk_cpu_s 1.5 is more than 2 CPUs over attached_s 0.625");
	/* and programs that stayed attached, yet switched */
	refuse_with(text, "slice_chosen", "false, \"stays_attached\": true",
		    "stays_attached, yet switched or chose its slices");
	free(text);
	/* where the kernel cannot re-attach: no switch, no choice, read back */
	r.targets[0].duty.slice_chosen = false;
	r.targets[0].duty.stays_attached = true;
	r.targets[0].duty.switching_s = r.targets[0].duty.attach_ms = 0;
	r.targets[0].duty.detach_ms = r.targets[0].duty.switch_cpu_ms = 0;
	text = to_json(&r);
	assert_int_equal(runfile_parse(text, strlen(text), "x.json", &rf, err, sizeof(err)), 0);
	assert_true(rf.rep.targets[0].duty.stays_attached);
	runfile_free(&rf);
	free(text);
	r.targets[0].duty.stays_attached = false;
	r.targets[0].duty.slice_chosen = true;
	r.targets[0].duty.switching_s = 4.5;
	r.targets[0].duty.attach_ms = 16.5;
	r.targets[0].duty.detach_ms = 128.25;
	r.targets[0].duty.switch_cpu_ms = 61.5;
	text = to_json(&r);
	/* a switch of negative CPU is refused */
	refuse_with(text, "switch_cpu_ms", "-61.5", "switch_cpu_ms or walk_cpu_s out of range");
	free(text);
	r.targets[0].duty.slice_chosen = r.targets[0].duty.stays_attached = false;
	r.targets[0].duty.switch_cpu_ms = r.targets[0].duty.walk_cpu_s = 0;
	/* a file from before attach_ms, detach_ms and cpu_s reads them as none */
	r.cpu_s = 0;
	r.targets[0].duty.attach_ms = r.targets[0].duty.detach_ms = 0;
	text = to_json(&r);
	assert_null(strstr(text, "attach_ms"));
	assert_null(strstr(text, "cpu_s"));
	assert_int_equal(runfile_parse(text, strlen(text), "x.json", &rf, err, sizeof(err)), 0);
	assert_true(rf.rep.targets[0].duty.attach_ms == 0 && rf.rep.targets[0].duty.detach_ms == 0);
	assert_true(rf.rep.cpu_s == 0);
	runfile_free(&rf);
	free(text);
	r.cpu_s = 0.25;
	r.targets[0].duty.attach_ms = 16.5;
	r.targets[0].duty.detach_ms = 128.25;
	text = to_json(&r);
	/* a detach of negative time is refused */
	refuse_with(text, "detach_ms", "-128.25", "attach_ms or detach_ms out of range");
	/* a scale that is not duration over attached_s is refused, not believed */
	bad = strdup(text);
	{
		char *v = strstr(bad, "\"scale\"");

		assert_non_null(v);
		v += strcspn(v, "0123456789");
		assert_int_equal(*v, '1');
		*v = '9';   /* 16 -> 96 */
	}
	refuse(bad, "is not the duration");
	free(bad);
	free(text);

	/* two runs at the same duty cycle: times add, the scale follows */
	make_run(&b, 3, 0);
	b.duration_s = 30;
	b.cpu_s = 0.5;
	b.targets[0].duty = (struct duty_summary){ .one_in = 16, .slice_ms = 20, .slices = 94,
						   .attached_s = 1.875, .switching_s = 13.5,
						   .attach_ms = 16, .detach_ms = 130, .scale = 16 };
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), 0);
	assert_true(m.targets[0].duty.attached_s == 2.5);
	assert_true(m.targets[0].duty.switching_s == 18);
	assert_true(m.cpu_s == 0.75);   /* pftrace's CPU adds up over the runs */
	/* but not where a run did not record it: no total that leaves it out */
	b.cpu_s = 0;
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), 0);
	assert_true(m.cpu_s == 0);
	b.cpu_s = 0.5;
	/* a mean per edge without its count does not merge */
	assert_true(m.targets[0].duty.attach_ms == 0 && m.targets[0].duty.detach_ms == 0);
	assert_int_equal(m.targets[0].duty.slices, 125);
	assert_true(m.targets[0].duty.scale == 16);
	/* slices pftrace chose differ run by run and still add; the walks' cost
	 * adds where every run kept it */
	r.targets[0].duty.slice_chosen = b.targets[0].duty.slice_chosen = true;
	b.targets[0].duty.slice_ms = 430;
	r.targets[0].duty.walk_cpu_s = 0.25;
	b.targets[0].duty.walk_cpu_s = 0.5;
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), 0);
	assert_true(m.targets[0].duty.slice_chosen && m.targets[0].duty.slice_ms == 430);
	assert_true(m.targets[0].duty.walk_cpu_s == 0.75);
	r.targets[0].duty.walk_cpu_s = 0;
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), 0);
	assert_true(m.targets[0].duty.walk_cpu_s == 0);
	/* but a chosen slice and a fixed one are different duty cycles */
	r.targets[0].duty.slice_chosen = false;
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "merge wants the same duty cycle"));
	assert_non_null(strstr(err, "chosen by the costs"));
	/* and so are slices detached and slices that stayed attached */
	r.targets[0].duty.slice_chosen = true;
	r.targets[0].duty.stays_attached = true;
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "staying attached"));
	r.targets[0].duty.stays_attached = false;
	r.targets[0].duty.slice_chosen = false;
	r.targets[0].duty.slice_chosen = b.targets[0].duty.slice_chosen = false;
	/* and so are fixed slices of different lengths */
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "merge wants the same duty cycle"));
	b.targets[0].duty.slice_ms = 20;
	/* and different ones, or a duty cycle and none, do not add */
	b.targets[0].duty.one_in = 8;
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "merge wants the same duty cycle"));
	memset(&b.targets[0].duty, 0, sizeof(b.targets[0].duty));
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), -1);
}

static void test_refusals(void **state)
{
	refuse("", "is empty");
	refuse("{\"tool\": \"pftrace\", ", "not JSON");
	refuse("[1, 2, 3]", "not a pftrace run file");
	refuse("{\"tool\": \"bpftrace\"}", "not a pftrace run file");
	refuse("{\"tool\": \"pftrace\"}", "has no \"schema\"");
	refuse("{\"tool\": \"pftrace\", \"schema\": 99, \"targets\": []}", "schema 99");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1}", "no \"targets\" list");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"targets\": []}", "0 targets");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"targets\": [{}]}", "no \"traced\"");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"targets\": [{\"traced\": \"f\"}]}",
	       "has no \"lookups\"");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"targets\": [{\"traced\": \"f\", "
	       "\"lookups\": -1, \"hits\": 0, \"misses\": 0}]}", "negative");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"targets\": [{\"traced\": \"f\", "
	       "\"lookups\": \"many\", \"hits\": 0, \"misses\": 0}]}", "not an integer");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"targets\": [{\"traced\": \"f\", "
	       "\"lookups\": 3, \"hits\": 1, \"misses\": 1, \"self_check\": {\"disagree\": 0}}]}",
	       "hits 1 + misses 1 != lookups 3");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"targets\": [{\"traced\": \"f\", "
	       "\"lookups\": 2, \"hits\": 1, \"misses\": 1, \"self_check\": {\"disagree\": 0}, "
	       "\"chain_walked\": [{\"min\": 0, \"max\": 9, \"count\": 2}]}]}", "bucket 0..9");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"targets\": [{\"traced\": \"f\", "
	       "\"lookups\": 2, \"hits\": 1, \"misses\": 1, \"self_check\": {\"disagree\": 0}, "
	       "\"chain_walked\": {\"min\": 0}}]}", "not a list of buckets");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1} trailing", "not JSON");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"cpu_s\": -0.5, \"targets\": "
	       "[{\"traced\": \"f\", \"lookups\": 0, \"hits\": 0, \"misses\": 0}]}",
	       "cpu_s is out of range");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"filter\": [], \"targets\": []}",
	       "filter is not an object");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"filter\": {\"pid\": null}, \"targets\": []}",
	       "filter names no pid, cgroup or command");
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"filter\": {\"pid\": -4}, \"targets\": []}",
	       "filter names no pid, cgroup or command");
}

#define TARGET_HEAD "{\"tool\": \"pftrace\", \"schema\": 1, \"targets\": [{\"traced\": \"f\", "

/* counts that do not fit, or do not add up, are refused on read */
static void test_refusals_of_counts(void **state)
{
	refuse("{\"tool\": \"pftrace\", \"schema\": 0, \"targets\": []}", "schema 0 does not exist");
	/* 10^23 saturates in json-c: out of range, not a wrong sum */
	refuse(TARGET_HEAD "\"lookups\": 100000000000000000000000, \"hits\": 0, \"misses\": 0}]}",
	       "lookups is out of range");
	/* hits + misses past 2^63: on 64 bits it would wrap onto lookups soon after */
	refuse(TARGET_HEAD "\"lookups\": 2, \"hits\": 6000000000000000000, "
	       "\"misses\": 6000000000000000000, \"self_check\": {\"disagree\": 0}}]}",
	       "hits + misses overflows");
	/* a hit_position past chain_walked would print a negative miss count */
	refuse(TARGET_HEAD "\"lookups\": 2, \"hits\": 2, \"misses\": 0, \"self_check\": "
	       "{\"disagree\": 0}, \"chain_walked\": [{\"min\": 1, \"max\": 1, \"count\": 2}], "
	       "\"hit_position\": [{\"min\": 1, \"max\": 1, \"count\": 1000}]}]}",
	       "1000 hits at position 1 but only 2 walks");
	refuse(TARGET_HEAD "\"lookups\": 4, \"hits\": 0, \"misses\": 4, \"self_check\": "
	       "{\"disagree\": 0}, \"chain_walked\": [{\"min\": 1, \"max\": 1, \"count\": 2}, "
	       "{\"min\": 1, \"max\": 1, \"count\": 2}]}]}", "out of order or repeated");
	refuse(TARGET_HEAD "\"lookups\": 5, \"hits\": 0, \"misses\": 5, \"self_check\": "
	       "{\"disagree\": 0}, \"chain_walked\": [{\"min\": 1, \"max\": 1, \"count\": 2}]}]}",
	       "2 walks + 0 truncated + 0 read faults != 5 lookups");
	refuse(TARGET_HEAD "\"lookups\": 2, \"hits\": 1, \"misses\": 1, \"self_check\": "
	       "{\"disagree\": 0}, \"chain_walked\": [{\"min\": 0, \"max\": 0, \"count\": 2}], "
	       "\"hit_position\": [{\"min\": 0, \"max\": 0, \"count\": 1}]}]}",
	       "a walk of no node cannot hit");
}

/* a run file of one empty table of BUCKETS under HASH, with BITS unless it is negative */
static char *snapshot_run(unsigned long long buckets, const char *hash, int bits)
{
	char *text, bits_kv[32] = "";

	if (bits >= 0)
		snprintf(bits_kv, sizeof(bits_kv), "\"bits\": %d, ", bits);
	assert_true(asprintf(&text, TARGET_HEAD "\"lookups\": 0, \"hits\": 0, \"misses\": 0, "
			     "\"self_check\": {\"agree\": 0, \"disagree\": 0}, \"snapshot\": {\"entries\": 0, \"buckets\": %llu, \"buckets_used\": 0, "
			     "\"longest_chain\": 0, \"chain_lengths\": [{\"min\": 0, \"max\": 0, "
			     "\"count\": %llu}], \"hash\": \"%s\", %s\"keys\": {\"layout\": \"x\"}}}]}",
			     buckets, buckets, hash, bits_kv) > 0);
	return text;
}

static void read_snapshot_run(unsigned long long buckets, const char *hash, int bits)
{
	char *text = snapshot_run(buckets, hash, bits), err[512] = "";
	struct run_file rf;

	if (runfile_parse(text, strlen(text), "ok.json", &rf, err, sizeof(err)))
		fail_msg("%llu buckets under %s, bits %d: %s", buckets, hash, bits, err);
	assert_int_equal(rf.rep.targets[0].snapshot->shape.buckets, buckets);
	assert_int_equal(rf.rep.targets[0].snapshot->bits, bits < 0 ? 0 : bits);
	runfile_free(&rf);
	free(text);
}

static void refuse_snapshot_run(unsigned long long buckets, const char *hash, int bits,
				const char *why)
{
	char *text = snapshot_run(buckets, hash, bits);

	refuse(text, why);
	free(text);
}

/*
 * A snapshot's size: any count of buckets where the hash takes any
 * (conntrack's reciprocal_scale()), powers of two where it masks;
 * bits exactly where the count is a power of two, as every file
 * before conntrack's has it; 1 to 2^32 buckets.
 */
static void test_snapshot_sizes(void **state)
{
	read_snapshot_run(1536, "hash_conntrack", -1);
	read_snapshot_run(1024, "hash_conntrack", 10);
	read_snapshot_run(1024, "d_hash", 10);
	read_snapshot_run(1ULL << 32, "ehash", 32);
	read_snapshot_run(4294967295ULL, "hash_conntrack", -1);
	refuse_snapshot_run(1536, "hash_conntrack", 10, "1536 buckets with bits 10: a power of two has bits");
	refuse_snapshot_run(1024, "hash_conntrack", -1, "1024 buckets with bits absent");
	refuse_snapshot_run(1024, "d_hash", -1, "1024 buckets with bits absent");
	refuse_snapshot_run(1536, "d_hash", -1, "under d_hash, which takes powers of two only");
	refuse_snapshot_run(1024, "d_hash", 11, "1024 buckets with bits 11");
	refuse_snapshot_run(5, "hash_conntrack", 0, "5 buckets with bits 0:");
	refuse_snapshot_run(0, "hash_conntrack", -1, "0 buckets, not 1 to 2^32");
	refuse_snapshot_run((1ULL << 32) + 512, "hash_conntrack", -1, "not 1 to 2^32");
	refuse_snapshot_run(1ULL << 40, "ehash", 40, "not 1 to 2^32");
}

/* a text whose json-c tree would dwarf it is refused unparsed */
static void test_refuses_costly_trees(void **state)
{
	size_t n = 200000, i;
	char *text = malloc(n * 3 + 64);
	int len = sprintf(text, "{\"tool\": \"pftrace\", \"x\": [");

	for (i = 0; i < n; i++)
		len += sprintf(text + len, "{},");
	sprintf(text + len, "{}]}");
	refuse(text, "too many JSON values for its size");
	free(text);
}

/* found by the fuzzer: huge numbers must not be converted blindly */
static void test_huge_numbers_clamped(void **state)
{
	const char *text = "{\"tool\": \"pftrace\", \"schema\": 1, \"machine\": {\"cpus\": 1e30}, "
		"\"merged_runs\": -1e300, \"peak_rss_kb\": 1e300, \"workload\": {\"argv\": \"x\", "
		"\"exit_status\": 18446744073709551615}, \"targets\": [{\"traced\": \"f\", "
		"\"lookups\": 0, \"hits\": 0, \"misses\": 0, \"self_check\": {\"agree\": 0, \"disagree\": 0}}]}";
	struct run_file rf;
	char err[512] = "";

	if (runfile_parse(text, strlen(text), "big.json", &rf, err, sizeof(err)))
		fail_msg("refused: %s", err);
	assert_int_equal(rf.rep.cpus, INT_MAX);
	assert_int_equal(rf.rep.merged_runs, INT_MIN);
	runfile_free(&rf);
	/* 1e400 is no finite number: refused, not clamped */
	refuse("{\"tool\": \"pftrace\", \"schema\": 1, \"peak_rss_kb\": 1e400, \"targets\": []}",
	       "peak_rss_kb is not a finite number");
}

static void test_chi_square_p(void **state)
{
	/* textbook critical values */
	assert_true(fabs(chi_square_p(3.841, 1) - 0.05) < 1e-3);
	assert_true(fabs(chi_square_p(11.070, 5) - 0.05) < 1e-3);
	assert_true(fabs(chi_square_p(23.209, 10) - 0.01) < 1e-3);
	assert_true(fabs(chi_square_p(2.0, 2) - exp(-1.0)) < 1e-9);
	assert_true(chi_square_p(1e6, 3) < 1e-300);
	assert_true(chi_square_p(0, 4) == 1.0);
}

static void test_percentile(void **state)
{
	__u64 slots[PFT_HIST_SLOTS] = { 0 };

	assert_int_equal(hist_percentile(slots, PFT_HIST_SLOTS, 0.5), -1);
	slots[1] = 90;
	slots[7] = 10;
	assert_int_equal(hist_percentile(slots, PFT_HIST_SLOTS, 0.5), 1);
	assert_int_equal(hist_percentile(slots, PFT_HIST_SLOTS, 0.9), 1);
	assert_int_equal(hist_percentile(slots, PFT_HIST_SLOTS, 0.99), 7);
}

static char *capture_diff(const struct run_report *a, const struct run_report *b, int *significant)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	*significant = diff_runs(f, a, b, "a.json", "b.json");
	fclose(f);
	return text;
}

static void test_diff(void **state)
{
	struct run_report a, b;
	int significant;
	char *text;

	make_run(&a, 5, 0);
	make_run(&b, 5, 0);
	text = capture_diff(&a, &b, &significant);
	assert_int_equal(significant, 0);
	assert_non_null(strstr(text, "no significant difference"));
	free(text);
	/* the same shape at twice the size is the same distribution */
	make_run(&b, 10, 0);
	text = capture_diff(&a, &b, &significant);
	assert_int_equal(significant, 0);
	free(text);
	make_run(&b, 5, 1);
	text = capture_diff(&a, &b, &significant);
	assert_int_equal(significant, 1);
	assert_non_null(strstr(text, "differ significantly"));
	assert_non_null(strstr(text, "lookups/s"));
	free(text);
}

static void test_merge(void **state)
{
	struct run_report a, b, m;
	const struct run_report *runs[2] = { &a, &b };
	const char *names[2] = { "a.json", "b.json" };
	char err[512];
	int i;

	make_run(&a, 2, 0);
	make_run(&b, 7, 1);
	b.hostname = "box2";
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), 0);
	assert_int_equal(m.merged_runs, 2);
	assert_string_equal(m.hostname, "fleet");
	assert_true(m.duration_s == 20);
	assert_int_equal(m.targets[0].stats.lookups, a.targets[0].stats.lookups + b.targets[0].stats.lookups);
	assert_int_equal(m.targets[0].stats.hits, a.targets[0].stats.hits + b.targets[0].stats.hits);
	for (i = 0; i < PFT_HIST_SLOTS; i++)
		assert_int_equal(m.targets[0].stats.chain_walked_hist[i],
				 a.targets[0].stats.chain_walked_hist[i] + b.targets[0].stats.chain_walked_hist[i]);
	/* different targets do not add */
	b.targets[0].traced = "__d_lookup_rcu";
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "merge wants the same targets"));
	b.targets[0].traced = "avc_lookup";
	b.targets[0].sample_every = 16;
	assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sampled counts do not add"));
	/* one tenant's lookups and everyone's do not add, nor two tenants' */
	b.targets[0].sample_every = a.targets[0].sample_every;
	{
		struct run_filter fa = { .present = true, .cgroup = "/A" };
		struct run_filter fb = { .present = true, .cgroup = "/B" };

		a.filter = &fa;
		assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "b.json counted everyone's lookups, a.json the lookups of cgroup /A"));
		b.filter = &fb;
		assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "merge wants runs of the same tasks"));
		fb.cgroup = "/A";
		assert_int_equal(merge_runs(runs, 2, names, &m, err, sizeof(err)), 0);
		assert_string_equal(m.filter->cgroup, "/A");
	}
}

static void test_report_fits_72_columns(void **state)
{
	struct run_report r;
	char *text, *line, *save = NULL;

	make_run(&r, 4, 1);
	text = render_to_string(report_commit_text, &r);
	assert_non_null(strstr(text, "Nodes walked:   mean"));
	assert_non_null(strstr(text, "p99"));
	assert_non_null(strstr(text, "Measured by:    pftrace -f avc_lookup -d 10 -o run.json"));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strlen(line) > 72)
			fail_msg("longer than 72 columns: %s", line);
	free(text);
}

static void test_openmetrics(void **state)
{
	struct run_report r;
	char *text;

	make_run(&r, 1, 0);
	text = render_to_string(render_openmetrics, &r);
	assert_non_null(strstr(text, "# TYPE pftrace_chain_walked_nodes histogram\n"
				     "# UNIT pftrace_chain_walked_nodes nodes\n"));
	/* cumulative buckets: 50 at 0, 950 by 1, 1000 by 2 and +Inf */
	assert_non_null(strstr(text, "pftrace_chain_walked_nodes_bucket{traced=\"avc_lookup\",recipe=\"avc\","
			       "kernel=\"6.12.0-test\",host=\"box1\",le=\"1.0\"} 950\n"));
	assert_non_null(strstr(text, ",le=\"+Inf\"} 1000\n"));
	/* the same bounds whatever the run saw: 0, 1, 2, 4 ... 256 */
	assert_non_null(strstr(text, ",le=\"256.0\"} 1000\n"));
	assert_null(strstr(text, ",le=\"3.0\"}"));
	/* OpenMetrics names the counter family without _total */
	assert_non_null(strstr(text, "# TYPE pftrace_lookups counter\n# HELP pftrace_lookups "));
	assert_non_null(strstr(text, "pftrace_lookups_total{"));
	assert_int_equal(strcmp(text + strlen(text) - 6, "# EOF\n"), 0);
	free(text);
}

/* Prometheus 0.0.4: TYPE names the sample, no # EOF; sampled counts scaled; no empty host */
static void test_prometheus(void **state)
{
	struct run_report r;
	char *text;

	make_run(&r, 1, 0);
	r.hostname = "";
	r.targets[0].sample_every = 4;
	text = render_to_string(render_prometheus, &r);
	assert_non_null(strstr(text, "# TYPE pftrace_lookups_total counter\n# HELP pftrace_lookups_total "));
	assert_null(strstr(text, "# EOF"));
	assert_null(strstr(text, "# UNIT"));
	assert_null(strstr(text, "host="));
	assert_non_null(strstr(text, "pftrace_chain_walked_nodes_bucket{traced=\"avc_lookup\",recipe=\"avc\","
			       "kernel=\"6.12.0-test\",le=\"+Inf\"} 4000\n"));
	assert_non_null(strstr(text, "pftrace_sampled_one_in{traced=\"avc_lookup\",recipe=\"avc\","
			       "kernel=\"6.12.0-test\"} 4\n"));
	free(text);
}

/*
 * The fleet's families: drops by map, the snapshot beside ideal
 * hashing, whether the overhead was measured, and the build.
 */
static void test_fleet_families(void **state)
{
	/* 283 buckets used by 730 entries, chains of 1 to 6 */
	__u64 by_len[7] = { 229, 75, 70, 67, 50, 12, 9 };
	struct table_snapshot snap = { 0 };
	struct by_report by = { .key = "comm", .dropped = 7 };
	struct run_report r;
	char *text;

	make_run(&r, 1, 0);
	r.targets[0].stats.lost = 3;
	r.targets[0].by = &by;
	snap.shape.entries = 730;
	snap.shape.buckets = 512;
	snap.shape.used = 283;
	snap.shape.longest = 6;
	snap.shape.by_len = by_len;
	uniform_expectation(&snap.shape, &snap.uniform);
	snap.counted = true;
	snap.counts_dropped = 11;
	r.targets[0].snapshot = &snap;
	r.bpf_stats = "BPF statistics need CAP_SYS_ADMIN";
	text = render_to_string(render_prometheus, &r);
	assert_non_null(strstr(text, "pftrace_dropped_total{traced=\"avc_lookup\",recipe=\"avc\","
			       "kernel=\"6.12.0-test\",host=\"box1\",map=\"kprobe_entries\"} 3\n"));
	assert_non_null(strstr(text, ",map=\"by\"} 7\n"));
	assert_non_null(strstr(text, ",map=\"keys\"} 11\n"));
	assert_non_null(strstr(text, "pftrace_snapshot_buckets_used{traced=\"avc_lookup\",recipe=\"avc\","
			       "kernel=\"6.12.0-test\",host=\"box1\"} 283\n"));
	/* 512 (1 - (511/512)^730): 389 buckets; the lab's 6.19 AVC used 383 */
	assert_non_null(strstr(text, "pftrace_snapshot_buckets_used_uniform{traced=\"avc_lookup\","
			       "recipe=\"avc\",kernel=\"6.12.0-test\",host=\"box1\"} 389.127\n"));
	assert_non_null(strstr(text, "pftrace_overhead_measured{kernel=\"6.12.0-test\",host=\"box1\"} 0\n"));
	assert_null(strstr(text, "pftrace_bpf_run_seconds"));
	assert_non_null(strstr(text, "# TYPE pftrace_build_info gauge\n"));
	assert_non_null(strstr(text, "pftrace_build_info{version=\""));
	assert_non_null(strstr(text, "\",kernel=\"6.12.0-test\",host=\"box1\"} 1\n"));
	free(text);
	/* OpenMetrics: an info family, and run time in seconds where measured */
	r.bpf_stats = "";
	r.targets[0].overhead_known = true;
	r.targets[0].run_time_ns = 1500000000;
	text = render_to_string(render_openmetrics, &r);
	assert_non_null(strstr(text, "# TYPE pftrace_build info\n"));
	assert_non_null(strstr(text, "# TYPE pftrace_dropped counter\n"));
	assert_non_null(strstr(text, "# UNIT pftrace_bpf_run_seconds seconds\n"));
	assert_non_null(strstr(text, "pftrace_bpf_run_seconds_total{traced=\"avc_lookup\",recipe=\"avc\","
			       "kernel=\"6.12.0-test\",host=\"box1\"} 1.500000000\n"));
	assert_non_null(strstr(text, "pftrace_overhead_measured{kernel=\"6.12.0-test\",host=\"box1\"} 1\n"));
	free(text);
	/* a snapshot that traced nothing: its gauges only, nothing the exporter's file has */
	r.end_reason = "snapshot only";
	text = render_to_string(render_prometheus, &r);
	assert_non_null(strstr(text, "pftrace_snapshot_buckets_used{"));
	assert_null(strstr(text, "pftrace_lookups"));
	assert_null(strstr(text, "pftrace_build_info"));
	assert_null(strstr(text, "pftrace_duration_seconds"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refuses_unknown_loads),
		cmocka_unit_test(test_refuses_unknown_adds),
		cmocka_unit_test(test_filter_round_trip),
		cmocka_unit_test(test_snapshot_sizes),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_duty_cycle),
		cmocka_unit_test(test_refusals_of_counts),
		cmocka_unit_test(test_refuses_costly_trees),
		cmocka_unit_test(test_huge_numbers_clamped),
		cmocka_unit_test(test_chi_square_p),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_report_fits_72_columns),
		cmocka_unit_test(test_openmetrics),
		cmocka_unit_test(test_prometheus),
		cmocka_unit_test(test_fleet_families),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
