// SPDX-License-Identifier: GPL-2.0
/* Histogram rendering: the libbpf-tools layout, linear then log2, and JSON buckets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "cmocka_prelude.h"
#include "aggregate.h"
#include "hist.h"

static char *render(const __u64 *slots, int first)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	hist_print(f, slots, PFT_HIST_SLOTS, first, "nodes");
	fclose(f);
	return buf;
}

static void test_linear(void **state)
{
	__u64 slots[PFT_HIST_SLOTS] = { 0 };
	char *out;

	slots[0] = 10;
	slots[1] = 40;
	slots[3] = 20;
	out = render(slots, 0);
	/* full bar for the largest, half for half, and the empty slot shown */
	assert_non_null(strstr(out, "              1 : 40         |****************************************|\n"));
	assert_non_null(strstr(out, "              3 : 20         |********************                    |\n"));
	assert_non_null(strstr(out, "              2 : 0          |                                        |\n"));
	assert_null(strstr(out, "     4 :"));
	free(out);
}

static void test_log2_past_32(void **state)
{
	__u64 slots[PFT_HIST_SLOTS] = { 0 };
	char *out;

	slots[1] = 1;
	slots[5] = 2;
	slots[6] = 3;
	slots[100] = 4;
	out = render(slots, 1);
	assert_non_null(strstr(out, "4 -> 7          : 5 "));
	assert_non_null(strstr(out, "64 -> 127        : 4 "));
	assert_non_null(strstr(out, "1 -> 1          : 1 "));
	free(out);
}

static void test_empty(void **state)
{
	__u64 slots[PFT_HIST_SLOTS] = { 0 };
	char *out = render(slots, 1);

	assert_string_equal(out, "     (none)\n");
	free(out);
}

static void test_json_buckets(void **state)
{
	__u64 slots[PFT_HIST_SLOTS] = { 0 };
	struct json_object *arr, *b, *v;
	__u64 total = 0;
	size_t i;

	slots[0] = 3;
	slots[7] = 9;
	slots[PFT_MAX_WALK] = 1;
	arr = hist_json(slots, PFT_HIST_SLOTS);
	assert_int_equal(json_object_array_length(arr), 3);
	for (i = 0; i < json_object_array_length(arr); i++) {
		b = json_object_array_get_idx(arr, i);
		assert_true(json_object_object_get_ex(b, "count", &v));
		total += json_object_get_uint64(v);
	}
	assert_int_equal(total, 13);
	b = json_object_array_get_idx(arr, 1);
	json_object_object_get_ex(b, "min", &v);
	assert_int_equal(json_object_get_int(v), 7);
	json_object_object_get_ex(b, "max", &v);
	assert_int_equal(json_object_get_int(v), 7);
	json_object_put(arr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_log2_past_32),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_json_buckets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
