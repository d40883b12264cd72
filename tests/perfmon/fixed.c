/* perfmon/fixed-*: each fixed-function counter (SDM Vol. 3B §18.2.2,
 * Table 18-2, Figure 18-2; FIXED_CTR3 §18.2.5) under each enable code of
 * its FIXED_CTR_CTRL field - 0 off, 1 OS (CPL 0), 2 USR (CPL > 0), 3
 * both - over a run at CPL 3 and one at CPL 0.  What each counts is
 * perfmon_events.c's pm_fixed_counts, written from Table 18-2: FC0
 * instructions retired, FC1 core cycles, FC2 reference cycles (the
 * model's ratio: pmu/sem.h), FC3 topdown slots (not modelled); rep-movsb
 * makes the three differ (REP iterations are cycles, not instructions).
 * Whether the counter exists is CPUID.0AH's (EDX[4:0], v5 ECX[i]); one
 * it does not enumerate must be refused. */
#include "perfmon_test.h"

static void fixed_at(struct tcase *t, const struct pmu_driver *d,
		     unsigned i, unsigned field, int cpl)
{
	unsigned ctr = pm_fixed_ctr(i);
	char label[16] = "en?_cpl?";
	struct pmu_run r;

	label[2] = (char)('0' + field);
	label[7] = (char)('0' + cpl);
	pm_setup(&r, label, "rep-movsb", 48, cpl);
	pm_add(&r, ctr, field);
	if (!pmu_run(t, &r))
		return;
	pm_check(t, d, &r, ctr);
}

static void fixed_test(struct tcase *t, unsigned i)
{
	struct pm_sdm s;
	const struct pmu_driver *d = pm_ready(t, &s);
	const struct pm_event *ev = &pm_events[pm_fixed_counts[i]];
	struct pmu_config on = { SDM_FIX_OS | SDM_FIX_USR, 0 };
	struct pmu_err e;

	if (!d)
		return;
	value(t, "counts", "%s", ev->name);
	if (!s.fixed[i]) {
		value(t, "exists", "no (version %u, EDX[4:0] %u, ECX 0x%x)",
		      s.version, s.n_fixed, s.k.ecx);
		if (check(t, d->init(&e) == 0, "init: %s", e.msg))
			check(t, d->program(pm_fixed_ctr(i), &on, &e) != 0,
			      "fixed counter %u does not exist but was "
			      "accepted", i);
		value(t, "refused", "%s", e.msg);
		return;
	}
	if (!ev->sem && pmu_on_model()) {
		skip(t, "fixed counter %u (%s) not modelled: %s", i, ev->name,
		     ev->why_not);
		return;
	}
	for (unsigned field = 0; field < 4; field++) {
		fixed_at(t, d, i, field, 3);
		fixed_at(t, d, i, field, 0);
	}
}

#define FIXED(i)                                                             \
	static void test_fixed##i(struct tcase *t) { fixed_test(t, i); }     \
	TEST(perfmon_fixed##i, "perfmon/fixed-" #i,                          \
	     "fixed counter " #i ": enable codes 0-3 at CPL 0 and 3",        \
	     test_fixed##i, 0)

FIXED(0);
FIXED(1);
FIXED(2);
FIXED(3);
