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
	uint32_t f1_ebx, f1_ecx, f1_edx, f7_ebx, f7_edx;
	/* A hybrid part (CPUID.07H:EDX[15], SDM Vol. 2A CPUID) and the
	 * core type of the processor detection ran on: CPUID.1AH:EAX[31:24]
	 * (20H Intel Atom, 40H Intel Core; 0 where leaf 1AH is absent) */
	int hybrid;
	uint8_t core_type;
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

/* The log's "# cpu:" and "# cpu-extra:" lines, without the "# ": what
 * the harness says of ci (boot/session.c; the host's `detect` tool,
 * tools/lab/pmu_detect.c, prints the same for a CPUID dump). */
void cpu_describe(const struct cpu_info *ci, char *buf, unsigned size);
void cpu_describe_extra(const struct cpu_info *ci, char *buf,
			unsigned size);
/* "performance" (40H, Intel Core), "efficient" (20H, Intel Atom) or NULL
 * (not hybrid, or another value) for ci's core type (SDM Vol. 2A CPUID
 * leaf 1AH "Native Model ID Enumeration Leaf"). */
const char *cpu_core_type_name(const struct cpu_info *ci);

/* Feature bits (SDM Vol. 2A CPUID leaf 01H and 07H). */
#define CPUID1_EDX_MSR (1u << 5)
#define CPUID1_EDX_DS (1u << 21)
#define CPUID1_ECX_DTES64 (1u << 2)
#define CPUID1_ECX_DSCPL (1u << 4)
#define CPUID1_ECX_PDCM (1u << 15)
#define CPUID1_ECX_HYPERVISOR (1u << 31)
#define CPUID7_EBX_PT (1u << 25)
#define CPUID7_EDX_HYBRID (1u << 15)
#define CPUID7_EDX_ARCH_LBR (1u << 19)
#define CPUID_LEAF_HYBRID 0x1au
#define CORE_TYPE_ATOM 0x20u
#define CORE_TYPE_CORE 0x40u


#endif
