/* Host tests for boot/logflush.c: the log file's flush rate.  The rule
 * (issue 30 section 5; docs/reliability.md "The log file"): flush at most
 * a few times a second of run time - here once per 250 ms - and at once
 * when urgent (a failure, a risky test next), so a cut loses at most
 * 250 ms of run time's results before the test in flight.  The TSC rate
 * is 1 MHz throughout, so 250 ms is 250000 ticks (hand-computed). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "boot/logflush.h"

/* host-sources: boot/logflush.c */

#define HZ 1000000ull		/* 1 tick = 1 us */
#define MS 1000ull		/* ticks per millisecond at HZ */

static void test_interval(void **state)
{
	struct logflush f;

	logflush_init(&f, HZ);
	assert_true(logflush_due(&f, 5000, 0));	/* the first: at once */
	logflush_done(&f, 5000);
	assert_false(logflush_due(&f, 5000 + 249999, 0));
	assert_true(logflush_due(&f, 5000 + 250000, 0));
	assert_true(logflush_due(&f, 5000 + 1, 1));	/* urgent: at once */
}

static void test_no_clock_or_tsc_back(void **state)
{
	struct logflush f;

	logflush_init(&f, 0);		/* no TSC rate: every flush at once */
	logflush_done(&f, 100);
	assert_true(logflush_due(&f, 101, 0));
	logflush_init(&f, HZ);
	logflush_done(&f, 1000000);
	assert_true(logflush_due(&f, 10, 0));	/* TSC went back */
}

/* A run of 1000 passing tests of 1 ms each, the runner asking after each
 * (not urgent): flushes at 1, 251, 501, 751 ms (each the first request at
 * least 250 ms after the last), and the run's end flushes the rest: 4
 * rate-limited flushes where the old rule made 1000; no result waits more
 * than 250 ms of run time for its flush. */
static void test_run_of_short_tests(void **state)
{
	struct logflush f;
	unsigned flushes = 0;
	uint64_t unflushed_since = 0, worst = 0;
	int pending = 0;

	logflush_init(&f, HZ);
	for (uint64_t t = 1; t <= 1000; t++) {
		uint64_t now = t * MS;

		if (!pending)
			unflushed_since = now;
		pending = 1;
		if (logflush_due(&f, now, 0)) {
			flushes++;
			logflush_done(&f, now);
			if (now - unflushed_since > worst)
				worst = now - unflushed_since;
			pending = 0;
		}
	}
	assert_int_equal(flushes, 4);
	assert_true(worst <= 250 * MS);
	assert_true(pending);	/* 752..1000 ms: the end's urgent flush */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_no_clock_or_tsc_back),
		cmocka_unit_test(test_run_of_short_tests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
