/* cpu_model: CPUID signature decoding, model names, and the PMU kinds
 * (which generation is a CPU's: pmu/generation.h cpu_pmu_kind()).
 * Pure logic (no CPUID here): pmu/detect.c feeds it what the CPU reports,
 * the host tests feed it signatures of real processors. */
#ifndef PMU_CPU_MODEL_H
#define PMU_CPU_MODEL_H

#include <stdint.h>

enum cpu_vendor { VENDOR_OTHER, VENDOR_INTEL, VENDOR_AMD };

enum pmu_kind {
	PMU_NONE,
	PMU_P5,		/* Pentium: CESR, CTR0, CTR1 (SDM Vol. 3B §18.23) */
	PMU_P6,		/* Pentium Pro/II/III/M: PerfEvtSel0/1 (§18.22) */
	PMU_NETBURST,	/* Pentium 4/Xeon: ESCR/CCCR (§18.16-18.18) */
	PMU_ARCH,	/* architectural perfmon, CPUID.0AH (§18.2) */
	PMU_UNSUPPORTED, /* a PMU this harness has no driver for (AMD) */
};

struct cpu_sig {
	uint32_t raw;		/* CPUID.01H:EAX */
	unsigned family;	/* DisplayFamily */
	unsigned model;		/* DisplayModel */
	unsigned stepping;
	unsigned type;		/* processor type, bits 13:12 */
};

enum cpu_vendor cpu_vendor_from_id(const char id[12]);
void cpu_sig_decode(uint32_t eax, enum cpu_vendor v, struct cpu_sig *s);

struct cpu_model {
	enum cpu_vendor vendor;
	unsigned family;
	unsigned model;
	const char *name;
};

/* A name for the log: the table's, else an honest "unknown ..." string
 * written into buf. */
const char *cpu_model_name(enum cpu_vendor v, unsigned family, unsigned model,
			   char *buf, unsigned size);
/* For PMU_UNSUPPORTED: which PMU it is and why no driver drives it. */
const char *pmu_unsupported_reason(enum cpu_vendor v, unsigned family);
/* Why a CPU of PMU kind none has no PMU the harness drives: "unknown CPU:
 * ..." for an Intel family the harness does not know (not the same as
 * one without counters), else why it has none. */
const char *pmu_none_reason(enum cpu_vendor v, unsigned family);

#endif
