/* pmu/p6/generation.c: the P6 family PMU's descriptor (generation.h). */
#include "driver.h"
#include "events.h"
#include "regs.h"
#include "../generation.h"

/* The presence probe: PerfEvtSel0 with event 0xC0 (instructions retired)
 * and EN, USR and OS clear (SDM Vol. 3B §18.22, order no. 253669): the
 * counter is selected but off. */
PMU_GENERATION(p6,
	.name = "p6",
	.kind = PMU_P6,
	.kind_name = "p6",
	.driver = &p6_driver,
	.probe = { .msr = P6_MSR_PERFEVTSEL0,
		   .value = P6_EVENT_INST_RETIRED },
	.groups = { "p6/" },
);
