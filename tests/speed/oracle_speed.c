/* bench/oracle-speed (make bench): the oracle's speed as a fraction of the
 * bare single-step rate, both measured in the same boot on the same
 * benchmark, alternating, median of five.  Rates are reported, never
 * asserted: the machines are shared and noisy.  The aim is a ratio of at
 * least 0.7 (decoding and counting cost less than the trap itself). */
#include "../../harness/test.h"
#include "../../harness/need.h"
#include "../../bench/oracle.h"
#include "../../arch/x86/cpu.h"
#include "../../harness/clock.h"
#include "../../lib/stats.h"

#define ROUNDS 5
#define BENCH_NAME "nops"
#define BENCH_N 20000		/* 200,004 instructions per run */

static void test_speed(struct tcase *t)
{
	const struct bench *b = bench_find(BENCH_NAME);
	uint64_t bare_rate[ROUNDS], oracle_rate[ROUNDS], hz = harness_tsc_hz();
	uint64_t traps = 0, steps = 0, bare_med, oracle_med;
	struct oracle_counts oc;
	struct fault f;

	if (!check(t, b != NULL, "no %s benchmark", BENCH_NAME) ||
	    !need_bench_data(t, b) ||
	    !check(t, hz > 0, "TSC rate unknown"))
		return;
	for (unsigned r = 0; r < ROUNDS; r++) {
		uint64_t t0 = rdtsc(), t1, t2;

		traps = trace_bare(b->fn, BENCH_N, bench_data(b));
		t1 = rdtsc();
		if (!check(t, oracle_run(b, BENCH_N, 0, &oc, &f) == 0,
			   "oracle run faulted"))
			return;
		t2 = rdtsc();
		steps = oc.c[0][SEM_CLOCKS] + oc.outside;
		bare_rate[r] = traps * hz / (t1 - t0 ? t1 - t0 : 1);
		oracle_rate[r] = steps * hz / (t2 - t1 ? t2 - t1 : 1);
	}
	bare_med = stats_median(bare_rate, ROUNDS);
	oracle_med = stats_median(oracle_rate, ROUNDS);
	value(t, "benchmark", "%s n=%u", BENCH_NAME, BENCH_N);
	value(t, "tsc_hz", "%llu", (unsigned long long)hz);
	value(t, "bare_traps_per_run", "%llu", (unsigned long long)traps);
	value(t, "oracle_steps_per_run", "%llu", (unsigned long long)steps);
	value(t, "bare_single_step_per_s", "%llu",
	      (unsigned long long)bare_med);
	value(t, "oracle_instructions_per_s", "%llu",
	      (unsigned long long)oracle_med);
	value(t, "ratio", "%llu.%03llu", (unsigned long long)(oracle_med /
	      (bare_med ? bare_med : 1)), (unsigned long long)(oracle_med *
	      1000 / (bare_med ? bare_med : 1) % 1000));
	/* Sanity, not speed: both loops trapped on the same instructions. */
	check(t, traps == steps, "bare loop trapped %llu times, oracle %llu",
	      (unsigned long long)traps, (unsigned long long)steps);
	check(t, oc.c[0][SEM_INSTRUCTIONS] == (uint64_t)b->expect(
	      SEM_INSTRUCTIONS, BENCH_N), "oracle count off the formula");
}

TEST(bench_speed, "bench/oracle-speed",
     "oracle instructions/s against bare single-step traps/s, same boot",
     test_speed, TEST_MANUAL);
