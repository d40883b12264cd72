/* Host tests for boot/logflush.c: the log file's flush rate.  The rule
 * (issue 30 section 5; docs/reliability.md "How often the file is
 * flushed"): flush at most a few times a second of run time - here once
 * per 250 ms, or once per the last flush's own duration when that is
 * longer, so flushing takes at most half the run (a slow medium at most
 * doubles it) - and at once when urgent (a failure, a risky test next).
 * The TSC rate is 1 MHz throughout: 250 ms is 250000 ticks
 * (hand-computed). */
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
	logflush_done(&f, 4000, 5000);		/* a 1 ms flush */
	assert_false(logflush_due(&f, 5000 + 249999, 0));
	assert_true(logflush_due(&f, 5000 + 250000, 0));
	assert_true(logflush_due(&f, 5000 + 1, 1));	/* urgent: at once */
}

static void test_no_clock_or_tsc_back(void **state)
{
	struct logflush f;

	logflush_init(&f, 0);		/* no TSC rate: every flush at once */
	logflush_done(&f, 90, 100);
	assert_true(logflush_due(&f, 101, 0));
	logflush_init(&f, HZ);
	logflush_done(&f, 900000, 1000000);
	assert_true(logflush_due(&f, 10, 0));	/* TSC went back */
}

/* A flush that took 400 ms (a slow medium) ended at 401000: the next
 * waits 400 ms, not 250, after its end: due at 801000, not at 651000. */
static void test_slow_flush_waits_as_long(void **state)
{
	struct logflush f;

	logflush_init(&f, HZ);
	logflush_done(&f, 1000, 401000);
	assert_false(logflush_due(&f, 651000, 0));
	assert_false(logflush_due(&f, 800999, 0));
	assert_true(logflush_due(&f, 801000, 0));
	assert_true(logflush_due(&f, 401001, 1));	/* urgent: at once */
}

/* A run of 2000 ms of tests (1 ms each, asked after each) on a medium
 * where a flush takes 300 ms.  By hand: the first flush after test 1
 * (no flush yet) ends at 301 ms; each next one is due 300 ms after the
 * last ended, i.e. after 300 more tests: at 601, 1201, ... of the run's
 * clock, 1 + 300 k tests done.  1999 / 300 = 6 more (1801 tests), 199
 * tests after the last: 7 flushes, 2100 ms of flushing, a run of 4100 ms
 * - at most twice the tests' time plus one flush. */
static void test_slow_medium_at_most_doubles(void **state)
{
	struct logflush f;
	uint64_t now = 0, flushing = 0;
	unsigned flushes = 0;

	logflush_init(&f, HZ);
	for (unsigned test = 0; test < 2000; test++) {
		now += MS;			/* the test */
		if (logflush_due(&f, now, 0)) {
			logflush_done(&f, now, now + 300 * MS);
			now += 300 * MS;
			flushing += 300 * MS;
			flushes++;
		}
	}
	assert_int_equal(flushes, 7);
	assert_int_equal(flushing, 2100 * MS);
	assert_int_equal(now, 4100 * MS);
}

/* A run of 1000 passing tests of 1 ms each, the runner asking after each
 * (not urgent), flushes taking no time: flushes at 1, 251, 501, 751 ms
 * (each the first request at least 250 ms after the last), and the run's
 * end flushes the rest: 4 rate-limited flushes where the old rule made
 * 1000; no result waits more than 250 ms of run time for its flush. */
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
			logflush_done(&f, now, now);	/* instant flushes */
			if (now - unflushed_since > worst)
				worst = now - unflushed_since;
			pending = 0;
		}
	}
	assert_int_equal(flushes, 4);
	assert_true(worst <= 250 * MS);
	assert_true(pending);	/* 752..1000 ms: the end's urgent flush */
}

/* The tally the log's "# log-file:" line reports (hand-computed): three
 * flushes, 100..300 (urgent), 600..650, 900..1300 ticks. */
static void test_tally(void **state)
{
	struct logflush_tally t = { 0 };

	logflush_tally_add(&t, 100, 300, 1);
	logflush_tally_add(&t, 600, 650, 0);
	logflush_tally_add(&t, 900, 1300, 0);
	assert_int_equal(t.urgent, 1);
	assert_int_equal(t.interval, 2);
	assert_int_equal(t.first_start, 100);
	assert_int_equal(t.last_end, 1300);
	assert_int_equal(t.busy, 200 + 50 + 400);
	assert_int_equal(t.longest, 400);
	logflush_tally_add(&t, 2000, 1990, 0);	/* a TSC that went back */
	assert_int_equal(t.busy, 650);
	assert_int_equal(t.interval, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_no_clock_or_tsc_back),
		cmocka_unit_test(test_run_of_short_tests),
		cmocka_unit_test(test_slow_flush_waits_as_long),
		cmocka_unit_test(test_slow_medium_at_most_doubles),
		cmocka_unit_test(test_tally),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
