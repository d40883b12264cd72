/* pmu/p5/generation.c: the Pentium (P5) PMU's descriptor (generation.h). */
#include "driver.h"
#include "regs.h"
#include "../generation.h"

/* The presence probe: CESR with ES0 = ES1 = 0x16 and CC = 000 in both
 * halves (SDM Vol. 3B §18.23.1, order no. 253669): the counters are
 * selected but stopped, so nothing counts. */
PMU_GENERATION(p5,
	.name = "p5",
	.kind = PMU_P5,
	.kind_name = "p5",
	.driver = &p5_driver,
	.probe = { .msr = P5_MSR_CESR,
		   .value = 0x16u << P5_HALF_SHIFT | 0x16u },
	.groups = { "p5/" },
);
