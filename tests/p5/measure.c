/* p5/measure-two-size: the P5 driver as a counter source of the
 * measurement API (tests/measure.h): CTR0 counts INSTRUCTIONS_EXECUTED and
 * CTR1 DATA_READ at CPL 3, and the two-size difference over repetitions
 * equals the difference of the benchmark's formulas. */
#include "p5_run.h"
#include "../measure.h"
#include "../../pmu/backend.h"

struct p5_source {
	struct p5_half h[P5_COUNTERS];
	struct p5_err err;
};

static int p5_src_start(void *ctx)
{
	struct p5_source *s = ctx;

	for (unsigned c = 0; c < P5_COUNTERS; c++) {
		struct p5_half off = s->h[c];

		off.cc = P5_CC_NONE;
		if (p5_program(c, &off, &s->err) || p5_write(c, 0, &s->err))
			return -1;
	}
	for (unsigned c = 0; c < P5_COUNTERS; c++)
		if (p5_program(c, &s->h[c], &s->err))
			return -1;
	return 0;
}

static int p5_src_stop(void *ctx)
{
	struct p5_source *s = ctx;

	return p5_stop(0, &s->err) || p5_stop(1, &s->err) ? -1 : 0;
}

static int p5_src_read(void *ctx, uint64_t *v)
{
	struct p5_source *s = ctx;

	return p5_read(0, &v[0], &s->err) || p5_read(1, &v[1], &s->err) ?
	       -1 : 0;
}

static void test_measure(struct tcase *t)
{
	struct p5_source ps = { { { 0x16, P5_CC_EV_USR, 0 },
				  { 0x00, P5_CC_EV_USR, 0 } }, { "", 0 } };
	struct counter_source src = { "p5", 2, { "ctr0_instructions",
			"ctr1_data_reads" }, &ps, p5_src_start, p5_src_stop,
			p5_src_read, 0 };
	const struct bench *b = bench_find("call-ret");
	struct measure_cfg cfg = { 3, 4, 10, 200 };
	struct measure_result res;
	int64_t want[2];

	if (!p5_ready(t) || !check(t, b != NULL, "no call-ret benchmark") ||
	    !check(t, p5_init(&ps.err) == 0, "init: %s", ps.err.msg))
		return;
	src.sink = backend_current()->sink;	/* model: feed it the trace */
	if (!check(t, measure(b, &cfg, &src, &res) == 0, "measure: %s (%s)",
		   res.error, ps.err.msg))
		return;
	want[0] = b->expect(BC_INSTRUCTIONS, cfg.n_large) -
		  b->expect(BC_INSTRUCTIONS, cfg.n_small);
	want[1] = b->expect(BC_LOADS, cfg.n_large) -
		  b->expect(BC_LOADS, cfg.n_small);
	value(t, "backend", "%s", backend_current()->name);
	value(t, "bench", "call-ret cpl=3 n=%llu,%llu reps=%u",
	      (unsigned long long)cfg.n_small, (unsigned long long)cfg.n_large,
	      res.reps);
	value(t, "cesr", "0x%08x", p5_shadow());
	for (unsigned k = 0; k < 2; k++) {
		value(t, src.value_names[k], "delta min=%llu median=%llu "
		      "formulas=%lld", (unsigned long long)res.delta_min[k],
		      (unsigned long long)res.delta_median[k],
		      (long long)want[k]);
		check(t, res.delta_min[k] == (uint64_t)want[k], "%s: delta %llu,"
		      " formulas give %lld", src.value_names[k],
		      (unsigned long long)res.delta_min[k], (long long)want[k]);
		check(t, res.negative[k] == 0, "%s went backwards",
		      src.value_names[k]);
	}
}

TEST(p5_measure, "p5/measure-two-size",
     "measure() with the P5 driver: large-small equals the formulas",
     test_measure, 0);
