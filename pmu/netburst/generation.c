/* pmu/netburst/generation.c: the Pentium 4 (NetBurst) PMU's descriptor
 * (generation.h). */
#include "driver.h"
#include "regs.h"
#include "../generation.h"

/* The presence probe: CRU_ESCR0 with event select 2 (instr_retired) and
 * the T0/T1 OS/USR flags clear (SDM Vol. 3B §18.16.1, order no. 253669):
 * selected, counting at no privilege level. */
PMU_GENERATION(netburst,
	.name = "netburst",
	.kind = PMU_NETBURST,
	.kind_name = "netburst",
	.driver = &nb_driver,
	.probe = { .msr = NB_MSR_CRU_ESCR0,
		   .value = (uint64_t)NB_EVENT_INSTR_RETIRED <<
			    NB_ESCR_EVENT_SHIFT },
	.groups = { "netburst/" },
);
