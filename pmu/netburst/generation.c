/* pmu/netburst/generation.c: the Pentium 4 (NetBurst) PMU's descriptor
 * (generation.h). */
#include "driver.h"
#include "model.h"
#include "regs.h"
#include "listing.h"
#include "referee.h"
#include "../generation.h"
#include "../../lib/fmt.h"

#ifdef PMU_GENERATION_NO_OPS
/* the host tools that link the descriptors alone have no regs.c */
#define NEEDS_HT NULL
#else
/* netburst/ht-*: two logical processors on this core's PMU (regs.h
 * nb_has_ht: CPUID.01H:EBX[23:16] over CPUID.04H's cores, SDM Vol. 3A
 * §8.6.2); a Pentium D has two cores and no HT. */
static enum pmu_need_answer needs_ht(const struct cpu_info *ci, char *why,
				     unsigned size)
{
	if (nb_has_ht(ci))
		return PMU_NEED_MET;
	fmt_snprintf(why, size, "no HT (CPUID.01H EDX.HTT=%u, EBX[23:16]=%u, "
		     "%u cores per package (CPUID.04H)): T1 bits, OVF_PMI_T1 "
		     "reserved, active thread 11B only", ci->f1_edx >> 28 & 1,
		     ci->f1_ebx >> 16 & 0xff, ci->cores_per_package);
	return PMU_NEED_LACKING;
}
#define NEEDS_HT needs_ht
#endif

/* The presence probe: CRU_ESCR0 with event select 2 (instr_retired) and
 * the T0/T1 OS/USR flags clear (SDM Vol. 3B §18.16.1, order no. 253669):
 * selected, counting at no privilege level. */
PMU_GENERATION(netburst,
	.name = "netburst",
	.kind = PMU_NETBURST,
	.kind_name = "netburst",
	.driver = PMU_GENERATION_OPS(&nb_driver),
	.model = PMU_GENERATION_MODEL(&netburst_model),
	.probe = { .msr = NB_MSR_CRU_ESCR0,
		   .value = (uint64_t)NB_EVENT_INSTR_RETIRED <<
			    NB_ESCR_EVENT_SHIFT },
	.groups = { "netburst/" },
	.needs = { { "netburst/ht-", NEEDS_HT } },
	/* family 15, every model (SDM Vol. 3B §18.16; Vol. 4 Table 2-1) */
	.match = { { 15, 0x00, 0xff } },
	/* 18 counters of 40 bits (SDM Vol. 3B §18.16.2) */
	.counters = 18,
	.width = 40,
	.lbr = PMU_GENERATION_OPS(nb_lbr_layout),
	.list_events = PMU_GENERATION_EVENTS(nb_list_events),
	.referee = PMU_GENERATION_REFEREE(&netburst_referee),
);
