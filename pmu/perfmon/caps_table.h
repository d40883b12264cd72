/* pmu/perfmon/caps_table.h: the capability table of the CPUs the
 * reference model stands in for (caps_table.c says where each value
 * comes from). */
#ifndef PMU_PERFMON_CAPS_TABLE_H
#define PMU_PERFMON_CAPS_TABLE_H

#include <stdint.h>
#include "regs.h"

/* A row of the capability table: what the CPU's CPUID.0AH registers and
 * IA32_PERF_CAPABILITIES hold, with where that fact comes from. */
struct perfmon_caps_row {
	unsigned family, model;
	const char *name;		/* "Skylake" ... (caps=model:<name>) */
	enum perfmon_uarch uarch;	/* its SDM chapter 18 section */
	uint32_t eax, ebx, ecx, edx;	/* CPUID.0AH as the CPU reports it */
	int has_perf_caps;
	uint64_t perf_caps;
	/* CPUID.1CH EAX, EBX, ECX of a part with architectural LBRs (its
	 * LBR_FMT 3FH), else 0 */
	uint32_t lbr_1c[3];
	const char *cite;		/* the source of the row */
};

/* The table row for a family-6 model, or NULL. */
const struct perfmon_caps_row *perfmon_caps_row_for(unsigned family,
						    unsigned model);

/* The capabilities row r states: its CPUID.0AH decoded by
 * perfmon_caps_decode() (regs.h), its IA32_PERF_CAPABILITIES and
 * microarchitecture.  The driver's stand-in for a CPU whose CPUID reports
 * no version (caps.c), and the lab's event listing of a CPU named by its
 * signature (tools/lab/pmu_events.c). */
void perfmon_caps_of_row(const struct perfmon_caps_row *r,
			 struct perfmon_caps *c);

#endif
