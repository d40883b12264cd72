/* pmu/p6/generation.c: the P6 family PMU's descriptor (generation.h). */
#include "driver.h"
#include "model.h"
#include "events.h"
#include "regs.h"
#include "listing.h"
#include "referee.h"
#include "../generation.h"

/* The presence probe: PerfEvtSel0 with event 0xC0 (instructions retired)
 * and EN, USR and OS clear (SDM Vol. 3B §18.22, order no. 253669): the
 * counter is selected but off. */
PMU_GENERATION(p6,
	.name = "p6",
	.kind = PMU_P6,
	.kind_name = "p6",
	.driver = PMU_GENERATION_OPS(&p6_driver),
	.model = PMU_GENERATION_MODEL(&p6_model),
	.probe = { .msr = P6_MSR_PERFEVTSEL0,
		   .value = P6_EVENT_INST_RETIRED },
	.groups = { "p6/" },
	/* family 6 up to the Pentium M (Dothan, 06_0DH); from Yonah (06_0EH)
	 * on, architectural perfmon (SDM Vol. 3B §18.22, §18.2; Vol. 4
	 * Table 2-1) */
	.match = { { 6, 0x00, 0x0d } },
	/* PerfCtr0 and PerfCtr1, 40 bits (SDM Vol. 3B §18.22) */
	.counters = 2,
	.width = 40,
	.lbr = PMU_GENERATION_OPS(p6_lbr_layout),
	.list_events = PMU_GENERATION_EVENTS(p6_list_events),
	.referee = PMU_GENERATION_REFEREE(&p6_referee),
);
