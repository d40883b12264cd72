/* p6/measure-two-size: the P6 driver as a counter source of the
 * measurement API (harness/pmu_source.h): instructions and segment-
 * register loads at CPL 3, placed by the driver's event_config
 * (INST_RETIRED and SEGMENT_REG_LOADS), and the two-size difference over
 * repetitions equals the difference of the segment-load benchmark's
 * formulas. */
#include "p6_test.h"
#include "../../harness/pmu_source.h"

static void test_measure(struct tcase *t)
{
	static const enum sem sems[] = { SEM_INSTRUCTIONS, SEM_SEGLOADS };
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);

	if (d)
		pmu_measure_two_size(t, d, "segment-load", sems, 2, "PerfCtr",
				     NULL);
}

TEST(p6_measure, "p6/measure-two-size",
     "measure() with the P6 driver: large-small equals the formulas",
     test_measure, 0);
