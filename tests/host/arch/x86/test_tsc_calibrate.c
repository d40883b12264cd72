/* Host tests for arch/x86/tsc_calibrate.c: the TSC's rate measured
 * against a counter of known rate is right however long the machine is
 * held back (issue 46: a 50 ms Stall() on a loaded host measured a rate
 * 4.3 times too high).  A simulated clock in nanoseconds drives both: the
 * TSC at 2.5 GHz, the counter at the ACPI PM timer's 3.579545 MHz (ACPI
 * 6.3 §4.8.3.3), 24 bits wide; every read takes 1 us, and a "hold" adds
 * time at a chosen read, as a host that deschedules the machine does. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "arch/x86/tsc_calibrate.h"

/* host-sources: arch/x86/tsc_calibrate.c */

#define TSC_HZ 2500000000ull
#define PM_HZ 3579545ull		/* ACPI 6.3 §4.8.3.3 */
#define READ_NS 1000ull

struct sim {
	uint64_t ns;
	unsigned reads;			/* every read, TSC or counter */
	unsigned hold_at;		/* before this read (0: never) ... */
	uint64_t hold_ns;		/* ... the machine is held this long */
	unsigned hold_at2;
	uint64_t hold2_ns;
	int stuck;			/* the counter never moves */
};

static void tick(struct sim *s)
{
	s->reads++;
	if (s->reads == s->hold_at)
		s->ns += s->hold_ns;
	if (s->reads == s->hold_at2)
		s->ns += s->hold2_ns;
	s->ns += READ_NS;
}

static uint64_t sim_tsc(void *ctx)
{
	struct sim *s = ctx;

	tick(s);
	return s->ns * (TSC_HZ / 1000000000ull) +
	       s->ns * (TSC_HZ % 1000000000ull) / 1000000000ull;
}

static uint32_t sim_counter(void *ctx)
{
	struct sim *s = ctx;

	tick(s);
	return s->stuck ? 7 : (uint32_t)(s->ns * PM_HZ / 1000000000ull);
}

static uint64_t measure(struct sim *s)
{
	struct tsc_ref r = {
		.read = sim_counter, .tsc = sim_tsc, .ctx = s,
		.mask = 0xffffff, .hz = PM_HZ,
	};

	return tsc_hz_against(&r, (uint32_t)(PM_HZ / 20), 100000);
}

/* Within 0.05 %: one PM tick (279 ns) and one read (1 us) at each end
 * of a 50 ms span. */
static void assert_rate(uint64_t hz)
{
	assert_in_range(hz, TSC_HZ - TSC_HZ / 2000, TSC_HZ + TSC_HZ / 2000);
}

static void test_quiet(void **state)
{
	struct sim s = { .ns = 123456789 };

	assert_rate(measure(&s));
}

/* Held back 150 ms in the middle of the wait, or just after the counter
 * passed the span (where a Stall() would count it): the rate holds. */
static void test_held_in_the_wait(void **state)
{
	struct sim mid = { .ns = 1, .hold_at = 2000, .hold_ns = 150000000 };
	struct sim end = { .ns = 1, .hold_at = 16 + 49000,
			   .hold_ns = 150000000 };

	assert_rate(measure(&mid));
	assert_rate(measure(&end));
}

/* Held back 20 ms inside a pair, between the TSC read and the counter's,
 * at the first pair of the start and the last pair of the end: the
 * tightest pair of each end counts, so the rate holds. */
static void test_held_inside_a_pair(void **state)
{
	struct sim s = { .ns = 1, .hold_at = 2, .hold_ns = 20000000 };

	assert_rate(measure(&s));
	s = (struct sim){ .ns = 1, .hold_at = 3, .hold_ns = 20000000,
			  .hold_at2 = 25, .hold2_ns = 20000000 };
	assert_rate(measure(&s));
}

/* Held back 4.68 s among the end's pairs: the 24-bit counter (4.69 s
 * range) wrapped to fewer ticks than the span, so the measurement is
 * taken again.  (A hold of a whole range and a span more looks like a
 * short one: no counter of that width can tell; tsc_calibrate.h.) */
static void test_wrap_retried(void **state)
{
	struct sim s = { .ns = 1, .hold_at = 50040, .hold_ns = 4680000000ull };

	assert_rate(measure(&s));
}

static void test_stuck_counter(void **state)
{
	struct sim s = { .ns = 1, .stuck = 1 };

	assert_int_equal(measure(&s), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_held_in_the_wait),
		cmocka_unit_test(test_held_inside_a_pair),
		cmocka_unit_test(test_wrap_retried),
		cmocka_unit_test(test_stuck_counter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
