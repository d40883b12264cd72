/* pmu/perfmon/generation.c: the architectural performance monitoring
 * PMU's descriptor, with the DS save area's PEBS and BTS (generation.h). */
#include "driver.h"
#include "lbr/layout.h"
#include "model.h"
#include "regs.h"
#include "report.h"
#include "listing.h"
#include "referee.h"
#include "../generation.h"
#include "../../lib/fmt.h"

/* pebs/ and bts/: the DS save area (CPUID.01H:EDX.DS[bit 21], SDM Vol. 3B
 * §18.6.2.1); whether PEBS itself is there, and its record format, only
 * IA32_MISC_ENABLE[12] and IA32_PERF_CAPABILITIES[11:8] say (§18.6.2.4,
 * Vol. 4 Table 2-2), BTS IA32_MISC_ENABLE[11]. */
static enum pmu_need_answer needs_ds(const struct cpu_info *ci, char *why,
				     unsigned size)
{
	if (!(ci->f1_edx & CPUID1_EDX_DS)) {
		fmt_snprintf(why, size, "no DS save area (CPUID.01H:EDX.DS "
			     "= 0)");
		return PMU_NEED_LACKING;
	}
	if (ci->misc_enable_valid)
		return PMU_NEED_MET;
	fmt_snprintf(why, size, "DS present; whether PEBS and BTS are, only "
		     "IA32_MISC_ENABLE (1A0H) bits 12 and 11 say");
	return PMU_NEED_UNKNOWN;
}

/* The GP counters CPUID.0AH reports: EAX[15:8] and their width EAX[23:16]
 * (SDM Vol. 3B §18.2.1.1), as the detect hook read them (report.c). */
static void perfmon_cpuid_shape(const struct cpu_info *ci,
				unsigned *counters, unsigned *width)
{
	*counters = (ci->report.cpuid[0] >> 8) & 0xff;
	*width = (ci->report.cpuid[0] >> 16) & 0xff;
}

/* The presence probe: IA32_PERFEVTSEL0 with event 0xC0 (instructions
 * retired, SDM Vol. 3B Table 18-1) and EN, USR and OS clear (§18.2.1.1,
 * order no. 253669): selected but off. */
PMU_GENERATION(perfmon,
	.name = "perfmon",
	.kind = PMU_ARCH,
	.kind_name = "arch-perfmon",
	.driver = PMU_GENERATION_OPS(&perfmon_driver),
	.model = PMU_GENERATION_MODEL(&perfmon_model),
	.probe = { .msr = MSR_IA32_PERFEVTSEL(0), .value = 0xc0 },
	/* the DS area's PEBS and BTS are arch perfmon's (§18.6.2) */
	.groups = { "perfmon/", "pebs/", "bts/" },
	.needs = { { "pebs/", needs_ds }, { "bts/", needs_ds } },
	/* every Intel CPU that reports a version in CPUID.0AH (§18.2.1);
	 * by signature, family 6 from Yonah (06_0EH) on (Vol. 4 Table
	 * 2-1), which QEMU's TCG boots without leaf 0AH */
	.detect = PMU_GENERATION_OPS(perfmon_detect),
	.match = { { 6, 0x0e, 0xff } },
	/* CPUID.0AH reports the GP counters and their width (§18.2.1) */
	.cpuid_shape = perfmon_cpuid_shape,
	.lbr = PMU_GENERATION_OPS(perfmon_lbr_layout),
	.list_events = PMU_GENERATION_EVENTS(perfmon_list_events),
	.referee = PMU_GENERATION_REFEREE(&perfmon_referee),
);
