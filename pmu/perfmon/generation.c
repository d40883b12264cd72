/* pmu/perfmon/generation.c: the architectural performance monitoring
 * PMU's descriptor, with the DS save area's PEBS and BTS (generation.h). */
#include "driver.h"
#include "regs.h"
#include "../generation.h"

/* The presence probe: IA32_PERFEVTSEL0 with event 0xC0 (instructions
 * retired, SDM Vol. 3B Table 18-1) and EN, USR and OS clear (§18.2.1.1,
 * order no. 253669): selected but off. */
PMU_GENERATION(perfmon,
	.name = "perfmon",
	.kind = PMU_ARCH,
	.kind_name = "arch-perfmon",
	.driver = &perfmon_driver,
	.probe = { .msr = MSR_IA32_PERFEVTSEL(0), .value = 0xc0 },
	/* the DS area's PEBS and BTS are arch perfmon's (§18.6.2) */
	.groups = { "perfmon/", "pebs/", "bts/" },
);
