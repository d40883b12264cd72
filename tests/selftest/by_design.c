/* selftest group: tests that prove the harness reports failures.  They are
 * manual (run only when tests= names the selftest group): make check runs them and
 * expects the run to fail with these values on the log. */
#include "../../harness/test.h"

static void test_fails(struct tcase *t)
{
	unsigned measured = 1, expected = 2;

	value(t, "measured", "%u", measured);
	value(t, "expected", "%u", expected);
	check(t, measured == expected, "by design: measured %u, expected %u",
	      measured, expected);
}

TEST(selftest_fails, "selftest/fails-by-design",
     "a check that fails by design", test_fails, TEST_MANUAL);

static void test_unexpected_ud(struct tcase *t)
{
	value(t, "about_to", "execute ud2");
	__asm__ volatile("ud2");
	check(t, 0, "execution continued past ud2");
}

TEST(selftest_ud, "selftest/unexpected-ud",
     "an unexpected #UD inside a test fails that test only",
     test_unexpected_ud, TEST_MANUAL);

static void test_passes(struct tcase *t)
{
	check(t, 1 + 1 == 2, "arithmetic");
}

TEST(selftest_passes, "selftest/passes-after-failures",
     "the suite goes on after failures", test_passes, TEST_MANUAL);

static void test_nothing(struct tcase *t)
{
	value(t, "note", "this test checks nothing on purpose");
}

TEST(selftest_no_check, "selftest/checks-nothing",
     "a test that checks nothing is reported as failed", test_nothing,
     TEST_MANUAL);

/* Executed by the runner after the result below is written, outside any
 * catch frame: an exception outside a test ends the run with Bail out!
 * (verdict 2); make check's bail-out boot expects exactly that. */
static void ud_outside_test(void)
{
	__asm__ volatile("ud2");
}

static void test_bail_out(struct tcase *t)
{
	after_test(t, ud_outside_test);
	check(t, 1, "the fault comes after this result");
}

TEST(selftest_bail, "selftest-bail/fault-outside-test",
     "an exception outside any test ends the run with Bail out!",
     test_bail_out, TEST_MANUAL | TEST_RISKY);
