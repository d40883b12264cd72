/* pmu/p6/regs.h: the P6 family PMU's registers - Pentium Pro, Pentium II,
 * Pentium III and Pentium M (Intel SDM Vol. 3B, order no. 253669-060US,
 * §18.22 and Figure 18-60) - the generations, the counter-write rule and a
 * counter's pmu_config (pmu/p6/regs.c).  The lowest header of pmu/p6/:
 * events, driver and model build on it.  Architectural performance
 * monitoring (§18.2.1.1) keeps the PerfEvtSel and PerfCtr addresses, so
 * pmu/detect.c probes the same MSR.
 *
 * MSRs: PerfEvtSel0 0x186, PerfEvtSel1 0x187 (fields: pmu/evtsel.h),
 * PerfCtr0 0xC1, PerfCtr1 0xC2 (40 bits).
 *
 * - EN (bit 22) exists only in PerfEvtSel0 and enables both counters
 *   (§18.22.1).  USR counts at CPL 1, 2 and 3, OS at CPL 0.  AnyThread
 *   (bit 21) does not exist on the P6: reserved, as are bits 63:32.
 * - WRMSR to a counter writes EAX sign-extended from bit 31 into bits
 *   39:32; EDX is ignored (§18.22.2): only values below 2^31 and from
 *   2^40 - 2^31 up can be written.
 * - INT (bit 20): an overflow (the counter wraps from 2^40 - 1 to 0)
 *   raises a PMI through the local APIC's LVTPC (§18.22.5).  There is no
 *   overflow status register: the handler tells which counter overflowed
 *   only from the counts.
 * - RDPMC reads counters 0 and 1 at any CPL, at CPL > 0 only with CR4.PCE
 *   set (§18.22.2; Vol. 2B RDPMC). */
#ifndef PMU_P6_REGS_H
#define PMU_P6_REGS_H

#include <stdint.h>
#include "../cpu_model.h"
#include "../detect.h"
#include "../driver.h"
#include "../evtsel.h"
#include "../lbr.h"

#define P6_MSR_PERFEVTSEL0 0x186
#define P6_MSR_PERFEVTSEL1 0x187
#define P6_MSR_PERFCTR0 0xc1
#define P6_MSR_PERFCTR1 0xc2
#define P6_COUNTERS 2
#define P6_CTR_BITS 40
#define P6_CTR_MASK ((1ull << P6_CTR_BITS) - 1)

/* PerfEvtSel fields (Figure 18-60): pmu/evtsel.h's.  Reserved in both
 * PerfEvtSels: bit 21 and bits 63:32.  A WRMSR setting one raises #GP(0)
 * in the model (SDM Vol. 2B WRMSR).  Bit 22 of PerfEvtSel1 is not
 * reserved there: see pmu/p6/model.c. */
#define P6_EVTSEL_RESERVED (EVTSEL_ANY | ~0xffffffffull)

/* The P6 generations, as bits (an event lists those that have it). */
#define P6_PPRO 1u	/* Pentium Pro: family 6 model 1 */
#define P6_PII 2u	/* Pentium II, Celeron: models 3, 5, 6 */
#define P6_PIII 4u	/* Pentium III: models 7, 8, 0xA, 0xB */
#define P6_PM 8u	/* Pentium M: models 9, 0xD */
#define P6_ALL (P6_PPRO | P6_PII | P6_PIII | P6_PM)

/* The generation of a family 6 signature (a model up to 0xD the table
 * does not name: P6_PPRO, the events every P6 has), else 0. */
unsigned p6_gen_of(const struct cpu_sig *s);
const char *p6_gen_name(unsigned gen);
/* The LBRs of a P6 family CPU (the descriptor's lbr hook, pmu/lbr.h):
 * the Pentium Pro, II and III keep the last branch and the last one
 * before an interrupt or exception; the Pentium M a stack of 8. */
int p6_lbr_layout(const struct cpu_info *ci, struct lbr_layout *l,
		  const char **why);
/* IA32_DEBUGCTL bits of generation gen that the P6 model keeps: LBR (0)
 * and BTF (1) on every one (SDM Vol. 3, order no. 325384-059US,
 * §17.14.1 DebugCtlMSR of the P6, §17.13 DEBUGCTLB of the Pentium M). */
#define P6_DEBUGCTL_KEPT 0x3ull

/* RDPMC is broken on this stepping: the Pentium Pro below stepping 9
 * (Pentium Pro erratum 26, as Linux's p6_pmu_rdpmc_quirk() handles it):
 * on hardware the driver reads counters with RDMSR only. */
int p6_erratum26(const struct cpu_sig *s);
/* Whether the local APIC masks the LVTPC when it delivers the PMI: the
 * Pentium M does (Linux op_model_ppro.c and the P6 NMI watchdog re-unmask
 * it: "Only P6 based Pentium M need to re-unmask the apic vector"); the
 * Pentium Pro, II and III do not (the SDM's mask-on-delivery note, Vol.
 * 3A 10.5.1, names the Pentium 4 and Xeon, not the P6). */
int p6_masks_lvtpc(unsigned gen);

/* A counter's value after WRMSR writes v to it: EAX sign-extended from bit 31
 * to 40 bits, EDX ignored (§18.22.2). */
uint64_t p6_ctr_written(uint64_t v);
/* Can the 40-bit value v be written at all (bits 39:31 all equal)? */
int p6_ctr_writable(uint64_t v);

/* A counter's pmu_config for the P6: sel is its PerfEvtSel without EN
 * (the driver owns EN); aux is unused. */
struct pmu_config p6_config(const struct evtsel *s);

#endif
