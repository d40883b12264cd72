/* tests/p6/p6_expect.c: what a P6 counter should count in a run
 * (p6_test.h), from the SDM (Vol. 3B, order no. 253669-060US): what the
 * events of Table 19-37 count in the oracle's terms, at the CPLs USR/OS
 * select (§18.22.1), through CMASK/INV/E (evtsel_sdm.h); exact on the
 * model, bounded on hardware; and the check of the counter against it. */
#include "p6_test.h"
#include "../../pmu/backend.h"

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

uint32_t sdm_p6_sem(uint64_t sel)
{
	for (unsigned i = 0; i < sizeof(sdm_p6_counts) /
				 sizeof(sdm_p6_counts[0]); i++)
		if (sdm_p6_counts[i].code == (sel & 0xff))
			return (sel >> 8 & 0xff) ? 0 : sdm_p6_counts[i].sem;
	return 0;
}

/* USR: "counted only when the processor is operating at privilege levels
 * 1, 2 or 3"; OS: "only when ... at privilege level 0" (§18.22.1). */
static int sdm_counts_at(uint64_t sel, int cpl)
{
	return cpl == 0 ? (int)(sel >> 17 & 1) : (int)(sel >> 16 & 1);
}

/* The same as a CPL set (pmu/driver.h's encoding, bit n: CPL n). */
static unsigned sdm_cpls(uint64_t sel)
{
	return (sel & SDM_OS ? PMU_CPL(0) : 0) |
	       (sel & SDM_USR ? PMU_CPL(1) | PMU_CPL(2) | PMU_CPL(3) : 0);
}

/* The one semantic count a mask is, or SEM_NR when it is none or a sum
 * (CMASK and E are exact only for one count: evtsel_sdm.h). */
static enum sem p6_single_sem(uint32_t sem)
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
static struct pmu_expect p6_clock_bounds(const struct pmu_run *r, int here)
{
	struct pmu_expect x = { 0 };

	x.lo = here ? r->oc.c[r->cpl][SEM_INSTRUCTIONS] / 3 : 0;
	x.hi = r->tsc_span;
	x.tolerance = here ? "instructions/3 <= clocks <= TSC span" :
			     "clocks <= TSC span (the driver's CPL 0 code)";
	return x;
}

/* CMASK/INV/E: exact on the model for one count whose steps add 0 or 1
 * (or always 1: clocks); on hardware a filtered count counts cycles, at
 * most the TSC span. */
static struct pmu_expect p6_filtered(const struct pmu_run *r, uint64_t sel,
				     enum sem s, int here, int *modelled)
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
 * the table's meaning plus the window's share of it, the driver's and the
 * ring-3 trampoline's code (pmu_expect_counter()); the clock event: the model clock, bounded on
 * hardware; CMASK or E: p6_filtered().  *modelled is 0 when the trace
 * cannot tell.
 */
static struct pmu_expect p6_expect(const struct pmu_driver *d,
				   const struct pmu_run *r, unsigned ctr,
				   int *modelled)
{
	uint64_t sel = r->cfg[ctr].sel;
	unsigned cpls = sdm_cpls(sel);
	int here = sdm_counts_at(sel, r->cpl);
	uint32_t sem = sdm_p6_sem(sel);
	enum sem s = p6_single_sem(sem);
	uint64_t n;

	(void)d;
	*modelled = sem != 0;
	if (sel >> 24 & 0xff || sel >> 18 & 1)
		return p6_filtered(r, sel, s, here, modelled);
	n = here ? sem_sum(sem, r->oc.c[r->cpl]) : 0;
	/* backend=emulated: the emulated PMU's clock is the model clock, one
	 * cycle per traced step (pmu/sem.h), so clocks are exact there too */
	if (s == SEM_CLOCKS && backend_current()->id == BE_EMULATED)
		return pmu_expect_counter(r, ctr, n, sem, cpls);
	if (s == SEM_CLOCKS && !pmu_on_model() && cpls) {
		*modelled = 1;
		return p6_clock_bounds(r, here);
	}
	return pmu_expect_counter(r, ctr, n, sem, cpls);
}

void p6_check(struct tcase *t, const struct pmu_driver *d,
	      const struct pmu_run *r, unsigned ctr)
{
	int modelled;
	struct pmu_expect x = p6_expect(d, r, ctr, &modelled);

	check(t, modelled, "counter %u: the expectation is not known (the "
	      "event or its filter is not modelled)", ctr);
	pmu_check_counter(t, d, r, ctr, &x);
}
