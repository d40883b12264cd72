/* pmu/perfmon/report.h: what a CPU reports of architectural performance
 * monitoring itself, read at detection through the descriptor's detect
 * hook (report.c; pmu/generation.h).  The report's layout, for the
 * readers of ci->report (caps.c, the shape in generation.c): */
#ifndef PMU_PERFMON_REPORT_H
#define PMU_PERFMON_REPORT_H

#include "../detect.h"

/* cpuid[0..3]: CPUID.0AH EAX, EBX, ECX, EDX (SDM Vol. 2A CPUID leaf 0AH,
 * Vol. 3B §18.2.1; zero on a CPU without the leaf); caps_valid, caps:
 * IA32_PERF_CAPABILITIES, read where CPUID.01H:ECX.PDCM says it exists
 * (Vol. 4 Table 2-2). */

/* The version ID CPUID.0AH:EAX[7:0] reports (0: none). */
static inline unsigned perfmon_report_version(const struct pmu_cpu_report *r)
{
	return r->cpuid[0] & 0xff;
}

/* Reads the report into *r; 1 when the CPU reports architectural
 * performance monitoring (a version ID above 0), else 0.  The image's
 * only: it executes CPUID and RDMSR. */
int perfmon_detect(const struct cpu_info *ci, struct pmu_cpu_report *r);

#endif
