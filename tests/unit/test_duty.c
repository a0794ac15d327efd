// SPDX-License-Identifier: GPL-2.0
/*
 * --sample's slices (model/duty.c): without --slice, long enough that a
 * slice's walks cost twice the switch after it, within bounds; and the
 * next one's start, one slice in N however the lengths change.
 * The figures are the lab's: a switch of both benchmark targets cost
 * 56 guest-ms, their walks a quarter of a CPU.
 */
#include <math.h>
#include "cmocka_prelude.h"
#include "duty.h"

#define MIN_S 0.020
#define MAX_S 2.0

static void test_lengthens_to_twice_the_switch(void **state)
{
	/* 0.26 s of BPF run time over 1 s walked: a 56 ms switch wants 431 ms */
	double s = duty_next_slice_s(0.056, 0.26, 1.0, MIN_S, MAX_S);

	assert_true(fabs(s - 2 * 0.056 / 0.26) < 1e-9);
	/* the walks at that length cost twice the switch */
	assert_true(fabs(s * 0.26 - 2 * 0.056) < 1e-9);
	/* the rate, not the totals: the same over a tenth of the time */
	assert_true(fabs(duty_next_slice_s(0.056, 0.026, 0.1, MIN_S, MAX_S) - s) < 1e-9);
}

static void test_bounds(void **state)
{
	/* a cheap switch (hardware) beside busy walks: the shortest slice */
	assert_true(duty_next_slice_s(0.001, 0.5, 1.0, MIN_S, MAX_S) == MIN_S);
	/* a no-op make: walks of 1% of a CPU against a 56 ms switch */
	assert_true(duty_next_slice_s(0.056, 0.01, 1.0, MIN_S, MAX_S) == MAX_S);
	/* nothing walked, or nothing attached yet: switching is all cost */
	assert_true(duty_next_slice_s(0.056, 0, 1.0, MIN_S, MAX_S) == MAX_S);
	assert_true(duty_next_slice_s(0.056, 0.1, 0, MIN_S, MAX_S) == MAX_S);
	/* a switch that costs nothing (a pause, before 5.19): the shortest,
	 * whatever the walks, even none yet */
	assert_true(duty_next_slice_s(0, 0.26, 1.0, MIN_S, MAX_S) == MIN_S);
	assert_true(duty_next_slice_s(0, 0, 0.02, MIN_S, MAX_S) == MIN_S);
	/* nonsense in, a bound out: never NaN, never below the shortest */
	assert_true(duty_next_slice_s(NAN, 0.1, 1.0, MIN_S, MAX_S) == MAX_S);
	assert_true(duty_next_slice_s(0.056, NAN, 1.0, MIN_S, MAX_S) == MAX_S);
	assert_true(duty_next_slice_s(INFINITY, 0.1, 1.0, MIN_S, MAX_S) == MAX_S);
	assert_true(duty_next_slice_s(-1, 0.1, 1.0, MIN_S, MAX_S) == MIN_S);
	assert_true(duty_next_slice_s(0.056, 1e-300, 1e300, MIN_S, MAX_S) == MAX_S);
}

static void test_next_attach(void **state)
{
	/* fixed slices of 20 ms, 1 in 16: attaches 320 ms apart, the attach's
	 * own time inside the period */
	assert_true(fabs(duty_next_attach(10.0, 0.02, 0.02, 16, 10.1) - 10.32) < 1e-9);
	/* lengthening, 20 ms then 1 s: the 1 s slice waits 15 s, one in 16 */
	assert_true(fabs(duty_next_attach(10.0, 0.02, 1.0, 16, 10.1) - 25.02) < 1e-9);
	/* shortening, 1 s then 0.1 s: 15 s still follow the long one, not 1.5
	 * (40% walked in that period, against 6.25%) */
	assert_true(fabs(duty_next_attach(10.0, 1.0, 0.1, 16, 11.2) - 26.0) < 1e-9);
	/* a stall past the edge skips whole periods of the next slice's */
	assert_true(fabs(duty_next_attach(10.0, 0.02, 0.02, 16, 10.33) - 10.64) < 1e-9);
	assert_true(duty_next_attach(10.0, 0.02, 0.02, 16, 10.33) >= 10.33);
	/* nonsense in: now, never a NaN or a loop without end */
	assert_true(duty_next_attach(10.0, 0.02, 0, 16, 10.5) == 10.5);
	assert_true(duty_next_attach(10.0, NAN, 0.02, 16, 10.5) == 10.5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengthens_to_twice_the_switch),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_next_attach),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
