/* p6/cmask-*, p6/inv, p6/edge: the counter mask, invert and edge-detect
 * fields of PerfEvtSel (SDM Vol. 3B §18.22.1).  PerfCtr0 counts
 * INST_RETIRED (0 or 1 per model cycle: a REP MOVSB iteration that is not
 * the last retires nothing), PerfCtr1 CPU_CLK_UNHALTED (1 per model
 * cycle), over REP MOVSB at CPL 3, whose steps alternate between
 * retiring and not.  The expectation is tests/perfmon/evtsel_sdm.h's,
 * from the oracle's counts, steps with and runs of steps with each count:
 *   CMASK c > 0: cycles whose count is >= c (INV: < c);
 *   CMASK 0: every event (INV ignored);
 *   E: deasserted-to-asserted transitions of that condition. */
#include "p6_test.h"

#define FILTER_BENCH "rep-movsb"
#define FILTER_BENCH_N 24

struct filt {
	unsigned cmask, inv, e;
};

static void filter_run(struct tcase *t, const char *label, struct filt f0,
		       struct filt f1)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct pmu_run r;

	if (!d)
		return;
	p6_setup(&r, FILTER_BENCH, FILTER_BENCH_N, 3,
		 (struct sdm_sel){ .event = SDM_P6_INST_RETIRED, .usr = 1,
				   .cmask = f0.cmask, .inv = f0.inv,
				   .e = f0.e },
		 (struct sdm_sel){ .event = SDM_P6_CPU_CLK_UNHALTED,
				   .usr = 1, .cmask = f1.cmask, .inv = f1.inv,
				   .e = f1.e });
	r.label = label;
	if (!pmu_run(t, &r))
		return;
	value(t, "oracle_steps", "%llu, %llu retiring, %llu runs of them",
	      (unsigned long long)r.oc.c[3][SEM_CLOCKS],
	      (unsigned long long)r.oc.steps_with[3][SEM_INSTRUCTIONS],
	      (unsigned long long)r.oc.runs_with[3][SEM_INSTRUCTIONS]);
	p6_check(t, d, &r, 0);
	p6_check(t, d, &r, 1);
}

/* CMASK 1: cycles with at least one instruction retired (here: each
 * retiring step) and every clock. */
static void test_cmask_1(struct tcase *t)
{
	filter_run(t, "cmask1", (struct filt){ 1, 0, 0 },
		   (struct filt){ 1, 0, 0 });
}

/* CMASK 2: no model cycle retires two instructions or has two clocks:
 * nothing.  CMASK 255 the same.  A counter that ignored CMASK would
 * count every instruction and clock. */
static void test_cmask_2(struct tcase *t)
{
	filter_run(t, "cmask2", (struct filt){ 2, 0, 0 },
		   (struct filt){ 2, 0, 0 });
}

static void test_cmask_255(struct tcase *t)
{
	filter_run(t, "cmask255", (struct filt){ 255, 0, 0 },
		   (struct filt){ 255, 0, 0 });
}

/* INV with CMASK 1: cycles that retire nothing (the REP iterations that
 * are not the last); INV with CMASK 0 is ignored (every clock); INV with
 * CMASK 2: every cycle has fewer than 2. */
static void test_inv(struct tcase *t)
{
	filter_run(t, "inv_cmask1", (struct filt){ 1, 1, 0 },
		   (struct filt){ 0, 1, 0 });
	filter_run(t, "inv_cmask2", (struct filt){ 2, 1, 0 },
		   (struct filt){ 2, 1, 0 });
}

/* E: runs of retiring cycles (each REP iteration that retires nothing
 * ends one) and one run of clocks; E with CMASK 1 the same; E with
 * CMASK 2 never asserts. */
static void test_edge(struct tcase *t)
{
	filter_run(t, "edge", (struct filt){ 0, 0, 1 },
		   (struct filt){ 0, 0, 1 });
	filter_run(t, "edge_cmask1", (struct filt){ 1, 0, 1 },
		   (struct filt){ 2, 0, 1 });
}

TEST(p6_cmask_1, "p6/cmask-1",
     "CMASK=1: cycles with >= 1 event (instructions, clocks)",
     test_cmask_1, 0);
TEST(p6_cmask_2, "p6/cmask-2",
     "CMASK=2: no model cycle has two instructions or clocks",
     test_cmask_2, 0);
TEST(p6_cmask_255, "p6/cmask-255", "CMASK=255 counts no model cycle",
     test_cmask_255, 0);
TEST(p6_inv, "p6/inv",
     "INV with CMASK: cycles below the mask; INV without CMASK ignored",
     test_inv, 0);
TEST(p6_edge, "p6/edge",
     "E: deasserted-to-asserted transitions of the CMASK condition",
     test_edge, 0);
