/* tests/p5/p5_expect.c: what a P5 counter should count in a run
 * (p5_test.h), from the SDM (Vol. 3B, order no. 253669-060US): the CC
 * codes of §18.23.1, what the events of Table 19-38 count in the oracle's
 * terms, events or their duration; exact on the model, bounded on
 * hardware; and the check of the counter against it. */
#include "p5_test.h"

/* The counter-control codes: { counts at CPL 0-2, at CPL 3, clocks }. */
static const struct {
	uint8_t os, usr, clocks;
} sdm_cc[8] = {
	[0] = { 0, 0, 0 },	/* 000 count nothing */
	[1] = { 1, 0, 0 },	/* 001 event, CPL 0, 1, 2 */
	[2] = { 0, 1, 0 },	/* 010 event, CPL 3 */
	[3] = { 1, 1, 0 },	/* 011 event, any CPL */
	[4] = { 0, 0, 0 },	/* 100 count nothing */
	[5] = { 1, 0, 1 },	/* 101 clocks, CPL 0, 1, 2 */
	[6] = { 0, 1, 1 },	/* 110 clocks, CPL 3 */
	[7] = { 1, 1, 1 },	/* 111 clocks, any CPL */
};

/* Does a CC count at cpl (§18.23.1)? */
static int sdm_cc_counts_at(unsigned cc, int cpl)
{
	return cpl == 3 ? sdm_cc[cc & 7].usr : sdm_cc[cc & 7].os;
}

/* The CPL set a CC counts at (pmu/driver.h's encoding, bit n: CPL n):
 * "while CPL is 0, 1, or 2", "while CPL is 3" (§18.23.1). */
static unsigned sdm_cc_cpls(unsigned cc)
{
	return (sdm_cc[cc & 7].os ? PMU_CPL(0) | PMU_CPL(1) | PMU_CPL(2) : 0) |
	       (sdm_cc[cc & 7].usr ? PMU_CPL(3) : 0);
}

/*
 * What the events the trace can see count, in the oracle's counts
 * (pmu/sem.h), from the event names and descriptions of Table 19-38:
 * DATA_READ 00H and DATA_WRITE 01H count the data reads and writes,
 * DATA_READ_OR_WRITE 28H both; ANY_SEGMENT_REGISTER_LOADED 0FH the
 * segment loads; INSTRUCTIONS_EXECUTED 16H the instructions (a REP string
 * instruction once); BRANCHES 12H "all branches", far transfers (INT n,
 * IRET, far CALL/JMP/RET) included; TAKEN_BRANCHES 32H (CTR1, MMX) the
 * taken ones, far transfers included (they always transfer); RETURNS 39H
 * (CTR0, MMX) the returns.  ctrs: bit n set, valid on CTRn.
 */
struct sdm_p5_count {
	uint8_t code, ctrs, mmx;
	uint32_t sem;
};

static const struct sdm_p5_count sdm_p5_counts[] = {
	{ .code = 0x00, .ctrs = 3, .sem = SEM_BIT(SEM_LOADS) },
	{ .code = 0x01, .ctrs = 3, .sem = SEM_BIT(SEM_STORES) },
	{ .code = 0x0f, .ctrs = 3, .sem = SEM_BIT(SEM_SEGLOADS) },
	{ .code = 0x12, .ctrs = 3,
	  .sem = SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR) },
	{ .code = 0x16, .ctrs = 3, .sem = SEM_BIT(SEM_INSTRUCTIONS) },
	{ .code = 0x28, .ctrs = 3,
	  .sem = SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES) },
	{ .code = 0x32, .ctrs = 2, .mmx = 1,
	  .sem = SEM_BIT(SEM_TAKEN) | SEM_BIT(SEM_FAR) },
	{ .code = 0x39, .ctrs = 1, .mmx = 1, .sem = SEM_BIT(SEM_RETURNS) },
};

uint32_t sdm_p5_sem(unsigned code, unsigned ctr, int mmx)
{
	for (unsigned i = 0; i < sizeof(sdm_p5_counts) /
				 sizeof(sdm_p5_counts[0]); i++) {
		const struct sdm_p5_count *e = &sdm_p5_counts[i];

		if (e->code == code && (e->ctrs >> ctr & 1) &&
		    (!e->mmx || mmx))
			return e->sem;
	}
	return 0;
}

/* Clocks (duration): "the clocks during which the selected event's
 * condition holds" (§18.23.1, CC 1xx).  The model clock is one cycle per
 * traced step, so the duration of an event that is one oracle count is
 * the steps in which it happened; for a sum of counts (12H, 28H, 32H) the
 * trace cannot tell (two counts in one step may be one condition or two):
 * *modelled = 0, expected 0 as the model documents (docs/p5.md). */
static uint64_t p5_duration(const struct pmu_run *r, unsigned ctr,
			    int *modelled)
{
	struct p5_half h = sdm_p5_half(&r->cfg[ctr]);
	uint32_t sem = sdm_p5_sem(h.es, ctr, sdm_p5_mmx());
	unsigned s = 0;

	*modelled = sem && !(sem & (sem - 1));
	if (!*modelled)
		return 0;
	while (!(sem & SEM_BIT(s)))
		s++;
	return r->oc.steps_with[r->cpl][s];
}

/* Events: the oracle's count of the test's meaning of the event. */
static uint64_t p5_event_count(const struct pmu_run *r, unsigned ctr,
			       int *modelled)
{
	struct p5_half h = sdm_p5_half(&r->cfg[ctr]);
	uint32_t sem = sdm_p5_sem(h.es, ctr, sdm_p5_mmx());

	*modelled = sem != 0;
	return sem_sum(sem, r->oc.c[r->cpl]);
}

/*
 * What CTRn should count in r.  Events: the oracle's count of the event
 * table's meaning when the CC counts at the run's CPL, plus the window's
 * share of it: the driver's and the ring-3 trampoline's code between the
 * enabling and the disabling write (pmu_expect_counter()).  Clocks: the
 * event's duration, exact on the model (p5_duration()); on hardware the counter sees at most every clock
 * between start and stop, which the TSC counts (on the Pentium the TSC
 * increments with every processor clock, SDM Vol. 3B §17.17), and, when
 * it counts at the benchmark's CPL, at least half the benchmark's
 * instructions with the event (two pipes: at most two instructions
 * retire per clock, SDM Vol. 3B §18.23): instructions/2 for
 * INSTRUCTIONS_EXECUTED, data reads/2 for DATA_READ.
 */
static struct pmu_expect p5_expect(const struct pmu_driver *d,
				   const struct pmu_run *r, unsigned ctr,
				   int *modelled)
{
	struct p5_half h = sdm_p5_half(&r->cfg[ctr]);
	unsigned cpls = sdm_cc_cpls(h.cc);
	int here = sdm_cc_counts_at(h.cc, r->cpl);
	struct pmu_expect x = { 0 };
	uint64_t n;

	*modelled = 1;
	if (!sdm_cc[h.cc].clocks) {
		n = here ? p5_event_count(r, ctr, modelled) : 0;
		return pmu_expect_counter(r, ctr, n, sdm_p5_sem(h.es, ctr,
					  sdm_p5_mmx()), cpls);
	}
	n = here ? p5_duration(r, ctr, modelled) : 0;
	x = (struct pmu_expect){ n, n, NULL };
	if (!pmu_on_model() && cpls) {
		x.lo = n / 2;
		x.hi = r->tsc_span;
		x.tolerance = here ? "instructions with the event/2 <= clocks "
				     "<= TSC span" :
				     "clocks <= TSC span (CPL 0 code only)";
	}
	return x;
}

void p5_check(struct tcase *t, const struct pmu_driver *d,
	      const struct pmu_run *r, unsigned ctr)
{
	int modelled;
	struct pmu_expect x = p5_expect(d, r, ctr, &modelled);

	pmu_check_counter(t, d, r, ctr, &x);
}
