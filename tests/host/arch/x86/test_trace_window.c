/* Host tests for arch/x86/trace_window_tally.h: how backend=emulated's
 * counting window sorts the instructions it traced (docs/emulators.md).
 * Each case is a hand-written run, the order of events as the emulated
 * backend makes them for pmu_run: the enabling WRMSRs (each noted, then
 * its own step retired into the window), the driver's code, ring3_run's
 * IRET, the ring-3 trampoline's CALL (arch/x86/<mode>/ring3_entry.S),
 * the benchmark, the trampoline's INT, the driver's code and the
 * disabling WRMSRs; the expected counts are counted off the list by
 * hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "arch/x86/trace_window_tally.h"

/* host-sources: */

#define BENCH 0x1000u		/* the benchmark: [0x1000, 0x1010) */
#define BENCH_END 0x1010u
#define DRIVER 0x500u		/* any address outside it */
#define TRAMPOLINE 0x2000u

static void steps(struct trace_window_tally *w, uint64_t rip, unsigned cpl,
		  unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		tally_step(w, rip + 4 * i, cpl, 1);
}

/* Two counters, a CPL 3 benchmark of 4 instructions. */
static void test_cpl3_run(void **state)
{
	struct trace_window_tally w;

	(void)state;
	tally_range(&w, BENCH, BENCH_END);
	tally_wrmsr(&w);			/* enables counter 0 */
	steps(&w, DRIVER, 0, 1);		/* that WRMSR's step */
	steps(&w, DRIVER + 0x10, 0, 2);		/* driver code */
	tally_wrmsr(&w);			/* enables counter 1 */
	steps(&w, DRIVER + 0x20, 0, 1);		/* its step */
	steps(&w, DRIVER + 0x30, 0, 2);		/* return path, IRET */
	steps(&w, TRAMPOLINE, 3, 1);		/* CALL */
	steps(&w, BENCH, 3, 4);
	steps(&w, TRAMPOLINE + 2, 3, 1);	/* INT */
	steps(&w, DRIVER + 0x40, 0, 3);		/* back to the driver */
	tally_wrmsr(&w);			/* disables counter 0 */
	steps(&w, DRIVER + 0x50, 0, 1);		/* its step */
	steps(&w, DRIVER + 0x60, 0, 2);
	tally_wrmsr(&w);			/* disables counter 1 */

	assert_int_equal(w.n.inside[3], 4);
	assert_int_equal(w.n.inside[0], 0);
	/* before: 1 + 2 + 1 + 2 at CPL 0, the CALL at CPL 3 */
	assert_int_equal(w.n.before[0], 6);
	assert_int_equal(w.n.before[3], 1);
	/* after: 3 + 1 + 2 at CPL 0, the INT at CPL 3 */
	assert_int_equal(w.n.after[0], 6);
	assert_int_equal(w.n.after[3], 1);
	/* near: from the last enabling WRMSR (its step, 2 more) ... */
	assert_int_equal(w.n.near_before[0], 3);
	assert_int_equal(w.n.near_before[3], 1);
	/* ... up to the first disabling one */
	assert_int_equal(w.n.near_after[0], 3);
	assert_int_equal(w.n.near_after[3], 1);
}

/* REP iterations that are not the last retire nothing; a step out of the
 * benchmark after its first (a call out) counts as after. */
static void test_rep_and_calls_out(void **state)
{
	struct trace_window_tally w;

	(void)state;
	tally_range(&w, BENCH, BENCH_END);
	tally_wrmsr(&w);
	tally_step(&w, BENCH, 0, 1);
	tally_step(&w, BENCH + 4, 0, 0);	/* REP MOVSB, iteration 1 */
	tally_step(&w, BENCH + 4, 0, 0);	/* iteration 2 */
	tally_step(&w, BENCH + 4, 0, 1);	/* the last: retires */
	tally_step(&w, DRIVER, 0, 1);		/* a call out ... */
	tally_step(&w, BENCH + 8, 0, 1);	/* ... and back */
	tally_step(&w, DRIVER + 4, 0, 1);
	assert_int_equal(w.n.inside[0], 3);
	assert_int_equal(w.n.before[0], 0);
	assert_int_equal(w.n.after[0], 2);
	assert_int_equal(w.n.near_after[0], 2);
}

/* A new range starts from 0. */
static void test_range_resets(void **state)
{
	struct trace_window_tally w;

	(void)state;
	tally_range(&w, BENCH, BENCH_END);
	steps(&w, DRIVER, 0, 5);
	steps(&w, BENCH, 3, 2);
	tally_wrmsr(&w);
	tally_range(&w, BENCH, BENCH_END);
	assert_int_equal(w.n.before[0] + w.n.inside[3] + w.n.near_before[0],
			 0);
	steps(&w, DRIVER, 0, 1);
	assert_int_equal(w.n.near_before[0], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpl3_run),
		cmocka_unit_test(test_rep_and_calls_out),
		cmocka_unit_test(test_range_resets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
