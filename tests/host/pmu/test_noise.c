/* Host tests for pmu/noise.c, the emulated PMU's documented noise
 * (pmu/noise.h): off until armed, held during a prediction, and a PMI
 * skid from a fixed sequence: every value below NOISE_SKID_MAX, the same
 * sequence after every arm (a run is reproducible), and not one value
 * only (the tests' skid allowance is exercised). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pmu/noise.h"

/* host-sources: pmu/noise.c */

#define DRAWS 64

static void test_arm_and_hold(void **state)
{
	(void)state;
	noise_arm(0);
	assert_false(noise_on());
	noise_arm(1);
	assert_true(noise_on());
	noise_hold(1);
	assert_false(noise_on());
	noise_hold(0);
	assert_true(noise_on());
	noise_arm(0);
	assert_false(noise_on());
}

static void test_skid_sequence(void **state)
{
	unsigned first[DRAWS], seen = 0;

	(void)state;
	noise_arm(1);
	for (unsigned i = 0; i < DRAWS; i++) {
		first[i] = noise_pmi_skid();
		assert_true(first[i] < NOISE_SKID_MAX);
		seen |= 1u << first[i];
	}
	/* more than one value */
	assert_true(seen & (seen - 1));
	noise_arm(1);
	for (unsigned i = 0; i < DRAWS; i++)
		assert_int_equal(noise_pmi_skid(), first[i]);
	noise_arm(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm_and_hold),
		cmocka_unit_test(test_skid_sequence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
