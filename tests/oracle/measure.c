/* oracle/measure-*: the measurement API end to end with the oracle as the
 * counter source: the two-size difference equals the formulas' difference
 * exactly, at CPL 0 and CPL 3, and min equals median (the oracle is exact,
 * so repetitions cannot differ). */
#include "../../harness/test.h"
#include "../../harness/measure.h"
#include "../../harness/need.h"
#include "../../bench/bench.h"

static void measure_at(struct tcase *t, const char *name, int cpl)
{
	const struct bench *b = bench_find(name);
	struct measure_cfg cfg = { cpl, 3, 0, 0 };
	struct counter_source src;
	struct measure_result res;

	if (!check(t, b != NULL, "no benchmark %s", name) ||
	    !need_bench_data(t, b))
		return;
	cfg.n_small = b->params[0];
	cfg.n_large = b->params[1];
	oracle_source(&src, cpl);
	if (!check(t, measure(b, &cfg, &src, &res) == 0, "measure: %s",
		   res.error))
		return;
	value(t, "cpl", "%d", cpl);
	value(t, "n_small", "%llu", (unsigned long long)cfg.n_small);
	value(t, "n_large", "%llu", (unsigned long long)cfg.n_large);
	value(t, "reps", "%u", res.reps);
	check(t, res.reps == cfg.reps, "%u of %u repetitions", res.reps,
	      cfg.reps);
	for (unsigned k = 0; k < src.n_values; k++) {
		int64_t a = bench_expect(b, (enum sem)k, cfg.n_small);
		int64_t z = bench_expect(b, (enum sem)k, cfg.n_large);

		value(t, src.value_names[k], "delta min=%llu median=%llu",
		      (unsigned long long)res.delta_min[k],
		      (unsigned long long)res.delta_median[k]);
		if (a == BENCH_NOT_ARCH || z == BENCH_NOT_ARCH)
			continue;
		check(t, res.delta_min[k] == (uint64_t)(z - a),
		      "%s: delta %llu, formulas give %lld",
		      src.value_names[k], (unsigned long long)res.delta_min[k],
		      (long long)(z - a));
		check(t, res.delta_min[k] == res.delta_median[k],
		      "%s: min %llu != median %llu", src.value_names[k],
		      (unsigned long long)res.delta_min[k],
		      (unsigned long long)res.delta_median[k]);
	}
}

static void test_cpl0(struct tcase *t)
{
	measure_at(t, "branch-alternating", 0);
}

static void test_cpl3(struct tcase *t)
{
	measure_at(t, "call-ret", 3);
}

TEST(measure_cpl0, "oracle/measure-two-size-cpl0",
     "measure() with the oracle: large-small equals the formulas at CPL 0",
     test_cpl0, 0);
TEST(measure_cpl3, "oracle/measure-two-size-cpl3",
     "measure() with the oracle: large-small equals the formulas at CPL 3",
     test_cpl3, 0);
