/* pmu/perfmon/report.c: CPUID.0AH and IA32_PERF_CAPABILITIES as the CPU
 * reports them (report.h), the detect hook of the descriptor. */
#include "report.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/msr.h"
#include "../../arch/x86/safe.h"

int perfmon_detect(const struct cpu_info *ci, struct pmu_cpu_report *r)
{
	struct cpuid_regs c;

	/* Leaf 0AH is Intel's (SDM Vol. 2A CPUID). */
	if (ci->vendor != VENDOR_INTEL)
		return 0;
	if (ci->max_leaf >= 0xa) {
		c = cpuid(0xa);
		r->cpuid[0] = c.eax;
		r->cpuid[1] = c.ebx;
		r->cpuid[2] = c.ecx;
		r->cpuid[3] = c.edx;
	}
	/* IA32_PERF_CAPABILITIES (0x345) exists when CPUID.01H:ECX.PDCM is
	 * set (Vol. 4 Table 2-2). */
	if (ci->f1_ecx & CPUID1_ECX_PDCM)
		r->caps_valid = !rdmsr_safe(MSR_IA32_PERF_CAPABILITIES,
					    &r->caps);
	/* A version ID above 0 in CPUID.0AH:EAX[7:0] says the processor has
	 * architectural performance monitoring (SDM Vol. 3B §18.2.1, order
	 * no. 253669). */
	return perfmon_report_version(r) >= 1;
}
