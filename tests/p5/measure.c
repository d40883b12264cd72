/* p5/measure-two-size: the P5 driver as a counter source of the
 * measurement API (harness/pmu_source.h): instructions and loads at
 * CPL 3, placed by the driver's event_config (INSTRUCTIONS_EXECUTED and
 * DATA_READ), and the two-size difference over repetitions equals the
 * difference of the benchmark's formulas. */
#include "p5_test.h"
#include "../../harness/pmu_source.h"

/* The CESR as the driver left it for the measurement. */
static void log_cesr(struct tcase *t)
{
	value(t, "cesr", "0x%08x", p5_shadow());
}

static void test_measure(struct tcase *t)
{
	static const enum sem sems[] = { SEM_INSTRUCTIONS, SEM_LOADS };
	const struct pmu_driver *d = pmu_ready(t, PMU_P5);

	if (d)
		pmu_measure_two_size(t, d, "call-ret", sems, 2, "CTR",
				     log_cesr);
}

TEST(p5_measure, "p5/measure-two-size",
     "measure() with the P5 driver: large-small equals the formulas",
     test_measure, 0);
