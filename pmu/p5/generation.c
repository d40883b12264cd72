/* pmu/p5/generation.c: the Pentium (P5) PMU's descriptor (generation.h). */
#include "driver.h"
#include "model.h"
#include "regs.h"
#include "listing.h"
#include "../generation.h"

/* The presence probe: CESR with ES0 = ES1 = 0x16 and CC = 000 in both
 * halves (SDM Vol. 3B §18.23.1, order no. 253669): the counters are
 * selected but stopped, so nothing counts. */
PMU_GENERATION(p5,
	.name = "p5",
	.kind = PMU_P5,
	.kind_name = "p5",
	.driver = PMU_GENERATION_OPS(&p5_driver),
	.model = PMU_GENERATION_MODEL(&p5_model),
	.probe = { .msr = P5_MSR_CESR,
		   .value = 0x16u << P5_HALF_SHIFT | 0x16u },
	.groups = { "p5/" },
	/* family 5 (SDM Vol. 3B §18.23; Vol. 4 Table 2-1), but the Quark
	 * SoC X1000 (05_09H), whose MSR list has no CESR, CTR0 or CTR1
	 * (Intel Quark SoC X1000 Core Developer's Manual, order no.
	 * 329679, chapter "Model-Specific Registers") */
	.match = { { 5, 0x00, 0x08 }, { 5, 0x0a, 0xff } },
	/* CTR0 and CTR1, 40 bits (SDM Vol. 3B §18.23) */
	.counters = 2,
	.width = 40,
	.list_events = PMU_GENERATION_EVENTS(p5_list_events),
);
