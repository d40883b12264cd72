/* tests/perfmon/perfmon_expect.c: what a counter should count in a run
 * (perfmon_test.h), from the SDM's reading of its config - the
 * architectural event it names (perfmon_events.c), the CPLs its OS/USR
 * bits select, its CMASK/INV/E filter (evtsel_sdm.h) - and the oracle's
 * counts: exact on the model, bounded on hardware; and the check of the
 * counter against it. */
#include "perfmon_test.h"

/* The fields of a PerfEvtSel value (Figure 18-1). */
static struct sdm_sel sdm_sel_of(uint64_t v)
{
	return (struct sdm_sel){ v & 0xff, v >> 8 & 0xff, v >> 16 & 1,
				 v >> 17 & 1, v >> 18 & 1, v >> 19 & 1,
				 v >> 20 & 1, v >> 21 & 1, v >> 22 & 1,
				 v >> 23 & 1, v >> 24 & 0xff };
}

/* OS: CPL 0; USR: CPL 1, 2 and 3 (§18.2.1.1; fixed: §18.2.2). */
static int sdm_counts_at(unsigned os, unsigned usr, int cpl)
{
	return cpl ? !!usr : !!os;
}

/* The same as a CPL set (pmu/driver.h's encoding, bit n: CPL n). */
static unsigned sdm_cpls(unsigned os, unsigned usr)
{
	return (os ? PMU_CPL(0) : 0) |
	       (usr ? PMU_CPL(1) | PMU_CPL(2) | PMU_CPL(3) : 0);
}

/* What the trace's counts give an event per cycle: 1 for the model
 * clock, SEM_REF_PER_CLOCK for the reference clock, else 0 or 1. */
static unsigned sdm_per_step(uint32_t sem)
{
	if (sem == SEM_BIT(SEM_CLOCKS))
		return 1;
	if (sem == SEM_BIT(SEM_REF_CLOCKS))
		return SEM_REF_PER_CLOCK;
	return 0;
}

/* Is the event a clock (the machine's own on hardware)? */
static int pm_is_clock(uint32_t sem)
{
	return sem == SEM_BIT(SEM_CLOCKS) || sem == SEM_BIT(SEM_REF_CLOCKS);
}

/* The architectural event counter ctr's config in r names
 * (perfmon_events.c's tables), or NULL; its OS/USR bits and filter. */
static const struct pm_event *
pm_config_event(const struct pmu_run *r, unsigned ctr, unsigned *os,
		unsigned *usr, struct sdm_filter *f)
{
	struct sdm_sel s = sdm_sel_of(r->cfg[ctr].sel);
	unsigned i;

	*f = (struct sdm_filter){ 0, 0, 0 };
	if (perfmon_is_fixed(ctr, &i)) {
		*os = r->cfg[ctr].sel & SDM_FIX_OS;
		*usr = r->cfg[ctr].sel & SDM_FIX_USR;
		return i < PM_MAX_FIXED ? &pm_events[pm_fixed_counts[i]] : 0;
	}
	*os = s.os;
	*usr = s.usr;
	*f = (struct sdm_filter){ s.cmask, s.inv, s.e };
	return pm_event_for(s.event, s.umask);
}

/* No core retires more than this many instructions per cycle (the
 * bound the clock expectations below use too). */
#define PM_RETIRE_MAX 8

/*
 * CMASK/INV/E on hardware (evtsel_sdm.h's rule, per real cycle): the
 * oracle's per-step counts are per model cycle, one instruction each,
 * but silicon retires up to PM_RETIRE_MAX per cycle, and the counter
 * sees the driver's code too (pmu_expect_counter's allowance), so only
 * bounds hold.  With N the unfiltered event range (at most one event per
 * instruction): cycles with >= CMASK events: 0 (CMASK > 1) or
 * ceil(N.lo / PM_RETIRE_MAX) (CMASK <= 1) up to N.hi / CMASK; their
 * rising edges (E): 1 if any event (CMASK <= 1) up to as many; cycles
 * with fewer (INV): up to the core clocks' bound, 4 TSC spans.
 */
static struct pmu_expect pm_filtered_hw(const struct pmu_run *r,
					unsigned ctr,
					const struct pm_event *ev,
					struct sdm_filter f, unsigned cpls)
{
	uint64_t all = sem_sum(ev->sem, r->oc.c[r->cpl]);
	struct pmu_expect u = pmu_expect_counter(r, ctr, cpls &
						 PMU_CPL(r->cpl) ? all : 0,
						 ev->sem, cpls);
	unsigned c = f.cmask ? f.cmask : 1;

	if (f.inv)
		return (struct pmu_expect){ 0, 4 * r->tsc_span + 1,
			"INV: cycles with fewer than CMASK events <= 4 TSC "
			"spans" };
	if (f.edge)
		return (struct pmu_expect){ c == 1 && u.lo ? 1 : 0, u.hi / c,
			"E: rising edges, 1 (an event) .. events / CMASK" };
	return (struct pmu_expect){ c == 1 ? (u.lo + PM_RETIRE_MAX - 1) /
				    PM_RETIRE_MAX : 0, u.hi / c,
		"CMASK: cycles with >= CMASK events, events/8 .. events / "
		"CMASK (<= 8 retire per cycle)" };
}

/*
 * What a counter should count in r: the oracle's count of its event
 * (Table 18-1/18-2 above) at the run's CPL when the config counts there,
 * through CMASK/INV/E by the SDM's rule (evtsel_sdm.h).  Exact on the
 * model and under backend=emulated (pmu_expect_counter).  On hardware:
 * events within pmu_expect_counter()'s range; clocks
 * between instructions/8 (no core retires more per cycle) and 4 TSC spans
 * (turbo above the TSC rate), reference clocks at most the TSC span (they
 * tick at or below the TSC rate).  *modelled: 0 when the model cannot
 * count the event (then no expectation).
 */
static struct pmu_expect pm_expect(const struct pmu_run *r, unsigned ctr,
				   int *modelled)
{
	struct sdm_filter f;
	unsigned os, usr;
	const struct pm_event *ev = pm_config_event(r, ctr, &os, &usr, &f);
	uint64_t n = 0;
	int exact = 1;

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
	if (!pm_is_clock(ev->sem) && (f.cmask || f.edge))
		return pm_filtered_hw(r, ctr, ev, f, sdm_cpls(os, usr));
	/* backend=emulated: the emulated PMU's clock is the model clock, one
	 * cycle per traced step (pmu/sem.h SEM_CLOCKS, SEM_REF_PER_CLOCK
	 * reference clocks each), so clocks are exact there too */
	if (pm_is_clock(ev->sem) && !f.cmask && !f.edge && !f.inv &&
	    backend_current()->id == BE_EMULATED)
		return pmu_expect_counter(r, ctr, n, ev->sem,
					  sdm_cpls(os, usr));
	if (pm_is_clock(ev->sem) && (os || usr)) {
		/* the benchmark's instructions, if it counts at their CPL */
		uint64_t ins = sdm_counts_at(os, usr, r->cpl) ?
			       r->oc.c[r->cpl][SEM_INSTRUCTIONS] : 0;

		if (ev->sem == SEM_BIT(SEM_REF_CLOCKS))
			return (struct pmu_expect){ 0, r->tsc_span,
				"reference clocks <= TSC span" };
		return (struct pmu_expect){ ins / 8, 4 * r->tsc_span + 1,
			"instructions/8 <= core clocks <= 4 TSC spans" };
	}
	return pmu_expect_counter(r, ctr, n, ev->sem, sdm_cpls(os, usr));
}

void pm_check(struct tcase *t, const struct pmu_driver *d,
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
