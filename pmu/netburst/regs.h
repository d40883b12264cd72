/* pmu/netburst/regs.h: the Pentium 4 / Xeon (NetBurst microarchitecture,
 * family 15) PMU's register layout - counters, CCCRs and ESCRs as masks and
 * shifts, the ESCR table and the CCCR ESCR-select mapping, cascade pairs,
 * the per-model rules and the CCCR's threshold filter (pmu/netburst/regs.c).
 * The lowest header of the folder: the event table (events.h), the driver
 * (driver.h) and the model (model.c) all build on it.
 *
 * Citations: Intel SDM Vol. 3B, order no. 253669-060US (September 2016):
 * §18.15 "Performance monitoring (processors based on Intel NetBurst
 * microarchitecture)", §18.15.2 counters, §18.15.3 CCCRs (Figure 18-46),
 * §18.15.1 ESCRs (Figure 18-45), §18.15.5.5 halting, §18.15.5.6
 * cascading, §18.15.5.7 extended cascading, §18.16.1-2 the ESCR and CCCR
 * with Hyper-Threading (Figures 18-47, 18-48), Table 18-63 "Performance
 * Counter MSRs and Associated CCCR and ESCR MSRs".  Older editions number
 * the same sections §18.18.x (§18.18.6.5 halting, §18.18.6.6 cascading).
 * The events are events.h's.
 *
 * The layout follows Linux's asm/perf_event_p4.h in style (fields as
 * masks and shifts, the ESCRs as a table); the facts are the SDM's.
 *
 * Counters: 18 of 40 bits at 0x300-0x311; counter n is controlled by the
 * CCCR at 0x360 + n.  Four blocks: BPU 0-3, MS 4-7, FLAME 8-11, IQ 12-17.
 * A CCCR's ESCR-select field picks one ESCR among those its block's
 * counters can use; ESCR0 of a pair feeds the first half of the block's
 * counters ({0,1} {4,5} {8,9} {12,13,16}), ESCR1 the second ({2,3} {6,7}
 * {10,11} {14,15,17}).
 *
 * Threads: with Hyper-Threading the ESCR's T0_OS/T0_USR qualify logical
 * processor 0's events, T1_OS/T1_USR logical processor 1's; without it
 * bits 3/2 are OS/USR and bits 1:0 are reserved (Figure 18-45).  The PMU is
 * one per physical core, shared by both logical processors. */
#ifndef PMU_NETBURST_REGS_H
#define PMU_NETBURST_REGS_H

#include <stdint.h>
#include "../cpu_model.h"
#include "../detect.h"
#include "../lbr.h"

#define NB_COUNTERS 18
#define NB_CTR_BITS 40
#define NB_CTR_MASK ((1ull << NB_CTR_BITS) - 1)
#define NB_MSR_COUNTER0 0x300	/* MSR_BPU_COUNTER0 .. MSR_IQ_COUNTER5 */
#define NB_MSR_CCCR0 0x360	/* MSR_BPU_CCCR0 .. MSR_IQ_CCCR5 */
#define NB_ESCRS 45		/* with IQ_ESCR0/1; there is no SSU_ESCR1 */
#define NB_ESCR_FIRST 0x3a0	/* MSR_BSU_ESCR0 */
#define NB_ESCR_LAST 0x3e1	/* MSR_CRU_ESCR5 */

#define NB_MSR_CRU_ESCR0 0x3b8
#define NB_MSR_CRU_ESCR1 0x3b9
#define NB_MSR_CRU_ESCR2 0x3cc
#define NB_MSR_CRU_ESCR3 0x3cd
#define NB_MSR_FSB_ESCR0 0x3a2
#define NB_MSR_FSB_ESCR1 0x3a3
#define NB_MSR_TBPU_ESCR0 0x3c2
#define NB_MSR_TBPU_ESCR1 0x3c3
#define NB_MSR_IQ_ESCR0 0x3ba	/* models 0-2 only */
#define NB_MSR_IQ_ESCR1 0x3bb
#define NB_MSR_SSU_ESCR0 0x3be

/* instr_retired: CRU_ESCR0/1 event select 02H (the event table's row,
 * events.c, and the core's probe of the PMU, pmu/detect.c). */
#define NB_EVENT_INSTR_RETIRED 0x02

/* IA32_MISC_ENABLE (SDM Vol. 4 Table 2-2 / Table 2-53): bit 7
 * "Performance Monitoring Available", bit 11 BTS unavailable, bit 12 PEBS
 * unavailable. */
#define NB_MSR_MISC_ENABLE 0x1a0
#define NB_MISC_PERFMON (1ull << 7)
#define NB_MISC_BTS_UNAVAIL (1ull << 11)
#define NB_MISC_PEBS_UNAVAIL (1ull << 12)

/* ---- ESCR (Figures 18-45, 18-47) */
#define NB_ESCR_T1_USR (1ull << 0)
#define NB_ESCR_T1_OS (1ull << 1)
#define NB_ESCR_T0_USR (1ull << 2)	/* without HT: USR */
#define NB_ESCR_T0_OS (1ull << 3)	/* without HT: OS */
#define NB_ESCR_TAG_ENABLE (1ull << 4)
#define NB_ESCR_TAG_SHIFT 5
#define NB_ESCR_TAG_MASK (0xfull << NB_ESCR_TAG_SHIFT)
#define NB_ESCR_EMASK_SHIFT 9
#define NB_ESCR_EMASK_MASK (0xffffull << NB_ESCR_EMASK_SHIFT)
#define NB_ESCR_EVENT_SHIFT 25
#define NB_ESCR_EVENT_MASK (0x3full << NB_ESCR_EVENT_SHIFT)
/* bit 31 and bits 63:32 are reserved on every model */
#define NB_ESCR_RESERVED (~0x7fffffffull)
#define NB_ESCR_T1_BITS (NB_ESCR_T1_USR | NB_ESCR_T1_OS)
#define NB_ESCR_T0_BITS (NB_ESCR_T0_USR | NB_ESCR_T0_OS)

/* ---- CCCR (Figures 18-46, 18-48) */
#define NB_CCCR_EXT_CASCADE (1ull << 11)	/* §18.15.5.7, see below */
#define NB_CCCR_ENABLE (1ull << 12)
#define NB_CCCR_ESCR_SEL_SHIFT 13
#define NB_CCCR_ESCR_SEL_MASK (0x7ull << NB_CCCR_ESCR_SEL_SHIFT)
#define NB_CCCR_ACTIVE_SHIFT 16
#define NB_CCCR_ACTIVE_MASK (0x3ull << NB_CCCR_ACTIVE_SHIFT)
#define NB_CCCR_COMPARE (1ull << 18)
#define NB_CCCR_COMPLEMENT (1ull << 19)
#define NB_CCCR_THRESHOLD_SHIFT 20
#define NB_CCCR_THRESHOLD_MASK (0xfull << NB_CCCR_THRESHOLD_SHIFT)
#define NB_CCCR_EDGE (1ull << 24)
#define NB_CCCR_FORCE_OVF (1ull << 25)
#define NB_CCCR_OVF_PMI_T0 (1ull << 26)	/* without HT: OVF_PMI */
#define NB_CCCR_OVF_PMI_T1 (1ull << 27)	/* HT only; reserved without */
#define NB_CCCR_CASCADE (1ull << 30)
#define NB_CCCR_OVF (1ull << 31)
/* Reserved on every model: bits 10:0, 29:28 and 63:32 (bit 11 is the
 * extended-cascade bit where nb_ext_cascade_exists() says so, else
 * reserved too; bit 27 is reserved without HT). */
#define NB_CCCR_RESERVED (0x300007ffull | ~0xffffffffull)

/* Active thread (§18.16.2): which logical processors must be active for
 * the counter to count.  A halted logical processor, or one waiting for
 * a SIPI, is inactive.  Without HT the field is reserved and "must be set
 * to 11B" (Figure 18-46). */
enum nb_active {
	NB_ACTIVE_NONE = 0,	/* neither logical processor active */
	NB_ACTIVE_SINGLE = 1,	/* exactly one active */
	NB_ACTIVE_BOTH = 2,	/* both active */
	NB_ACTIVE_ANY = 3,	/* either active */
};

struct nb_escr_fields {
	unsigned event, emask, tag_value;
	unsigned tag_enable, t0_os, t0_usr, t1_os, t1_usr;
};

struct nb_cccr_fields {
	unsigned enable, escr_sel, active, compare, complement, threshold;
	unsigned edge, force_ovf, ovf_pmi_t0, ovf_pmi_t1, cascade, ovf;
	unsigned ext_cascade;
};

uint64_t nb_escr_encode(const struct nb_escr_fields *f);
void nb_escr_decode(uint64_t v, struct nb_escr_fields *f);
uint64_t nb_cccr_encode(const struct nb_cccr_fields *f);
void nb_cccr_decode(uint64_t v, struct nb_cccr_fields *f);

/* ---- the ESCRs and the CCCR ESCR-select field (Table 18-63) */

enum nb_block { NB_BPU, NB_MS, NB_FLAME, NB_IQ };

struct nb_escr {
	const char *name;	/* "CRU_ESCR0": the SDM's MSR_ name without
				 * the prefix */
	uint32_t msr;
	uint8_t block;		/* enum nb_block */
	uint8_t select;		/* the CCCR ESCR-select value naming it */
	uint8_t half;		/* 0: feeds the block's first counters
				 * (ESCR0 side), 1: the second */
	uint8_t iq_only_early;	/* IQ_ESCR0/1: models 0-2 only */
};

extern const struct nb_escr nb_escrs[NB_ESCRS];

/* The block a counter is in (ctr < NB_COUNTERS). */
enum nb_block nb_block_of(unsigned ctr);
const char *nb_block_name(enum nb_block b);
/* 0 when ctr takes events from an ESCR0 (first half of its block), 1 from
 * an ESCR1. */
unsigned nb_ctr_half(unsigned ctr);
/* Does this CPU (model) have the ESCR?  IQ_ESCR0/1 exist on models 0-2
 * only (SDM Table 18-63 note; perfctr and Linux agree). */
int nb_escr_exists(const struct nb_escr *x, const struct cpu_sig *s);
/* The ESCR that CCCR ESCR-select value sel names for counter ctr on this
 * model, or NULL (no such select in the block, the ESCR0-only SSU on a
 * second-half counter, IQ_ESCR on models 3+).  The select 2/3 mappings of
 * CCCRs 12, 13 and 16 (RAT 2, SSU 3) are the corrected ones: editions of
 * Vol. 3 before order no. 245472-007 had them swapped. */
const struct nb_escr *nb_escr_for(unsigned ctr, unsigned sel,
				  const struct cpu_sig *s);
/* The ESCR at an MSR address (whatever the model), or NULL. */
const struct nb_escr *nb_escr_at(uint32_t msr);
/* ESCRs this model has: 45, or 43 without the IQ pair. */
unsigned nb_escr_count(const struct cpu_sig *s);

/* ---- cascading (§18.15.5.6) */

/* The counter whose overflow starts ctr when ctr's CCCR has CASCADE set:
 * 0<->2, 1<->3, 4<->6, 5<->7, 8<->10, 9<->11, 12<->14, 13<->15 in either
 * order, 16 from 14 and 17 from 15 only; -1 for none (never happens for
 * 0-17, every counter has one alternate).  Nothing crosses a block. */
int nb_cascade_from(unsigned ctr);
/* Is cascading from counter `from` into counter `to` legal? */
int nb_cascade_legal(unsigned from, unsigned to);

/* Extended cascading (CCCR bit 11, §18.15.5.7): models 2, 3, 4 and 6
 * (DisplayFamily_DisplayModel 0F_02, 0F_03, 0F_04, 0F_06), on the IQ
 * CCCRs 12, 15, 16 and 17 (the CASCNTxINTOy bits; Example 18-2 sets it
 * in IQ_CCCR0 as CASCNT4INTO0).  Elsewhere bit 11 is reserved. */
int nb_ext_cascade_exists(unsigned ctr, const struct cpu_sig *s);
/* The counter whose overflow starts ctr when ctr's CCCR has bit 11 set,
 * -1 for none.  Table 18-65 "CCR Names and Bit Positions" names the bit
 * CASCNTxINTOy, "allow counter x to cascade into counter y", x and y
 * numbering the IQ block's counters (IQ_COUNTER0-5 are counters 12-17,
 * Table 18-63): CASCNT4INTO0 in IQ_CCCR0 (16 -> 12), CASCNT5INTO3 in
 * IQ_CCCR3 (17 -> 15), CASCNT5INTO4 in IQ_CCCR4 (17 -> 16), CASCNT4INTO5
 * in IQ_CCCR5 (16 -> 17).  Example 18-2 agrees: counter 16 preset to
 * FFFFF000H starts counter 12, whose IQ_CCCR0 = 04038800H sets bit 11
 * with ENABLE and CASCADE clear. */
int nb_ext_cascade_from(unsigned ctr);

/* The erratum "performance counters do not generate PMI in cascade mode
 * or extended cascade mode" (§18.15.5.7): 0F_02, and 0F_00/0F_01 with
 * stepping above 09H. */
int nb_cascade_pmi_erratum(const struct cpu_sig *s);

/* ---- Hyper-Threading */

/* Two logical processors share this core's PMU: nb_threads() >= 2. */
int nb_has_ht(const struct cpu_info *ci);
/* Logical processors per core: CPUID.01H:EBX[23:16] (with EDX.HTT; else
 * 1) divided by the cores per package of CPUID.04H (cpu_info's
 * cores_per_package; SDM Vol. 3A §8.6.2, Vol. 2A CPUID).  A Pentium D
 * (2 logical processors, 2 cores) has 1: no Hyper-Threading; its second
 * core has a PMU of its own. */
unsigned nb_threads(const struct cpu_info *ci);
/* The logical processor (0 or 1: T0 or T1 of the ESCR and CCCR) that ci's
 * processor is: the SMT ID, the lowest bit of its initial APIC ID
 * CPUID.01H:EBX[31:24] when two logical processors share the package
 * (SDM Vol. 3A §8.4.5 "Identifying Logical Processors in an MP System",
 * §8.9; perfctr reads it the same way); 0 without Hyper-Threading.  ci
 * is the bootstrap processor's CPUID (pmu/detect.c): the BSP need not be
 * logical processor 0. */
unsigned nb_bsp_thread(const struct cpu_info *ci);

/* ---- the CCCR's compare/complement/threshold/edge (§18.15.3, §18.15.6.2)
 * The ESCR delivers an event count per clock; with COMPARE set the CCCR
 * compares it with THRESHOLD - greater than, or with COMPLEMENT less than
 * or equal - and the counter counts 1 for a clock whose comparison holds
 * (with EDGE: for a clock where it became true after a clock where it
 * was false).  Without COMPARE the count goes to the counter as is. */
struct nb_edge {
	uint8_t last;		/* the comparison's output last clock */
};
/* What the counter adds in one clock in which the ESCR delivered n. */
uint64_t nb_cccr_filter(uint64_t cccr, struct nb_edge *st, uint64_t n);

/* ---- the ESCR's thread bits (§18.16.1, Figure 18-47) */

/* Does ESCR value escr count at a CPL on a thread (0 or 1)?  Without HT
 * (ht = 0) bits 3/2 are OS/USR and thread must be 0. */
int nb_escr_counts_at(uint64_t escr, unsigned thread, unsigned cpl, int ht);

/* The LBRs of a Pentium 4 or Xeon (the descriptor's lbr hook, pmu/lbr.h;
 * regs.c cites the layout). */
int nb_lbr_layout(const struct cpu_info *ci, struct lbr_layout *l,
		  const char **why);
/* IA32_DEBUGCTL (DEBUGCTLA) bits the NetBurst model keeps: LBR (0) and
 * BTF (1); its TR, BTS and BTINT bits (2-4) and BTS_OFF_* (5, 6) it does
 * not model. */
#define NB_DEBUGCTL_KEPT 0x3ull

#endif
