/* perfmon_test: the architectural-perfmon facts the perfmon/ tests share,
 * written out from the SDM rather than taken from the driver, the model
 * or their tables (pmu/perfmon/events.c, caps.c, regs.h), so that a wrong
 * reading there cannot make an expectation wrong too:
 *   - the architectural events (Vol. 3B, order no. 253669-060US,
 *     §18.2.1.2, Table 18-1) and what each fixed counter counts (§18.2.2
 *     Table 18-2, §18.2.5 for FIXED_CTR3), with what each means in the
 *     oracle's semantic counts (pmu/sem.h, the shared truth);
 *   - CPUID.0AH as the SDM reads it (Vol. 2A, order no. 253666, CPUID
 *     leaf 0AH; Vol. 3B §18.2.1-§18.2.5): version, counters, widths,
 *     EBX's unavailable events, the fixed counters, AnyThread;
 *   - the MSR addresses (Vol. 4, order no. 335592, Table 2-2) and the
 *     bits of GLOBAL_STATUS / DEBUGCTL the tests check;
 *   - PerfEvtSel (Figure 18-1) and FIXED_CTR_CTRL (Figure 18-2).
 * Running and comparing is harness/pmu_run.h's.  What this header declares
 * is defined in perfmon_events.c (the events' tables), perfmon_cpuid.c
 * (CPUID.0AH read), perfmon_ready.c (the driver, or SKIP),
 * perfmon_expect.c (what a counter should count, checked) and
 * perfmon_run.c (a run's setup). */
#ifndef TESTS_PERFMON_PERFMON_TEST_H
#define TESTS_PERFMON_PERFMON_TEST_H

#include "../../harness/pmu_run.h"
#include "../../harness/need.h"
#include "../../bench/bench.h"
#include "../../pmu/backend.h"
#include "../../pmu/detect.h"
#include "../../pmu/sem.h"
#include "../../pmu/perfmon/caps.h"
#include "../../pmu/perfmon/caps_table.h"
#include "../../pmu/perfmon/driver.h"
#include "../../arch/x86/trap.h"
#include "evtsel_sdm.h"

/* ---- MSRs (Vol. 4 Table 2-2) */
#define PM_MSR_PMC(n) (0xc1u + (n))		/* IA32_PMC0 0C1H */
#define PM_MSR_PERFEVTSEL(n) (0x186u + (n))	/* IA32_PERFEVTSEL0 186H */
#define PM_MSR_A_PMC(n) (0x4c1u + (n))		/* IA32_A_PMC0 4C1H */
#define PM_MSR_FIXED_CTR(i) (0x309u + (i))	/* IA32_FIXED_CTR0 309H */
#define PM_MSR_FIXED_CTR_CTRL 0x38du
#define PM_MSR_GLOBAL_STATUS 0x38eu
#define PM_MSR_GLOBAL_CTRL 0x38fu
/* 390H: IA32_PERF_GLOBAL_OVF_CTRL in v2/v3; v4 renames the same address
 * IA32_PERF_GLOBAL_STATUS_RESET (§18.2.4, Figure 18-8) */
#define PM_MSR_GLOBAL_OVF_CTRL 0x390u
#define PM_MSR_GLOBAL_STATUS_RESET 0x390u
#define PM_MSR_GLOBAL_STATUS_SET 0x391u		/* v4 (Figure 18-9) */
#define PM_MSR_GLOBAL_INUSE 0x392u		/* v4 (Figure 18-10) */
#define PM_MSR_DEBUGCTL 0x1d9u
#define PM_MSR_PERF_CAPABILITIES 0x345u
#define PM_MAX_GP 8		/* IA32_PERFEVTSEL0-7: 186H-18DH */
#define PM_MAX_FIXED 4		/* IA32_FIXED_CTR0-3: 309H-30CH */

/* GLOBAL_CTRL/STATUS (Figures 18-3, 18-4): bit n PMCn, bit 32 + i
 * FIXED_CTRi; v4 GLOBAL_STATUS bit 59 CTR_FRZ (Figure 18-7). */
#define PM_GLOBAL_PMC(n) (1ull << (n))
#define PM_GLOBAL_FIXED(i) (1ull << (32 + (i)))
#define PM_STATUS_CTR_FRZ (1ull << 59)
#define PM_STATUS_COND_CHGD (1ull << 63)
/* IA32_DEBUGCTL bit 12 FREEZE_PERFMON_ON_PMI (Vol. 3B §17.4.1) */
#define PM_DEBUGCTL_FREEZE_PERFMON_ON_PMI (1ull << 12)
/* RDPMC ECX bit 30 selects the fixed counters (Vol. 2B RDPMC) */
#define PM_RDPMC_FIXED (1u << 30)
/* IA32_PERF_CAPABILITIES bit 13 FW_WRITE: IA32_A_PMCx (§18.2.6) */
#define PM_PERF_CAP_FW_WRITE (1ull << 13)

/* ---- the architectural events, Table 18-1, by their CPUID.0AH:EBX
 * bit, and what each counts in the oracle's terms (0: nothing the
 * single-step trace sees; why_not says why).  Instruction Retired counts
 * a REP string instruction once ("the retirement of the instruction",
 * not its iterations); Branch Instruction Retired counts branch
 * instructions at retirement, near and far; the core clock is the model
 * clock, the reference clock SEM_REF_PER_CLOCK per model cycle
 * (pmu/sem.h). */
enum pm_arch_event {
	PM_EV_CORE_CYCLES,	/* EBX bit 0: 3CH/00H */
	PM_EV_INSTRUCTIONS,	/* bit 1: C0H/00H */
	PM_EV_REF_CYCLES,	/* bit 2: 3CH/01H */
	PM_EV_LLC_REFERENCES,	/* bit 3: 2EH/4FH */
	PM_EV_LLC_MISSES,	/* bit 4: 2EH/41H */
	PM_EV_BRANCHES,		/* bit 5: C4H/00H */
	PM_EV_BRANCH_MISSES,	/* bit 6: C5H/00H */
	PM_EV_TOPDOWN_SLOTS,	/* bit 7: A4H/01H (§18.2.5) */
	PM_EV_NR
};

struct pm_event {
	const char *name;
	uint8_t event, umask;
	uint32_t sem;
	const char *why_not;
};

/* Table 18-1's events, by enum pm_arch_event (perfmon_events.c). */
extern const struct pm_event pm_events[PM_EV_NR];
/* The architectural event each fixed counter counts (Table 18-2, and
 * §18.2.5 for FIXED_CTR3: perfmon_events.c). */
extern const enum pm_arch_event pm_fixed_counts[PM_MAX_FIXED];

/* The architectural event an event select / unit mask names, or NULL. */
const struct pm_event *pm_event_for(unsigned event, unsigned umask);

/* ---- CPUID.0AH as the SDM reads it */
struct pm_cpuid {
	uint32_t eax, ebx, ecx, edx;
};

struct pm_sdm {
	struct pm_cpuid k;
	unsigned version;		/* EAX[7:0] */
	unsigned gp, gp_width;		/* EAX[15:8], EAX[23:16] */
	unsigned ebx_len;		/* EAX[31:24]: EBX bits defined */
	unsigned n_fixed, fixed_width;	/* v2+: EDX[4:0], EDX[12:5] */
	unsigned fixed[PM_MAX_FIXED];	/* fixed counter i exists */
	unsigned globals;		/* v2+: GLOBAL_CTRL/STATUS/OVF_CTRL */
	unsigned v4;			/* STATUS_RESET/SET, INUSE, CTR_FRZ */
	unsigned any;			/* AnyThread may be set */
	unsigned any_deprecated;	/* v5: EDX[15] */
	uint64_t perf_caps;		/* IA32_PERF_CAPABILITIES, 0 without */
};

/* CPUID.0AH's registers k as the SDM reads them (perfmon_cpuid.c states
 * the rules). */
struct pm_sdm pm_sdm_read(struct pm_cpuid k);

/* Is architectural event ev available: EBX bit clear, and within the
 * EAX[31:24] bits EBX defines (Table 18-1, CPUID leaf 0AH)? */
static inline int pm_event_available(const struct pm_sdm *s,
				     enum pm_arch_event ev)
{
	return (unsigned)ev < s->ebx_len && !(s->k.ebx >> ev & 1);
}

/*
 * This CPU's CPUID.0AH registers: CPUID's where it reports a version,
 * else - under the model, whose CPU (QEMU TCG) reports none - those of
 * the capability row the model stands in for (the row is the machine
 * the model plays: what its CPUID would say; the reading is
 * pm_sdm_read()'s).  IA32_PERF_CAPABILITIES likewise.  0 when neither.
 */
int pm_own_cpuid(struct pm_cpuid *k, uint64_t *perf_caps);

/* ---- PerfEvtSel as Figure 18-1 draws it. */
struct sdm_sel {
	unsigned event, umask, usr, os, e, pc, intr, any, en, inv, cmask;
};

static inline uint64_t sdm_sel(struct sdm_sel s)
{
	return (uint64_t)(s.event & 0xff) | (uint64_t)(s.umask & 0xff) << 8 |
	       (uint64_t)!!s.usr << 16 | (uint64_t)!!s.os << 17 |
	       (uint64_t)!!s.e << 18 | (uint64_t)!!s.pc << 19 |
	       (uint64_t)!!s.intr << 20 | (uint64_t)!!s.any << 21 |
	       (uint64_t)!!s.en << 22 | (uint64_t)!!s.inv << 23 |
	       (uint64_t)(s.cmask & 0xff) << 24;
}

/* FIXED_CTR_CTRL field: bit 0 OS, bit 1 USR, bit 2 AnyThread, bit 3 PMI. */
#define SDM_FIX_OS 1u
#define SDM_FIX_USR 2u
#define SDM_FIX_ANY 4u
#define SDM_FIX_PMI 8u

/* ---- the driver, ready (perfmon_ready.c) */

/* The perfmon driver (perfmon_caps, the product's reading, for the bts/
 * tests that share this file), or SKIP. */
const struct pmu_driver *perfmon_ready(struct tcase *t,
				       const struct perfmon_caps **c);
/* The perfmon driver and this CPU's CPUID.0AH read by the SDM into *s,
 * or SKIP. */
const struct pmu_driver *pm_ready(struct tcase *t, struct pm_sdm *s);
/* pm_ready(), with every architectural event of mask (bit: enum
 * pm_arch_event) available, or SKIP naming the first EBX bit that is
 * set. */
const struct pmu_driver *pm_ready_for(struct tcase *t, struct pm_sdm *s,
				      unsigned mask);

#define PM_NEED(ev) (1u << (ev))

/* The driver's number of fixed counter i (its ops-table numbering). */
static inline unsigned pm_fixed_ctr(unsigned i)
{
	return perfmon_fixed_ctr(i);
}

static inline uint64_t pm_top(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

/* ---- a counter's expectation (perfmon_expect.c) */

/* Checks counter ctr of a finished run against what the SDM's reading of
 * its config says it counts (the oracle's count of its event at the
 * run's CPL, through CMASK/INV/E; exact on the model, bounded on
 * hardware); a config the trace cannot count is logged, not checked. */
void pm_check(struct tcase *t, const struct pmu_driver *d,
	      const struct pmu_run *r, unsigned ctr);

/* ---- a run's setup (perfmon_run.c) */

/* A run of bench at cpl on counters 0..n-1 with the given configs. */
void pm_setup(struct pmu_run *r, const char *label, const char *bench,
	      uint64_t n, int cpl);
/* Counter ctr of r programmed with selection sel. */
void pm_add(struct pmu_run *r, unsigned ctr, uint64_t sel);
/* The oracle's counts of bench at cpl, traced before any counter counts
 * (a test that presets a counter from the count it will see). */
int pm_count_first(struct tcase *t, const char *bench, uint64_t n, int cpl,
		   struct oracle_counts *oc);

#endif
