/* evtsel_sdm: what a PerfEvtSel's CMASK, INV and E fields make a counter
 * count, written out from the SDM (Vol. 3B, order no. 253669-060US,
 * §18.2.1.1) for the p6/ and perfmon/ tests, independent of
 * pmu/evtsel.c:
 *   - CMASK = 0: the counter adds the events of every cycle (INV has no
 *     effect without a counter mask);
 *   - CMASK > 0: it adds 1 per cycle whose event count is >= CMASK (INV:
 *     < CMASK);
 *   - E: it adds 1 per deasserted-to-asserted transition of that
 *     condition (CMASK = 0: "at least one event").
 * A cycle is a model cycle, one traced step; a model count is exact.
 *
 * The oracle knows, per CPL and count, the total, the steps with at least
 * one (steps_with) and the runs of such steps (runs_with).  That fixes the
 * expectation exactly for a count that is 0 or 1 in every step
 * (instructions, branches...) or the same k in every step (clocks: 1,
 * reference clocks: SEM_REF_PER_CLOCK); per_step says which (0: 0 or 1). */
#ifndef TESTS_PERFMON_EVTSEL_SDM_H
#define TESTS_PERFMON_EVTSEL_SDM_H

#include "../../bench/oracle.h"

struct sdm_filter {
	unsigned cmask, inv, edge;
};

/* The count at cpl of sem s (its steps contribute 0 or 1, or always
 * per_step) under filter f; *exact is 0 when the rule above cannot say
 * (E with INV, or a count that is neither 0/1 nor constant). */
static inline uint64_t sdm_filtered(const struct oracle_counts *oc, int cpl,
				    enum sem s, unsigned per_step,
				    struct sdm_filter f, int *exact)
{
	uint64_t steps = oc->c[cpl][SEM_CLOCKS];
	uint64_t with = oc->steps_with[cpl][s];
	uint64_t max = per_step ? per_step : 1;
	uint64_t hit;

	*exact = 1;
	if (!f.cmask && !f.edge)
		return oc->c[cpl][s];
	if (f.edge) {
		*exact = !(f.inv && f.cmask);
		return f.cmask <= max ? oc->runs_with[cpl][s] : 0;
	}
	/* a step's count >= cmask: those with the count, when cmask is
	 * within what a step can hold */
	hit = f.cmask <= max ? with : 0;
	return f.inv ? steps - hit : hit;
}

#endif
