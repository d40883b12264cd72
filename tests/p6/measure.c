/* p6/measure-two-size: the P6 driver as a counter source of the
 * measurement API (harness/pmu_source.h): instructions and segment-
 * register loads at CPL 3, placed by the driver's event_config
 * (INST_RETIRED and SEGMENT_REG_LOADS), and the two-size difference over
 * repetitions equals the difference of the segment-load benchmark's
 * formulas. */
#include "p6_test.h"
#include "../../harness/pmu_source.h"
#include "../../pmu/backend.h"

static void test_measure(struct tcase *t)
{
	static const enum sem sems[] = { SEM_INSTRUCTIONS, SEM_SEGLOADS };
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	const struct bench *b = bench_find("segment-load");
	struct measure_cfg cfg = { 3, 4, 10, 200 };
	struct counter_source src;
	struct measure_result res;
	struct pmu_source ps;
	char name[64];
	int64_t want;

	if (!d || !check(t, b != NULL, "no segment-load benchmark") ||
	    !check(t, d->init(&ps.err) == 0, "init: %s", ps.err.msg) ||
	    !check(t, pmu_source_init(&src, &ps, d, sems, 2, PMU_CPL3) == 0,
		   "source: %s", ps.err.msg) ||
	    !check(t, measure(b, &cfg, &src, &res) == 0, "measure: %s (%s)",
		   res.error, ps.err.msg))
		return;
	value(t, "backend", "%s", backend_current()->name);
	value(t, "bench", "segment-load cpl=3 n=%llu,%llu reps=%u",
	      (unsigned long long)cfg.n_small, (unsigned long long)cfg.n_large,
	      res.reps);
	for (unsigned k = 0; k < 2; k++) {
		want = b->expect(sems[k], cfg.n_large) -
		       b->expect(sems[k], cfg.n_small);
		d->config_name(&ps.cfg[k], name, sizeof(name));
		value(t, src.value_names[k], "PerfCtr%u %s delta min=%llu "
		      "median=%llu formulas=%lld", ps.ctr[k], name,
		      (unsigned long long)res.delta_min[k],
		      (unsigned long long)res.delta_median[k], (long long)want);
		check(t, res.delta_min[k] == (uint64_t)want, "%s: delta %llu,"
		      " formulas give %lld", src.value_names[k],
		      (unsigned long long)res.delta_min[k], (long long)want);
		check(t, res.negative[k] == 0, "%s went backwards",
		      src.value_names[k]);
	}
}

TEST(p6_measure, "p6/measure-two-size",
     "measure() with the P6 driver: large-small equals the formulas",
     test_measure, 0);
