/* p6_test: the P6 facts the p6/ tests share, written out from the SDM
 * (Vol. 3B, order no. 253669-060US, §18.22: Figure 18-60, §18.22.1-3)
 * rather than taken from the driver, so that a wrong rule there cannot
 * also make an expectation wrong.  What an event counts is restated here
 * from Table 19-37 (sdm_p6_counts[]), not read from pmu/p6/events.c; how
 * CMASK, INV and E filter it is tests/perfmon/evtsel_sdm.h's; which
 * generation a signature is, the registers' addresses and the event codes
 * the tests program are written out here too.  Only the oracle's semantic
 * counts are shared.  Running and comparing is harness/pmu_run.h's. */
#ifndef TESTS_P6_P6_TEST_H
#define TESTS_P6_P6_TEST_H

#include "../../harness/pmu_run.h"
#include "../../pmu/p6/regs.h"
#include "../../pmu/detect.h"
#include "../../pmu/p6/driver.h"
#include "../perfmon/evtsel_sdm.h"
#include "../../lib/fmt.h"

/* The registers (§18.22, Figure 18-60; SDM Vol. 3C Table 35-46, "MSRs in
 * the P6 Family Processors"): PerfEvtSel0/1 at 186H/187H, PerfCtr0/1 at
 * C1H/C2H. */
#define SDM_P6_PERFEVTSEL0 0x186
#define SDM_P6_PERFEVTSEL1 0x187
#define SDM_P6_PERFCTR0 0xc1
#define SDM_P6_PERFCTR1 0xc2
#define SDM_P6_COUNTERS 2

/* Event codes the tests program (Table 19-37). */
#define SDM_P6_INST_RETIRED 0xc0
#define SDM_P6_CPU_CLK_UNHALTED 0x79

/* The P6 generations, as bits, and which family 6 model is which (AP-485,
 * Intel Processor Identification and the CPUID Instruction, order no.
 * 241618; SDM Vol. 3B §19.16-19.17 name the generations that have each
 * event): Pentium Pro model 1; Pentium II and its Celeron models 3, 5, 6;
 * Pentium III 7, 8, 0AH, 0BH; Pentium M 9, 0DH.  Another model up to 0DH
 * is taken as a Pentium Pro (the events every P6 has), as docs/p6.md
 * says the driver does. */
#define SDM_PPRO 1u
#define SDM_PII 2u
#define SDM_PIII 4u
#define SDM_PM 8u

static inline unsigned sdm_p6_gen(void)
{
	switch (cpu_info()->sig.model) {
	case 3: case 5: case 6: return SDM_PII;
	case 7: case 8: case 0xa: case 0xb: return SDM_PIII;
	case 9: case 0xd: return SDM_PM;
	default: return SDM_PPRO;
	}
}

static inline const char *sdm_p6_gen_name(unsigned gen)
{
	return gen == SDM_PII ? "Pentium II" : gen == SDM_PIII ?
	       "Pentium III" : gen == SDM_PM ? "Pentium M" : "Pentium Pro";
}

/*
 * What the events the trace can see count, in the oracle's counts
 * (pmu/sem.h), from Table 19-37: INST_RETIRED C0H "number of instructions
 * retired" (a REP string instruction once); BR_INST_RETIRED C4H "number
 * of branch instructions retired" and BR_TAKEN_RETIRED C9H "number of
 * taken branches retired", far transfers (INT n, IRET, far CALL/JMP/RET)
 * counted as branches, always taken; DATA_MEM_REFS 43H "all loads from
 * any memory type ... all stores to any memory type"; SEGMENT_REG_LOADS
 * 06H "number of segment register loads"; CPU_CLK_UNHALTED 79H "number
 * of cycles during which the processor is not halted" (the model clock,
 * one per traced step).  None defines a unit mask (00H): another unit
 * mask selects "undefined counter results", which the model counts as
 * nothing (docs/p6.md).  All on both counters of every generation.
 */
static const struct {
	uint8_t code;
	uint32_t sem;
} sdm_p6_counts[] = {
	{ 0xc0, SEM_BIT(SEM_INSTRUCTIONS) },
	{ 0xc4, SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR) },
	{ 0xc9, SEM_BIT(SEM_TAKEN) | SEM_BIT(SEM_FAR) },
	{ 0x43, SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES) },
	{ 0x06, SEM_BIT(SEM_SEGLOADS) },
	{ 0x79, SEM_BIT(SEM_CLOCKS) },
};

/* The counts a selection's event and unit mask select, 0 when the test
 * does not know them. */
static inline uint32_t sdm_p6_sem(uint64_t sel)
{
	for (unsigned i = 0; i < sizeof(sdm_p6_counts) /
				 sizeof(sdm_p6_counts[0]); i++)
		if (sdm_p6_counts[i].code == (sel & 0xff))
			return (sel >> 8 & 0xff) ? 0 : sdm_p6_counts[i].sem;
	return 0;
}

/* PerfEvtSel (Figure 18-60): event select 7:0, unit mask 15:8, USR 16, OS
 * 17, E 18, PC 19, INT 20, bit 21 reserved, EN 22 (PerfEvtSel0 only), INV
 * 23, CMASK 31:24, bits 63:32 reserved. */
struct sdm_sel {
	unsigned event, umask, usr, os, e, pc, intr, en, inv, cmask;
};

static inline uint64_t sdm_sel(struct sdm_sel s)
{
	return (uint64_t)(s.event & 0xff) | (uint64_t)(s.umask & 0xff) << 8 |
	       (uint64_t)(s.usr & 1) << 16 | (uint64_t)(s.os & 1) << 17 |
	       (uint64_t)(s.e & 1) << 18 | (uint64_t)(s.pc & 1) << 19 |
	       (uint64_t)(s.intr & 1) << 20 | (uint64_t)(s.en & 1) << 22 |
	       (uint64_t)(s.inv & 1) << 23 | (uint64_t)(s.cmask & 0xff) << 24;
}

#define SDM_EN (1ull << 22)
#define SDM_USR (1ull << 16)
#define SDM_OS (1ull << 17)

/* USR: "counted only when the processor is operating at privilege levels
 * 1, 2 or 3"; OS: "only when ... at privilege level 0" (§18.22.1). */
static inline int sdm_counts_at(uint64_t sel, int cpl)
{
	return cpl == 0 ? (int)(sel >> 17 & 1) : (int)(sel >> 16 & 1);
}

/* The same as a CPL set (pmu/driver.h's encoding, bit n: CPL n). */
static inline unsigned sdm_cpls(uint64_t sel)
{
	return (sel & SDM_OS ? PMU_CPL(0) : 0) |
	       (sel & SDM_USR ? PMU_CPL(1) | PMU_CPL(2) | PMU_CPL(3) : 0);
}

/* "the lower-order 32 bits of each MSR may be written with any value,
 * and the high-order 8 bits are sign-extended according to the value of
 * bit 31" (§18.22.2): what a counter holds after WRMSR of v. */
static inline uint64_t sdm_ctr_after_write(uint64_t v)
{
	uint64_t lo = v & 0xffffffffull;

	return lo & 0x80000000ull ? lo | 0xff00000000ull : lo;
}

#define SDM_CTR_TOP (1ull << 40)	/* the counters are 40 bits */

static inline struct pmu_config sdm_config(struct sdm_sel s)
{
	struct pmu_config c = { sdm_sel(s), 0 };

	return c;
}

/* Once both counters count: PerfEvtSel0 holds counter 0's selection with
 * EN, PerfEvtSel1 counter 1's, each in the SDM's layout. */
static inline int p6_sels_as_sdm(struct tcase *t, struct pmu_run *r)
{
	static const char *const name[] = { "perfevtsel0", "perfevtsel1" };
	uint64_t sel[2] = { 0, 0 }, want;
	struct pmu_err e;

	for (unsigned c = 0; c < SDM_P6_COUNTERS; c++) {
		if (!check(t, p6_read_sel(c, &sel[c], &e) == 0, "%s", e.msg))
			return 0;
		want = r->cfg[c].sel | (c == 0 ? SDM_EN : 0);
		r->seen[c] = (struct pmu_seen){ name[c], sel[c] };
		r->n_seen = c + 1;
		if (!check(t, sel[c] == want, "PerfEvtSel%u reads 0x%llx, the "
			   "SDM's layout gives 0x%llx", c,
			   (unsigned long long)sel[c],
			   (unsigned long long)want))
			return 0;
	}
	return 1;
}

/* A two-counter P6 run of bench at cpl. */
static inline void p6_setup(struct pmu_run *r, const char *bench, uint64_t n,
			    int cpl, struct sdm_sel s0, struct sdm_sel s1)
{
	*r = (struct pmu_run){ .bench = bench, .n = n, .cpl = cpl,
			       .n_ctrs = SDM_P6_COUNTERS,
			       .started = p6_sels_as_sdm };
	r->cfg[0] = sdm_config(s0);
	r->cfg[1] = sdm_config(s1);
}

/* The one semantic count a mask is, or SEM_NR when it is none or a sum
 * (CMASK and E are exact only for one count: evtsel_sdm.h). */
static inline enum sem p6_single_sem(uint32_t sem)
{
	if (!sem || (sem & (sem - 1)))
		return SEM_NR;
	for (unsigned s = 0; s < SEM_NR; s++)
		if (sem & SEM_BIT(s))
			return (enum sem)s;
	return SEM_NR;
}

/*
 * Clocks on hardware: the counter sees at most every clock between start
 * and stop, which the TSC counts (on P6 family processors the TSC
 * "increments with every internal processor clock cycle", SDM Vol. 3B
 * §17.17), and, counting at the benchmark's CPL, at least a third of its
 * instructions (the P6 retires at most three micro-ops per clock, Intel
 * Architecture Software Developer's Manual Vol. 1, order no. 243190,
 * §2.5.5, and every instruction is at least one).
 */
static inline struct pmu_expect p6_clock_bounds(const struct pmu_run *r,
						int here)
{
	struct pmu_expect x;

	x.lo = here ? r->oc.c[r->cpl][SEM_INSTRUCTIONS] / 3 : 0;
	x.hi = r->tsc_span;
	x.tolerance = here ? "instructions/3 <= clocks <= TSC span" :
			     "clocks <= TSC span (the driver's CPL 0 code)";
	return x;
}

/* CMASK/INV/E: exact on the model for one count whose steps add 0 or 1
 * (or always 1: clocks); on hardware a filtered count counts cycles, at
 * most the TSC span. */
static inline struct pmu_expect p6_filtered(const struct pmu_run *r,
					    uint64_t sel, enum sem s,
					    int here, int *modelled)
{
	struct sdm_filter f = { (unsigned)(sel >> 24 & 0xff),
				(unsigned)(sel >> 23 & 1),
				(unsigned)(sel >> 18 & 1) };
	int exact = 1;
	uint64_t n = here && s < SEM_NR ?
		sdm_filtered(&r->oc, r->cpl, s, s == SEM_CLOCKS ? 1 : 0, f,
			     &exact) : 0;
	struct pmu_expect x = { n, n, NULL };

	*modelled = s < SEM_NR && exact;
	if (!pmu_on_model()) {
		x.lo = 0;
		x.hi = r->tsc_span;
		x.tolerance = "a filtered count counts cycles: <= TSC span";
	}
	return x;
}

/*
 * What PerfCtrN should count in r (both counters enabled by pmu_run):
 * nothing at a CPL its USR/OS leave out; events: the oracle's count of
 * the table's meaning (pmu_expect_sem() adds hardware's slack for the
 * driver's CPL 0 code and the ring-3 trampoline's share of the event); the clock event: the model clock, bounded on
 * hardware; CMASK or E: p6_filtered().  *modelled is 0 when the trace
 * cannot tell.
 */
static inline struct pmu_expect p6_expect(const struct pmu_driver *d,
					  const struct pmu_run *r,
					  unsigned ctr, int *modelled)
{
	uint64_t sel = r->cfg[ctr].sel;
	unsigned cpls = sdm_cpls(sel);
	int here = sdm_counts_at(sel, r->cpl);
	uint32_t sem = sdm_p6_sem(sel);
	enum sem s = p6_single_sem(sem);
	uint64_t n;

	(void)d;
	(void)ctr;
	*modelled = sem != 0;
	if (sel >> 24 & 0xff || sel >> 18 & 1)
		return p6_filtered(r, sel, s, here, modelled);
	n = here ? sem_sum(sem, r->oc.c[r->cpl]) : 0;
	if (s == SEM_CLOCKS && !pmu_on_model() && cpls) {
		*modelled = 1;
		return p6_clock_bounds(r, here);
	}
	return pmu_expect_sem(n, sem, cpls, pmu_run_counters(r));
}

/* Checks PerfCtrN of a finished run against p6_expect(). */
static inline void p6_check(struct tcase *t, const struct pmu_driver *d,
			    const struct pmu_run *r, unsigned ctr)
{
	int modelled;
	struct pmu_expect x = p6_expect(d, r, ctr, &modelled);

	check(t, modelled, "counter %u: the expectation is not known (the "
	      "event or its filter is not modelled)", ctr);
	pmu_check_counter(t, d, r, ctr, &x);
}

#endif
