// SPDX-License-Identifier: GPL-2.0
/* The run file and the text report: keys, invariants, the self-check failure, atomic files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>
#include "cmocka_prelude.h"
#include "output.h"
#include "report.h"
#include "run_fixture.h"

static void make_report(struct run_report *r, bool agree)
{
	struct target_report *t = &r->targets[0];
	struct chain_stats *s = &t->stats;

	fixture_avc_run(r, "pftrace -f avc_has_perm_noaudit -d 10",
			"avc_has_perm_noaudit: notrace on this kernel; tracing avc_lookup, which does its chain walk");
	s->calls = s->lookups = 100;
	s->hits = 90;
	s->misses = 10;
	s->walk_hits = 90;
	s->walk_misses = 10;
	s->walk_empty = 4;
	s->next_null_at_hit = 85;
	s->nodes_walked = 90 + 6 * 2;
	s->chain_walked_hist[0] = 4;
	s->chain_walked_hist[1] = 90;
	s->chain_walked_hist[2] = 6;
	s->hit_pos_hist[1] = 90;
	s->self_agree = agree ? 100 : 3;
	s->self_disagree = agree ? 0 : 97;
	report_finish_target(t);
}

static struct json_object *get(struct json_object *o, const char *path)
{
	char buf[256], *key, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (key = strtok_r(buf, ".", &save); key && o; key = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, (size_t)atoi(key));
		else if (!json_object_object_get_ex(o, key, &o))
			return NULL;
	}
	return o;
}

static __u64 bucket_sum(struct json_object *arr)
{
	__u64 total = 0;
	size_t i;

	for (i = 0; i < json_object_array_length(arr); i++)
		total += json_object_get_uint64(get(json_object_array_get_idx(arr, i), "count"));
	return total;
}

static void test_json_keys_and_invariants(void **state)
{
	struct run_report r;
	struct json_object *root, *t;

	make_report(&r, true);
	root = render_json(&r);
	assert_string_equal(json_object_get_string(get(root, "tool")), "pftrace");
	assert_non_null(get(root, "version"));
	assert_string_equal(json_object_get_string(get(root, "kernel.release")), "6.12.0-test");
	assert_true(json_object_get_double(get(root, "duration_s")) == 10.0);
	assert_null(get(root, "error"));
	t = get(root, "targets.0");
	assert_string_equal(json_object_get_string(get(t, "requested")), "avc_has_perm_noaudit");
	assert_string_equal(json_object_get_string(get(t, "traced")), "avc_lookup");
	assert_string_equal(json_object_get_string(get(t, "method")), "fexit");
	assert_string_equal(json_object_get_string(get(t, "recipe")), "avc");
	assert_int_equal(json_object_get_uint64(get(t, "hits")) + json_object_get_uint64(get(t, "misses")),
			 json_object_get_uint64(get(t, "lookups")));
	assert_int_equal(bucket_sum(get(t, "chain_walked")), 100);
	assert_int_equal(bucket_sum(get(t, "hit_position")), 90);
	assert_int_equal(json_object_get_uint64(get(t, "next_null_at_hit")), 85);
	/* 102 nodes; NULL prefetched by 6 misses on non-empty buckets + 85 tail hits */
	assert_int_equal(json_object_get_uint64(get(t, "prefetch_model.issued")), 102);
	assert_int_equal(json_object_get_uint64(get(t, "prefetch_model.null")), 91);
	assert_int_equal(json_object_get_uint64(get(t, "prefetch_model.nonnull_only")), 11);
	assert_int_equal(json_object_get_uint64(get(t, "truncated")), 0);
	assert_int_equal(json_object_get_uint64(get(t, "self_check.agree")), 100);
	assert_int_equal(json_object_get_uint64(get(t, "self_check.disagree")), 0);
	assert_true(json_object_get_boolean(get(t, "self_check.ok")));
	json_object_put(root);
}

static void test_self_check_failure_withholds(void **state)
{
	struct run_report r;
	struct json_object *root, *t;
	struct json_object_iterator it;
	char *text;

	make_report(&r, false);
	assert_false(report_self_check_ok(&r));
	root = render_json(&r);
	it = json_object_iter_begin(root);
	assert_string_equal(json_object_iter_peek_name(&it), "error");
	t = get(root, "targets.0");
	assert_null(get(t, "chain_walked"));
	assert_null(get(t, "prefetch_model"));
	assert_false(json_object_get_boolean(get(t, "self_check.ok")));
	json_object_put(root);

	text = render_to_string(render_text, &r);
	assert_int_equal(strncmp(text, "pftrace: SELF-CHECK FAILED for avc_lookup", 41), 0);
	assert_null(strstr(text, "nodes walked per lookup"));
	free(text);
}

static void test_text_report(void **state)
{
	struct run_report r;
	char *text;

	make_report(&r, true);
	text = render_to_string(render_text, &r);
	assert_non_null(strstr(text, "lookups              100  10.0/s"));
	assert_non_null(strstr(text, "nodes walked per lookup: mean 1.02, max 2"));
	assert_non_null(strstr(text, "next == NULL at hit  85 of 90 hits (94.44%)"));
	assert_non_null(strstr(text, "prefetch(pos->next) per node           102 issued, 91 of NULL"));
	free(text);
}

static void test_sampled_run_is_marked(void **state)
{
	struct run_report r;
	struct json_object *root, *t;
	char *text;

	make_report(&r, true);
	r.targets[0].sample_every = 16;
	r.targets[0].stats.calls = 1600;   /* 100 of them walked */
	text = render_to_string(render_text, &r);
	assert_non_null(strstr(text, "SAMPLED: 1 call in 16 per CPU was walked"));
	free(text);
	root = render_json(&r);
	t = get(root, "targets.0");
	assert_int_equal(json_object_get_int(get(t, "sampled_1_in")), 16);
	assert_int_equal(json_object_get_uint64(get(t, "scaled.lookups")), 1600);
	/* 90 of 100 walked lookups hit: 1440 of 1600 scaled */
	assert_int_equal(json_object_get_uint64(get(t, "scaled.hits")), 1440);
	assert_int_equal(json_object_get_uint64(get(t, "scaled.misses")), 160);
	json_object_put(root);
	/* unsampled runs carry no scaled block */
	make_report(&r, true);
	root = render_json(&r);
	assert_null(get(root, "targets.0.scaled"));
	json_object_put(root);
}

static void test_overhead_figures(void **state)
{
	struct run_report r;
	struct json_object *root;

	make_report(&r, true);
	r.targets[0].overhead_known = true;
	r.targets[0].run_time_ns = 30000;   /* 100 calls, 10 s */
	r.targets[0].runs = 100;
	assert_true(overhead_ns_per_call(&r.targets[0]) == 300.0);
	assert_true(overhead_cpu_pct(&r.targets[0], 10.0) > 0.000299 &&
		    overhead_cpu_pct(&r.targets[0], 10.0) < 0.000301);
	root = render_json(&r);
	assert_true(json_object_get_double(get(root, "targets.0.overhead.ns_per_call")) == 300.0);
	json_object_put(root);
	/* unknown overhead is null, not zero */
	r.targets[0].overhead_known = false;
	root = render_json(&r);
	assert_true(json_object_object_get_ex(get(root, "targets.0"), "overhead", NULL));
	assert_null(get(root, "targets.0.overhead"));
	json_object_put(root);
}

static void test_atomic_write(void **state)
{
	char dir[] = "/tmp/pftrace-unit.XXXXXX", path[256], err[512], buf[64];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run.json", dir);
	assert_int_equal(write_file_atomic(path, "first\n", 6, err, sizeof(err)), 0);
	assert_int_equal(write_file_atomic(path, "second\n", 7, err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "second\n");
	unlink(path);
	/* nothing left behind on failure, and the reason names the file */
	snprintf(path, sizeof(path), "%s/missing/run.json", dir);
	assert_true(write_file_atomic(path, "x", 1, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, path));
	assert_int_equal(rmdir(dir), 0);   /* fails if a temporary file stayed */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_keys_and_invariants),
		cmocka_unit_test(test_self_check_failure_withholds),
		cmocka_unit_test(test_text_report),
		cmocka_unit_test(test_atomic_write),
		cmocka_unit_test(test_sampled_run_is_marked),
		cmocka_unit_test(test_overhead_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
