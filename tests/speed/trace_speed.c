/* bench/trace-speed (make bench): the full tracer's speed (trace_run, one
 * sink call per step, the path a PMU model takes) and the model backend's
 * (the P5 reference model fed every step, whatever this CPU is) as
 * fractions of the bare single-step rate (trace/bare, model/bare), measured as bench/oracle-speed measures the aggregated
 * oracle: same boot, alternating, median of five.  Two benchmarks: nops (no
 * data access) and load-stream (eight loads per line: the access addresses'
 * cost).  Rates are reported, never asserted. */
#include "../../harness/test.h"
#include "../../harness/need.h"
#include "../../bench/oracle.h"
#include "../../arch/x86/cpu.h"
#include "../../harness/clock.h"
#include "../../lib/fmt.h"
#include "../../lib/stats.h"
#include "../../pmu/model.h"

#define ROUNDS 5

struct speed_case {
	const char *bench;
	uint64_t n;
};

static const struct speed_case cases[] = {
	{ "nops", 20000 },		/* 200,004 steps */
	{ "load-stream", 1024 },	/* 11,269 steps per run */
};

/* A sink that looks at what a model looks at, and no more. */
static void count_sink(const struct insn_event *e, void *ctx)
{
	*(uint64_t *)ctx += e->retired;
}

static uint64_t rate(uint64_t count, uint64_t ticks, uint64_t hz)
{
	return count * hz / (ticks ? ticks : 1);
}

/* The model backend's path: the reference model sees every step. */
static uint64_t model_rate(const struct bench *b, uint64_t n, uint64_t hz,
			   struct fault *f)
{
	const struct pmu_model *was = model_active();
	uint64_t t0, t1, steps;
	int r;

	model_activate(model_for(PMU_P5));
	t0 = rdtsc();
	r = bench_exec(b, n, 0, NULL, model_feed, NULL, f);
	t1 = rdtsc();
	steps = trace_outside_steps() + model_clock();
	model_activate(was);	/* resets the clock: read it first */
	return r ? 0 : rate(steps, t1 - t0, hz);
}

static void ratio(struct tcase *t, const char *bench, const char *what,
		  uint64_t num, uint64_t den)
{
	char key[48];

	fmt_snprintf(key, sizeof(key), "%s_%s", bench, what);
	value(t, key, "%llu.%03llu", (unsigned long long)(num / (den ? den : 1)),
	      (unsigned long long)(num * 1000 / (den ? den : 1) % 1000));
}

static void one_case(struct tcase *t, const struct speed_case *c,
		     uint64_t hz)
{
	const struct bench *b = bench_find(c->bench);
	uint64_t bare[ROUNDS], full[ROUNDS], model[ROUNDS], traps = 0;
	uint64_t steps = 0, bm, fm, mm;
	struct fault f;
	char key[48];

	if (!check(t, b != NULL, "no %s benchmark", c->bench) ||
	    !need_bench_data(t, b))
		return;
	for (unsigned r = 0; r < ROUNDS; r++) {
		uint64_t t0 = rdtsc(), t1, t2;

		traps = trace_bare(b->fn, c->n, bench_data(b));
		t1 = rdtsc();
		steps = 0;
		if (!check(t, bench_exec(b, c->n, 0, NULL, count_sink, &steps,
					 &f) == 0, "%s: traced run faulted",
			   c->bench))
			return;
		t2 = rdtsc();
		steps += trace_outside_steps();
		bare[r] = rate(traps, t1 - t0, hz);
		full[r] = rate(steps, t2 - t1, hz);
		model[r] = model_rate(b, c->n, hz, &f);
	}
	bm = stats_median(bare, ROUNDS);
	fm = stats_median(full, ROUNDS);
	mm = stats_median(model, ROUNDS);
	fmt_snprintf(key, sizeof(key), "%s_bare_single_step_per_s", c->bench);
	value(t, key, "%llu", (unsigned long long)bm);
	fmt_snprintf(key, sizeof(key), "%s_trace_steps_per_s", c->bench);
	value(t, key, "%llu", (unsigned long long)fm);
	fmt_snprintf(key, sizeof(key), "%s_model_steps_per_s", c->bench);
	value(t, key, "%llu", (unsigned long long)mm);
	ratio(t, c->bench, "ratio", fm, bm);
	ratio(t, c->bench, "model_bare_ratio", mm, bm);
	check(t, mm > 0, "%s: the model run faulted", c->bench);
	/* Sanity, not speed: both loops trapped on the same instructions
	 * (no REP in these benchmarks: one event per retired step). */
	check(t, traps == steps, "%s: bare loop trapped %llu times, trace %llu",
	      c->bench, (unsigned long long)traps, (unsigned long long)steps);
}

static void test_speed(struct tcase *t)
{
	uint64_t hz = harness_tsc_hz();

	if (!check(t, hz > 0, "TSC rate unknown"))
		return;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		one_case(t, &cases[i], hz);
}

TEST(bench_trace_speed, "bench/trace-speed",
     "full tracer (every step to a sink) against bare single-step, same boot",
     test_speed, TEST_MANUAL);
