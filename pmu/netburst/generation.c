/* pmu/netburst/generation.c: the Pentium 4 (NetBurst) PMU's descriptor
 * (generation.h). */
#include "driver.h"
#include "model.h"
#include "regs.h"
#include "listing.h"
#include "referee.h"
#include "../generation.h"

/* The presence probe: CRU_ESCR0 with event select 2 (instr_retired) and
 * the T0/T1 OS/USR flags clear (SDM Vol. 3B §18.16.1, order no. 253669):
 * selected, counting at no privilege level. */
PMU_GENERATION(netburst,
	.name = "netburst",
	.kind = PMU_NETBURST,
	.kind_name = "netburst",
	.driver = PMU_GENERATION_OPS(&nb_driver),
	.model = PMU_GENERATION_OPS(&netburst_model),
	.probe = { .msr = NB_MSR_CRU_ESCR0,
		   .value = (uint64_t)NB_EVENT_INSTR_RETIRED <<
			    NB_ESCR_EVENT_SHIFT },
	.groups = { "netburst/" },
	/* family 15, every model (SDM Vol. 3B §18.16; Vol. 4 Table 2-1) */
	.match = { { 15, 0x00, 0xff } },
	/* 18 counters of 40 bits (SDM Vol. 3B §18.16.2) */
	.counters = 18,
	.width = 40,
	.list_events = PMU_GENERATION_EVENTS(nb_list_events),
	.referee = PMU_GENERATION_REFEREE(&netburst_referee),
);
