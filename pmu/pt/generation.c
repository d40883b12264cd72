/* pmu/pt/generation.c: Intel Processor Trace's descriptor (generation.h):
 * a feature of the architectural-perfmon machines the harness drives,
 * with its own test groups and no PMU driver or model of its own (its
 * interface is pmu/pt/driver.h, its capabilities pmu/pt/caps.h, its model
 * a part of the arch-perfmon model's, pmu/pt/model.h). */
#include "../generation.h"
#include "../detect.h"
#include "../../lib/fmt.h"

/* pt/: CPUID.07H:EBX.INTEL_PT[bit 25] (SDM Vol. 3C §33.3.1). */
static enum pmu_need_answer needs_pt(const struct cpu_info *ci, char *why,
				     unsigned size)
{
	if (ci->f7_ebx & CPUID7_EBX_PT)
		return PMU_NEED_MET;
	fmt_snprintf(why, size, "no Intel PT (CPUID.07H:EBX[25] = 0)");
	return PMU_NEED_LACKING;
}

PMU_GENERATION(pt,
	.name = "pt",
	.kind = PMU_ARCH,
	.feature = 1,
	.groups = { "pt/" },
	.needs = { { "pt/", needs_pt } },
);
