/* perfmon_test: the architectural-perfmon facts the perfmon/ tests share,
 * written out from the SDM (Vol. 3B, order no. 253669-060US, §18.2:
 * Figure 18-1 PerfEvtSel, Figure 18-2 FIXED_CTR_CTRL, Figures 18-3/18-4
 * GLOBAL_CTRL/STATUS) rather than taken from the driver, so that a wrong
 * rule there cannot make an expectation wrong too.  Running and
 * comparing is harness/pmu_run.h's. */
#ifndef TESTS_PERFMON_PERFMON_TEST_H
#define TESTS_PERFMON_PERFMON_TEST_H

#include "../../harness/pmu_run.h"
#include "../../pmu/backend.h"
#include "../../pmu/perfmon/caps.h"
#include "../../pmu/perfmon/caps_table.h"
#include "../../pmu/perfmon/driver.h"
#include "../../pmu/perfmon/events.h"
#include "../../pmu/perfmon/regs.h"
#include "../../arch/x86/trap.h"
#include "evtsel_sdm.h"

/* PerfEvtSel as Figure 18-1 draws it. */
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

static inline struct sdm_sel sdm_sel_of(uint64_t v)
{
	return (struct sdm_sel){ v & 0xff, v >> 8 & 0xff, v >> 16 & 1,
				 v >> 17 & 1, v >> 18 & 1, v >> 19 & 1,
				 v >> 20 & 1, v >> 21 & 1, v >> 22 & 1,
				 v >> 23 & 1, v >> 24 & 0xff };
}

/* OS: CPL 0; USR: CPL 1, 2 and 3 (§18.2.1.1; fixed: §18.2.2). */
static inline int sdm_counts_at(unsigned os, unsigned usr, int cpl)
{
	return cpl ? !!usr : !!os;
}

/* FIXED_CTR_CTRL field: bit 0 OS, bit 1 USR, bit 2 AnyThread, bit 3 PMI. */
#define SDM_FIX_OS 1u
#define SDM_FIX_USR 2u
#define SDM_FIX_ANY 4u
#define SDM_FIX_PMI 8u

/* The capabilities, or SKIP. */
static inline const struct pmu_driver *
perfmon_ready(struct tcase *t, const struct perfmon_caps **c)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_ARCH);
	const char *why = 0;

	if (!d)
		return 0;
	/* a test that stood in for another PMU must have gone back */
	if (!check(t, !perfmon_caps_standing_in(), "a previous test left "
		   "the model standing in for another PMU")) {
		perfmon_caps_stand_in(0);
		return 0;
	}
	*c = perfmon_caps(&why);
	if (!*c) {
		skip(t, "no capabilities: %s", why);
		return 0;
	}
	return d;
}

/* What the trace's counts give an event per cycle: 1 for the model
 * clock, SEM_REF_PER_CLOCK for the reference clock, else 0 or 1. */
static inline unsigned sdm_per_step(uint32_t sem)
{
	if (sem == SEM_BIT(SEM_CLOCKS))
		return 1;
	if (sem == SEM_BIT(SEM_REF_CLOCKS))
		return SEM_REF_PER_CLOCK;
	return 0;
}

/* Is the event a clock (the machine's own on hardware)? */
static inline int pm_is_clock(uint32_t sem)
{
	return sem == SEM_BIT(SEM_CLOCKS) || sem == SEM_BIT(SEM_REF_CLOCKS);
}

/*
 * What a counter should count in r: the oracle's count of its event
 * (the event table's meaning) at the run's CPL when the config counts
 * there, through CMASK/INV/E by the SDM's rule (evtsel_sdm.h).  Exact on
 * the model.  On hardware: events as pmu_expect_events() says; clocks
 * between instructions/8 (no core retires more per cycle) and 4 TSC spans
 * (turbo above the TSC rate), reference clocks at most the TSC span (they
 * tick at or below the TSC rate).  *modelled: 0 when the model cannot
 * count the event (then no expectation).
 */
static inline struct pmu_expect pm_expect(const struct pmu_run *r,
					  unsigned ctr, int *modelled)
{
	const struct perfmon_event *ev;
	struct sdm_filter f = { 0, 0, 0 };
	unsigned os, usr, i;
	uint64_t n = 0;
	int exact = 1;

	if (perfmon_is_fixed(ctr, &i)) {
		ev = perfmon_fixed_event(i);
		os = r->cfg[ctr].sel & SDM_FIX_OS;
		usr = r->cfg[ctr].sel & SDM_FIX_USR;
	} else {
		struct sdm_sel s = sdm_sel_of(r->cfg[ctr].sel);

		ev = perfmon_event_for(s.event, s.umask);
		os = s.os;
		usr = s.usr;
		f = (struct sdm_filter){ s.cmask, s.inv, s.e };
	}
	*modelled = ev && ev->sem;
	if (!*modelled || !sdm_counts_at(os, usr, r->cpl))
		n = 0;
	else if (!f.cmask && !f.edge)
		n = sem_sum(ev->sem, r->oc.c[r->cpl]);
	else if (ev->sem & (ev->sem - 1))
		exact = 0;	/* a sum: the per-step count is not 0/1 */
	else
		n = sdm_filtered(&r->oc, r->cpl,
				 (enum sem)__builtin_ctz(ev->sem),
				 sdm_per_step(ev->sem), f, &exact);
	*modelled = *modelled && exact;
	if (pmu_on_model() || !*modelled)
		return (struct pmu_expect){ n, n, NULL };
	if (pm_is_clock(ev->sem) && (os || usr)) {
		uint64_t ins = r->oc.c[r->cpl][SEM_INSTRUCTIONS];

		if (ev->sem == SEM_BIT(SEM_REF_CLOCKS))
			return (struct pmu_expect){ 0, r->tsc_span,
				"reference clocks <= TSC span" };
		return (struct pmu_expect){ ins / 8, 4 * r->tsc_span + 1,
			"instructions/8 <= core clocks <= 4 TSC spans" };
	}
	return pmu_expect_events(n, (os ? PMU_CPL012 : 0) |
				 (usr ? PMU_CPL3 : 0));
}

static inline void pm_check(struct tcase *t, const struct pmu_driver *d,
			    const struct pmu_run *r, unsigned ctr)
{
	int modelled;
	struct pmu_expect x = pm_expect(r, ctr, &modelled);

	if (!modelled) {
		value(t, "not_modelled", "counter %u: read %llu, no "
		      "expectation", ctr, (unsigned long long)r->got[ctr]);
		return;
	}
	pmu_check_counter(t, d, r, ctr, &x);
}

/* A run of bench at cpl on counters 0..n-1 with the given configs. */
static inline void pm_setup(struct pmu_run *r, const char *label,
			    const char *bench, uint64_t n, int cpl)
{
	*r = (struct pmu_run){ .label = label, .bench = bench, .n = n,
			       .cpl = cpl, .idle = ~0u };
}

static inline void pm_add(struct pmu_run *r, unsigned ctr, uint64_t sel)
{
	r->cfg[ctr] = (struct pmu_config){ sel, 0 };
	r->idle &= ~(1u << ctr);
	if (ctr + 1 > r->n_ctrs)
		r->n_ctrs = ctr + 1;
}

#endif
