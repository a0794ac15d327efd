// SPDX-License-Identifier: GPL-2.0
/* "Did you mean": the closest known name, only when it is a plausible typo. */
#include "cmocka_prelude.h"
#include "suggest.h"

static void test_edit_distance(void **state)
{
	assert_int_equal(edit_distance("avc_lookup", "avc_lookup"), 0);
	assert_int_equal(edit_distance("avc_lokup", "avc_lookup"), 1);   /* a dropped letter */
	assert_int_equal(edit_distance("avc_loookup", "avc_lookup"), 1); /* one too many */
	assert_int_equal(edit_distance("acv_lookup", "avc_lookup"), 1);  /* two swapped */
	assert_int_equal(edit_distance("", "abc"), 3);
	assert_int_equal(edit_distance("kitten", "sitting"), 3);
}

static void test_suggest(void **state)
{
	const char *funcs[] = { "avc_lookup", "avc_has_perm_noaudit", "__d_lookup_rcu", "__lookup_mnt" };
	const char *cmds[] = { "features", "list", "report", "diff", "merge", "whatif" };

	assert_string_equal(suggest_name("avc_lokup", funcs, 4), "avc_lookup");
	assert_string_equal(suggest_name("__d_lookup_rc", funcs, 4), "__d_lookup_rcu");
	assert_string_equal(suggest_name("raport", cmds, 6), "report");
	assert_string_equal(suggest_name("whatfi", cmds, 6), "whatif");
	/* too far from everything: no guess */
	assert_null(suggest_name("kmalloc", funcs, 4));
	assert_null(suggest_name("xyz", cmds, 6));
	assert_null(suggest_name("dif", (const char *const[]){ "list" }, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_suggest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
