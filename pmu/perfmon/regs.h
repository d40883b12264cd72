/* pmu/perfmon/regs.h: register layout of architectural performance monitoring,
 * versions 1 to 5 (Intel SDM Vol. 3B, order no. 253669-060US, §18.2
 * "Architectural Performance Monitoring"; CPUID leaf 0AH: Vol. 2A, CPUID
 * "Architectural Performance Monitoring Leaf"; MSR addresses: Vol. 4
 * Table 2-2 "IA-32 Architectural MSRs").  The PerfEvtSel fields are
 * pmu/evtsel.h's, shared with the P6 family.
 *
 * What each version adds (§18.2.1-§18.2.5):
 *   v1 GP counters IA32_PMCx / IA32_PERFEVTSELx, their number and width
 *      and the architectural events from CPUID.0AH (EBX bit set: event
 *      NOT available);
 *   v2 fixed-function counters (IA32_FIXED_CTRx, IA32_FIXED_CTR_CTRL),
 *      IA32_PERF_GLOBAL_CTRL, _STATUS, _OVF_CTRL; IA32_DEBUGCTL bit 12
 *      freezes the counters on a PMI by clearing GLOBAL_CTRL;
 *   v3 AnyThread (PerfEvtSel bit 21, FIXED_CTR_CTRL bit 2 + 4n);
 *   v4 GLOBAL_STATUS_RESET (the old OVF_CTRL address), _SET, _INUSE; the
 *      PMI freeze sets GLOBAL_STATUS.CTR_FRZ (bit 59) instead of
 *      clearing GLOBAL_CTRL, and counters stay frozen while it is set;
 *   v5 CPUID.0AH:ECX fixed-counter bitmap (fixed counter i exists when
 *      ECX[i] is set or EDX[4:0] > i), EDX[15] AnyThread deprecated.
 *
 * The lowest header of pmu/perfmon/: the MSRs and their bits, the
 * capabilities type every unit of the folder works with (caps.h says
 * where the capabilities in force come from), and regs.c's version rules
 * over it.
 */
#ifndef PMU_PERFMON_REGS_H
#define PMU_PERFMON_REGS_H

#include <stdint.h>
#include "../evtsel.h"
#include "../../arch/x86/msr.h"	/* IA32_DEBUGCTL, IA32_PERF_CAPABILITIES */

#define PERFMON_MAX_GP 8	/* IA32_PERFEVTSEL0-7 0x186-0x18D (Vol. 4) */
#define PERFMON_MAX_FIXED 4	/* IA32_FIXED_CTR0-3 0x309-0x30C */

#define MSR_IA32_PMC(n) (0xc1u + (n))
#define MSR_IA32_PERFEVTSEL(n) (0x186u + (n))
#define MSR_IA32_A_PMC(n) (0x4c1u + (n))	/* full-width writes */
#define MSR_IA32_FIXED_CTR(n) (0x309u + (n))
#define MSR_IA32_FIXED_CTR_CTRL 0x38du
#define MSR_IA32_PERF_GLOBAL_STATUS 0x38eu
#define MSR_IA32_PERF_GLOBAL_CTRL 0x38fu
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL 0x390u	/* v2, v3 */
#define MSR_IA32_PERF_GLOBAL_STATUS_RESET 0x390u	/* v4+ */
#define MSR_IA32_PERF_GLOBAL_STATUS_SET 0x391u	/* v4+ */
#define MSR_IA32_PERF_GLOBAL_INUSE 0x392u	/* v4+ */
/* TopDown metrics where PERF_CAPABILITIES bit 15 (SDM Vol. 4 Table 2-2
 * MSR_PERF_METRICS): not modelled, so the model raises #GP on it. */
#define MSR_PERF_METRICS 0x329u

/* IA32_DEBUGCTL (Vol. 3B §17.4.1, Figure 17-3). */
#define DEBUGCTL_LBR (1ull << 0)
#define DEBUGCTL_BTF (1ull << 1)
#define DEBUGCTL_FREEZE_PERFMON_ON_PMI (1ull << 12)
#define DEBUGCTL_FREEZE_LBRS_ON_PMI (1ull << 11)

/* IA32_FIXED_CTR_CTRL (§18.2.2, Figure 18-2): four bits per counter n at
 * 4n: bits 1:0 enable (0 off, 1 OS, 2 USR, 3 all rings), bit 2 AnyThread
 * (v3+), bit 3 PMI on overflow. */
#define FIXED_CTRL_BITS 4
#define FIXED_CTRL_OS 1u
#define FIXED_CTRL_USR 2u
#define FIXED_CTRL_ANY 4u
#define FIXED_CTRL_PMI 8u
#define FIXED_CTRL_FIELD(ctrl, n) ((unsigned)((ctrl) >> (4 * (n))) & 0xf)

/* The Adaptive_Record bits, where PERF_CAPABILITIES.PEBS_BASELINE (PEBS
 * record formats 4-5; SDM Vol. 3B, the adaptive PEBS section, as
 * pebs/regs.h cites it): PerfEvtSel bit 34, and bit 32 + 4n of
 * IA32_FIXED_CTR_CTRL for fixed counter n.
 * Register bits, so here and not in pebs/regs.h: the version rules
 * below say when they are valid. */
#define EVTSEL_ADAPTIVE (1ull << 34)
#define FIXED_CTRL_ADAPTIVE_SHIFT 32	/* + 4n */

/* IA32_PERF_GLOBAL_CTRL / _STATUS (§18.2.2, Figures 18-3, 18-4; v4
 * additions §18.2.4, Figure 18-7): bit n GP counter n, bit 32 + n fixed
 * counter n. */
#define GLOBAL_FIXED_SHIFT 32
#define GLOBAL_STATUS_TRACE_TOPA_PMI (1ull << 55)
#define GLOBAL_STATUS_LBR_FRZ (1ull << 58)
#define GLOBAL_STATUS_CTR_FRZ (1ull << 59)
#define GLOBAL_STATUS_ASCI (1ull << 60)
#define GLOBAL_STATUS_OVF_UNCORE (1ull << 61)
#define GLOBAL_STATUS_OVF_BUF (1ull << 62)	/* DS buffer (PEBS/BTS) */
#define GLOBAL_STATUS_COND_CHGD (1ull << 63)

/* IA32_PERF_CAPABILITIES (Vol. 3B §18.6.2.4 / Vol. 4 Table 2-2, present
 * when CPUID.01H:ECX.PDCM[15] = 1). */
#define PERF_CAP_LBR_FMT_MASK 0x3full
#define PERF_CAP_PEBS_TRAP (1ull << 6)
#define PERF_CAP_PEBS_ARCH_REG (1ull << 7)
#define PERF_CAP_PEBS_FMT_SHIFT 8
#define PERF_CAP_PEBS_FMT_MASK (0xfull << PERF_CAP_PEBS_FMT_SHIFT)
#define PERF_CAP_SMM_FREEZE (1ull << 12)
#define PERF_CAP_FW_WRITE (1ull << 13)
#define PERF_CAP_PEBS_BASELINE (1ull << 14)
#define PERF_CAP_PERF_METRICS (1ull << 15)

/* RDPMC's ECX (Vol. 2B RDPMC): bit 30 selects the fixed counters. */
#define RDPMC_FIXED (1u << 30)

/* CPUID.0AH (Vol. 2A). */
#define CPUID0A_EDX_ANY_DEPRECATED (1u << 15)

/* The architectural events (§18.2.1.2, Table 18-1): EBX bit i set means
 * event i is not available; only the first EAX[31:24] bits are defined. */
enum perfmon_arch_event {
	ARCH_EV_CORE_CYCLES,		/* 3CH/00H UnHalted Core Cycles */
	ARCH_EV_INSTRUCTIONS,		/* C0H/00H Instructions Retired */
	ARCH_EV_REF_CYCLES,		/* 3CH/01H UnHalted Reference Cycles */
	ARCH_EV_LLC_REFERENCES,		/* 2EH/4FH LLC Reference */
	ARCH_EV_LLC_MISSES,		/* 2EH/41H LLC Misses */
	ARCH_EV_BRANCHES,		/* C4H/00H Branch Instruction Retired */
	ARCH_EV_BRANCH_MISSES,		/* C5H/00H Branch Misses Retired */
	ARCH_EV_TOPDOWN_SLOTS,		/* A4H/01H Topdown Slots */
	ARCH_EV_NR
};

/* The microarchitecture of a capability row (caps_table.c), by the SDM
 * Vol. 3B chapter 18 section that describes its PMU: what CPUID.0AH and
 * IA32_PERF_CAPABILITIES do not say (which PEBS_ENABLE bits exist, which
 * events are precise on which counter) follows it.  Ivy Bridge goes with
 * Sandy Bridge, Broadwell with Haswell (their sections say the PMU is
 * the same).  UNKNOWN: a CPU without a row (CPUID-decoded capabilities
 * of a CPU the table does not know).  The Atom and Xeon Phi ones come
 * last, after the big cores, so that no range of the precise-event
 * table (pebs/events.c, uarch_lo..uarch_hi) takes them in: Tremont's
 * precise events are rows of their own there, and the model has none of
 * the others' PEBS rules (perfmon_uarch_pebs_modelled()). */
enum perfmon_uarch {
	PERFMON_UARCH_UNKNOWN,
	PERFMON_UARCH_YONAH,		/* Core Solo / Core Duo */
	PERFMON_UARCH_CORE,		/* Core 2 (Conroe, Penryn) */
	PERFMON_UARCH_NEHALEM,
	PERFMON_UARCH_WESTMERE,
	PERFMON_UARCH_SANDY_BRIDGE,	/* and Ivy Bridge */
	PERFMON_UARCH_HASWELL,		/* and Broadwell */
	PERFMON_UARCH_SKYLAKE,		/* client and server */
	PERFMON_UARCH_ICE_LAKE,
	PERFMON_UARCH_SAPPHIRE_RAPIDS,
	PERFMON_UARCH_BONNELL,		/* Atom 45 nm (Diamondville) */
	PERFMON_UARCH_GOLDMONT,		/* Atom C3000 (Denverton) */
	PERFMON_UARCH_TREMONT,		/* Atom (Snow Ridge) */
	PERFMON_UARCH_KNIGHTS,		/* Xeon Phi (Knights Landing/Mill) */
};

/*
 * What a PMU offers: from CPUID.0AH (and IA32_PERF_CAPABILITIES) of the
 * CPU, or, where CPUID reports nothing (QEMU under TCG), from the row of
 * the capability table (pmu/perfmon/caps_table.c) for the CPU the model
 * stands in for (pmu/perfmon/caps.c decides).  source says which: the
 * "# pmu:" line prints caps=cpuid or caps=model:<name>, and never claims
 * CPUID said what it did not.
 */
struct perfmon_caps {
	unsigned version;
	unsigned gp, gp_width;
	uint32_t fixed_mask;		/* bit i: fixed counter i exists */
	unsigned fixed, fixed_width;	/* EDX[4:0] (contiguous count), width */
	unsigned ebx_len;		/* EAX[31:24] */
	uint32_t events_unavail;	/* EBX */
	int any_deprecated;		/* v5: EDX[15] */
	int has_perf_caps;		/* IA32_PERF_CAPABILITIES exists */
	uint64_t perf_caps;
	const char *source;		/* "cpuid" or "model:<name>" */
	enum perfmon_uarch uarch;	/* the row's (family/model) */
	int ds;				/* CPUID.01H:EDX.DS[21]: the DS save
					 * area, BTS and PEBS */
	int ds_cpl;			/* CPUID.01H:ECX.DS-CPL[4]: CPL-
					 * qualified BTS (BTS_OFF_OS/USR) */
	/* Architectural LBRs (CPUID.(EAX=07H,ECX=0):EDX[19]), and CPUID.1CH
	 * EAX, EBX, ECX where they are (pmu/lbr.h) */
	int arch_lbr;
	uint32_t lbr_1c[3];
};

/* Decodes CPUID.0AH as the SDM says, per version: fixed counters only
 * from v2 (EDX), the fixed-counter bitmap and AnyThread deprecation only
 * from v5 (ECX, EDX[15]).  source is stored as given. */
void perfmon_caps_decode(uint32_t eax, uint32_t ebx, uint32_t ecx,
			 uint32_t edx, struct perfmon_caps *c);


/* ---- the version rules (regs.c): which register bits, counters and
 * events a PMU with capabilities c has.  Pure logic: host-tested. */

/* Does architectural event ev exist: within EBX's length, EBX bit clear? */
int perfmon_event_available(const struct perfmon_caps *c,
			    enum perfmon_arch_event ev);
int perfmon_fixed_exists(const struct perfmon_caps *c, unsigned n);
/* AnyThread may be set: v3 or later, not deprecated (v5 EDX[15]). */
int perfmon_any_allowed(const struct perfmon_caps *c);
/* PerfEvtSel bits a WRMSR may set on this PMU (others: #GP). */
uint64_t perfmon_evtsel_valid(const struct perfmon_caps *c);
/* FIXED_CTR_CTRL bits that exist (fields of existing counters; ANY only
 * where allowed; PMI from v2). */
uint64_t perfmon_fixed_ctrl_valid(const struct perfmon_caps *c);
/* GLOBAL_CTRL / GLOBAL_STATUS bits for the counters that exist. */
uint64_t perfmon_global_counters(const struct perfmon_caps *c);
/* Bits of GLOBAL_STATUS that GLOBAL_OVF_CTRL / STATUS_RESET may clear
 * (and, v4, STATUS_SET may set). */
uint64_t perfmon_status_bits(const struct perfmon_caps *c);
/* Has a PMU with capabilities c PEBS, as a capability row states it:
 * version 2 or later with IA32_PERF_CAPABILITIES (whose format field
 * then says which records; Core 2, PEBS format 0, is the first), of a
 * microarchitecture whose PEBS the model has (below).  On
 * hardware IA32_MISC_ENABLE bit 12 answers; the model (ds/model.c) and
 * the lab's listing of a row (tools/lab/pmu_events.c) ask this. */
int perfmon_caps_pebs(const struct perfmon_caps *c);
/* Has the model the PEBS rules of microarchitecture u (its arming, its
 * records, its precise events and counters)?  The big cores' (Core 2 to
 * Sapphire Rapids) and Tremont's (adaptive PEBS, format 4 with
 * PEBS_BASELINE, on PMC0-3 and the fixed counters; reduced skid on PMC0
 * and fixed counter 0: pebs/events.h pebs_overflow_record_counters()).
 * Not Bonnell, Goldmont and Knights Landing/Mill, whose PEBS sections
 * (Bonnell's and Knights Landing's PEBS on PMC0, Goldmont's format 3
 * with reduced skid on PMC0 alone) nothing here implements: a capability
 * row of theirs advertises no PEBS (docs/pebs.md).  UNKNOWN (a stand-in,
 * or CPUID caps without a row) answers 1: its record format decides. */
int perfmon_uarch_pebs_modelled(enum perfmon_uarch u);
/* The PEBS record format of IA32_PERF_CAPABILITIES[11:8] (0 without). */
unsigned perfmon_pebs_format(const struct perfmon_caps *c);
/* Extended PEBS with adaptive records (PERF_CAPABILITIES bit 14 with
 * format 4 or later): PEBS on every counter, the Adaptive_Record bits
 * (PerfEvtSel bit 34, FIXED_CTR_CTRL bit 32 + 4i; pmu/perfmon/pebs/regs.h). */
int perfmon_pebs_baseline(const struct perfmon_caps *c);
/* IA32_PERF_CAPABILITIES[6] PEBS_TRAP: 1 when a PEBS record is written
 * after the sampled instruction retired (trap-like: RIP is the next
 * instruction's, the registers the state after it), 0 without the MSR. */
int perfmon_pebs_trap(const struct perfmon_caps *c);
/* Full-width writes through IA32_A_PMCx (PERF_CAPABILITIES bit 13). */
int perfmon_full_width(const struct perfmon_caps *c);

#endif
