/* pmu/pt/caps.h: what Intel PT a CPU offers (pmu/pt/caps.c) - CPUID leaf
 * 14H as the CPU reports it, or the capability row of the CPU the model
 * stands in for (QEMU under TCG has no PT), and the questions the driver
 * and the model ask of it.
 *
 * Sources: Intel SDM Vol. 3C, order no. 326019-060US, §36.3.1 "Detection
 * of Intel Processor Trace and Capability Enumeration" (CPUID leaf 14H:
 * Table 36-11, sub-leaf 1 Table 36-12). */
#ifndef PMU_PT_CAPS_H
#define PMU_PT_CAPS_H

#include <stdint.h>

/* CPUID leaf 14H (§36.3.1, Table 36-11): sub-leaf 0 EBX and ECX. */
#define PT_EBX_CR3_FILTER (1u << 0)
#define PT_EBX_PSB_CYC (1u << 1)	/* configurable PSB, CYC, CycThresh */
#define PT_EBX_IP_FILTER (1u << 2)
#define PT_EBX_MTC (1u << 3)
#define PT_EBX_PTWRITE (1u << 4)
#define PT_EBX_POWER_EVENT (1u << 5)
#define PT_ECX_TOPA (1u << 0)
#define PT_ECX_TOPA_MULTI (1u << 1)
#define PT_ECX_SINGLE_RANGE (1u << 2)
#define PT_ECX_TRANSPORT (1u << 3)
#define PT_ECX_LIP (1u << 31)

/* What a CPU's PT offers: CPUID.14H sub-leaves 0 and 1 as the CPU
 * reports them, or the capability row of the CPU the model stands in
 * for (QEMU under TCG has no PT). */
struct pt_caps {
	uint32_t eax0, ebx0, ecx0;	/* sub-leaf 0 */
	uint32_t eax1, ebx1;		/* sub-leaf 1: address ranges and
					 * MTC periods; CycThresh and PSB
					 * frequency bitmaps */
	const char *source;		/* "cpuid" or "model:<name>" */
};

struct pt_caps_row {
	unsigned family, model;
	const char *name;
	struct pt_caps caps;
	const char *cite;
};
/* The row of a family/model, or NULL. */
const struct pt_caps_row *pt_caps_row_for(unsigned family, unsigned model);

/* The live CPU's PT: from CPUID where CPUID.07H:EBX[25] is set, else
 * (under the model backend) the capability row; NULL with why. */
const struct pt_caps *pt_caps(const char **why);
int pt_has_cyc(const struct pt_caps *c);
int pt_has_mtc(const struct pt_caps *c);
int pt_has_single_range(const struct pt_caps *c);
int pt_has_topa(const struct pt_caps *c);
/* Is CycThresh value v (0-15) supported (sub-leaf 1 EBX[15:0])? */
int pt_cyc_thresh_ok(const struct pt_caps *c, unsigned v);
/* Is MTCFreq value v offered (MTC enumerated, sub-leaf 1 EAX[31:16] bit
 * v)?  Is PSBFreq value v offered (configurable PSB enumerated, sub-leaf
 * 1 EBX[31:16] bit v)? */
int pt_mtc_freq_ok(const struct pt_caps *c, unsigned v);
int pt_psb_freq_ok(const struct pt_caps *c, unsigned v);

#endif
