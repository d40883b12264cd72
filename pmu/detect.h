/* detect: what CPU this is and which PMU it has, read from CPUID and
 * (where readable) MSRs.  Presence of counters is proven by a write/read-
 * back probe, never assumed: QEMU reads absent PMU MSRs as 0 without #GP. */
#ifndef PMU_DETECT_H
#define PMU_DETECT_H

#include <stdint.h>
#include "cpu_model.h"
#include "../arch/x86/msr.h"

struct pmu_probe {
	int done;		/* a probe ran */
	int present;		/* the value written read back */
	uint32_t msr;
	uint64_t wrote, read;
	int wr_vector, rd_vector;	/* 0, or the exception the access raised */
};

/* What a CPU reports of its PMU itself: the registers of a CPUID leaf and
 * a capability MSR, read at detection by the hook of the generation
 * whose PMU it is (pmu/generation.h, detect); their meaning is that
 * generation's (pmu/<gen>/), zero where it has no hook. */
struct pmu_cpu_report {
	uint32_t cpuid[4];		/* EAX, EBX, ECX, EDX */
	int caps_valid;			/* the MSR was read */
	uint64_t caps;
};

struct cpu_info {
	char vendor_id[13];
	enum cpu_vendor vendor;
	uint32_t max_leaf, max_ext_leaf;
	struct cpu_sig sig;
	const char *model_name;
	char model_buf[80];
	char brand[49];
	int microcode_valid;
	uint32_t microcode;
	uint32_t f1_ebx, f1_ecx, f1_edx, f7_ebx;
	/* Cores per package: CPUID.04H (subleaf 0) EAX[31:26] + 1, "maximum
	 * number of addressable IDs for processor cores in the physical
	 * package" (SDM Vol. 2A CPUID; Vol. 3A §8.6.2), 1 below leaf 4.  The
	 * logical processors of CPUID.01H:EBX[23:16] divided by it are the
	 * threads per core: a Pentium D reports 2 logical processors and 2
	 * cores, no Hyper-Threading (Linux detect_ht() divides the same way) */
	unsigned cores_per_package;
	int misc_enable_valid;
	uint64_t misc_enable;
	struct pmu_cpu_report report;	/* of the generation of pmu */
	enum pmu_kind pmu;
	unsigned counters, width;	/* of the PMU kind (its generation's
					 * descriptor, generation.h) */
	struct pmu_probe probe;
};

/* Reads everything once; cpu_info() returns the same record afterwards. */
const struct cpu_info *cpu_detect(void);
const struct cpu_info *cpu_info(void);

/* Feature bits (SDM Vol. 2A CPUID leaf 01H and 07H). */
#define CPUID1_EDX_MSR (1u << 5)
#define CPUID1_EDX_DS (1u << 21)
#define CPUID1_ECX_DTES64 (1u << 2)
#define CPUID1_ECX_DSCPL (1u << 4)
#define CPUID1_ECX_PDCM (1u << 15)
#define CPUID1_ECX_HYPERVISOR (1u << 31)
#define CPUID7_EBX_PT (1u << 25)


#endif
