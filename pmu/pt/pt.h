/* pt: Intel Processor Trace - its MSRs, CPUID leaf 14H, the capability
 * rows of the CPUs the model stands in for, and the driver.
 *
 * Sources: Intel SDM Vol. 3C, order no. 326019-060US, chapter 36
 * "Intel Processor Trace": §36.2.7 "Model Specific Registers"
 * (IA32_RTIT_CTL Table 36-6, IA32_RTIT_STATUS Table 36-7,
 * IA32_RTIT_OUTPUT_BASE / _MASK_PTRS §36.2.7.7-8), §36.2.6 "Trace
 * Output" (single-range output, ToPA), §36.3.1 "Detection of Intel
 * Processor Trace and Capability Enumeration" (CPUID leaf 14H: Table
 * 36-11, sub-leaf 1 Table 36-12); MSR addresses Vol. 4 Table 2-2.  PT
 * exists when CPUID.(EAX=07H,ECX=0):EBX[25] is set (pmu/detect.h
 * CPUID7_EBX_PT).
 *
 * The driver programs the real MSRs through the backend (pmu/backend.h):
 * on hardware with PT, the CPU writes the packets; under the model
 * (pmu/pt/model.c, part of the arch-perfmon model) the packet generator
 * (pmu/pt/gen.c) writes the stream the SDM prescribes from the trace.
 * docs/pt.md describes both. */
#ifndef PMU_PT_H
#define PMU_PT_H

#include <stdint.h>
#include "../driver.h"
#include "../../arch/x86/trace.h"

/* MSRs (Vol. 4 Table 2-2). */
#define MSR_IA32_RTIT_OUTPUT_BASE 0x560u
#define MSR_IA32_RTIT_OUTPUT_MASK_PTRS 0x561u
#define MSR_IA32_RTIT_CTL 0x570u
#define MSR_IA32_RTIT_STATUS 0x571u
#define MSR_IA32_RTIT_CR3_MATCH 0x572u
#define MSR_IA32_RTIT_ADDR_A(n) (0x580u + 2 * (n))
#define MSR_IA32_RTIT_ADDR_B(n) (0x581u + 2 * (n))

/* IA32_RTIT_CTL (Table 36-6). */
#define RTIT_CTL_TRACEEN (1ull << 0)
#define RTIT_CTL_CYCEN (1ull << 1)
#define RTIT_CTL_OS (1ull << 2)
#define RTIT_CTL_USER (1ull << 3)
#define RTIT_CTL_PWREVTEN (1ull << 4)
#define RTIT_CTL_FUPONPTW (1ull << 5)
#define RTIT_CTL_FABRICEN (1ull << 6)
#define RTIT_CTL_CR3FILTER (1ull << 7)
#define RTIT_CTL_TOPA (1ull << 8)
#define RTIT_CTL_MTCEN (1ull << 9)
#define RTIT_CTL_TSCEN (1ull << 10)
#define RTIT_CTL_DISRETC (1ull << 11)
#define RTIT_CTL_PTWEN (1ull << 12)
#define RTIT_CTL_BRANCHEN (1ull << 13)
#define RTIT_CTL_MTCFREQ_SHIFT 14	/* bits 17:14 */
#define RTIT_CTL_CYCTHRESH_SHIFT 19	/* bits 22:19 */
#define RTIT_CTL_PSBFREQ_SHIFT 24	/* bits 27:24 */
#define RTIT_CTL_FIELD_MASK 0xfull
#define RTIT_CTL_ADDR_CFG_SHIFT(n) (32 + 4 * (n))	/* bits 35:32 ... */

/* IA32_RTIT_STATUS (Table 36-7). */
#define RTIT_STATUS_FILTEREN (1ull << 0)
#define RTIT_STATUS_CONTEXTEN (1ull << 1)
#define RTIT_STATUS_TRIGGEREN (1ull << 2)
#define RTIT_STATUS_ERROR (1ull << 4)
#define RTIT_STATUS_STOPPED (1ull << 5)
#define RTIT_STATUS_PACKETBYTECNT_SHIFT 32	/* bits 48:32 */

/* IA32_RTIT_OUTPUT_MASK_PTRS in single-range mode (§36.2.7.8): bits
 * 31:0 the range's size - 1 (bits 6:0 read as 1s), bits 63:32 the
 * offset of the next byte. */
#define RTIT_MASK_LOWER 0x7full
#define RTIT_OUTPUT_OFFSET_SHIFT 32

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
extern const struct pt_caps_row pt_caps_table[];
extern const unsigned pt_caps_table_len;
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
/* Cycles a CycThresh value stands for: 0 for 0, else 2^(v-1). */
uint64_t pt_cyc_threshold_cycles(unsigned v);

/* ---- the driver (pmu/pt/driver.c): every access through the backend */

/* What to trace: BranchEn with CYC, MTC and TSC as chosen. */
struct pt_config {
	unsigned os, user;		/* trace at CPL 0 / CPL > 0 */
	unsigned cyc, cyc_thresh;	/* CYCEn, CycThresh */
	unsigned mtc, mtc_freq;		/* MTCEn, MTCFreq */
	unsigned tsc;			/* TSCEn */
	unsigned disretc;		/* DisRETC: no RET compression */
	unsigned psb_freq;		/* PSBFreq */
};

/* The IA32_RTIT_CTL value of c with TraceEn and BranchEn set, single-
 * range output; -1 with e when caps do not offer what c asks. */
int pt_ctl_for(const struct pt_caps *caps, const struct pt_config *c,
	       uint64_t *ctl, struct pmu_err *e);
/* TraceEn off, then the single-range output at base (size: a power of
 * two, at least 128 bytes), offset 0, IA32_RTIT_STATUS 0. */
int pt_setup_output(uint64_t base, uint64_t size, struct pmu_err *e);
/* Writes IA32_RTIT_CTL: tracing starts. */
int pt_start(const struct pt_config *c, struct pmu_err *e);
/* Clears TraceEn (the processor flushes what it holds). */
int pt_stop(struct pmu_err *e);
/* The output offset (bytes written since base, modulo the size). */
int pt_output_offset(uint64_t *off, struct pmu_err *e);

/* ---- the model's part (pmu/pt/model.c), called by the arch-perfmon
 * model (pmu/perfmon/model.c) */
void pt_model_reset(void);
/* 0 or a vector; 1 when msr is not a PT MSR */
int pt_model_rdmsr(uint32_t msr, uint64_t *v);
int pt_model_wrmsr(uint32_t msr, uint64_t v);
/* One traced step at model clock `clock` (already advanced for it). */
void pt_model_step(const struct insn_event *e, uint64_t clock);

#endif
