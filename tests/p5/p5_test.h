/* p5_test: the P5 facts the p5/ tests share, written out from the SDM
 * (Vol. 3B §18.23.1, Figure 18-61 and the CC list) rather than taken from
 * the driver, so a wrong rule there cannot also make an expectation wrong.
 * Running and comparing is harness/pmu_run.h's. */
#ifndef TESTS_P5_P5_TEST_H
#define TESTS_P5_P5_TEST_H

#include "../../harness/pmu_run.h"
#include "../../pmu/p5/regs.h"
#include "../../pmu/p5/events.h"
#include "../../pmu/p5/driver.h"

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

static inline int sdm_cc_counts_at(unsigned cc, int cpl)
{
	return cpl == 3 ? sdm_cc[cc & 7].usr : sdm_cc[cc & 7].os;
}

/* The CESR for two halves: ES0 bits 0-5, CC0 6-8, PC0 9, ES1 16-21,
 * CC1 22-24, PC1 25. */
static inline uint32_t sdm_cesr(const struct p5_half *h0,
				const struct p5_half *h1)
{
	return h0->es | h0->cc << 6 | h0->pc << 9 |
	       h1->es << 16 | h1->cc << 22 | h1->pc << 25;
}

/* Once both counters count: the CESR holds both halves in the SDM's
 * layout. */
static inline int p5_cesr_as_sdm(struct tcase *t, struct pmu_run *r)
{
	struct p5_half h0 = p5_half_of(&r->cfg[0]), h1 = p5_half_of(&r->cfg[1]);
	struct pmu_err e;
	uint32_t cesr = 0;

	if (!check(t, p5_read_cesr(&cesr, &e) == 0, "%s", e.msg))
		return 0;
	value(t, r->cpl == 3 ? "cpl3_cesr" : "cpl0_cesr", "0x%08x", cesr);
	return check(t, cesr == sdm_cesr(&h0, &h1), "CESR reads 0x%08x, the "
		     "SDM's layout gives 0x%08x", cesr, sdm_cesr(&h0, &h1));
}

/* A two-counter P5 run of bench at cpl. */
static inline void p5_setup(struct pmu_run *r, const char *bench, uint64_t n,
			    int cpl, struct p5_half h0, struct p5_half h1)
{
	*r = (struct pmu_run){ .bench = bench, .n = n, .cpl = cpl,
			       .n_ctrs = P5_COUNTERS,
			       .started = p5_cesr_as_sdm };
	r->cfg[0] = p5_config(&h0);
	r->cfg[1] = p5_config(&h1);
}

/* Clocks (duration): the steps of the run in which the event happened,
 * for events whose duration the model can see (pmu/p5/model.c). */
static inline uint64_t p5_duration(const struct pmu_run *r, unsigned ctr,
				   int *modelled)
{
	struct p5_half h = p5_half_of(&r->cfg[ctr]);
	const struct p5_event *ev = p5_event_for(h.es, ctr, p5_has_rdpmc());

	*modelled = ev && p5_duration_modelled(ev);
	return *modelled ? r->oc.steps_with[r->cpl][p5_duration_sem(ev)] : 0;
}

/*
 * What CTRn should count in r.  Events: the oracle's count of the event
 * table's meaning when the CC counts at the run's CPL (pmu_expect_events()
 * adds hardware's slack for the driver's CPL 0 code).  Clocks: the
 * event's duration, exact on the model (p5_duration()); on hardware the counter sees at most every clock
 * between start and stop, which the TSC counts (on the Pentium the TSC
 * increments with every processor clock, SDM Vol. 3B §17.17), and, when
 * it counts at the benchmark's CPL, at least instructions/2 of them (two
 * pipes: at most two instructions retire per clock, SDM Vol. 3B §18.23).
 */
static inline struct pmu_expect p5_expect(const struct pmu_driver *d,
					  const struct pmu_run *r,
					  unsigned ctr, int *modelled)
{
	struct p5_half h = p5_half_of(&r->cfg[ctr]);
	unsigned cpls = (sdm_cc[h.cc].os ? PMU_CPL012 : 0) |
			(sdm_cc[h.cc].usr ? PMU_CPL3 : 0);
	int here = sdm_cc_counts_at(h.cc, r->cpl);
	struct pmu_expect x;
	uint64_t n;

	*modelled = 1;
	if (!sdm_cc[h.cc].clocks) {
		n = here ? pmu_oracle_count(d, r, ctr, modelled) : 0;
		return pmu_expect_events(n, cpls);
	}
	n = here ? p5_duration(r, ctr, modelled) : 0;
	x = (struct pmu_expect){ n, n, NULL };
	if (!pmu_on_model() && cpls) {
		x.lo = here ? r->oc.c[r->cpl][SEM_INSTRUCTIONS] / 2 : 0;
		x.hi = r->tsc_span;
		x.tolerance = here ? "instructions/2 <= clocks <= TSC span" :
				     "clocks <= TSC span (CPL 0 code only)";
	}
	return x;
}

/* Checks CTRn of a finished run against p5_expect(). */
static inline void p5_check(struct tcase *t, const struct pmu_driver *d,
			    const struct pmu_run *r, unsigned ctr)
{
	int modelled;
	struct pmu_expect x = p5_expect(d, r, ctr, &modelled);

	pmu_check_counter(t, d, r, ctr, &x);
}

#endif
