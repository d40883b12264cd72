/* netburst/<event>-<mask>-<os|usr|os-usr>-cpl<0|3>: each event-mask bit
 * the model counts, against the oracle, with each combination of the
 * ESCR's T0_OS and T0_USR (without Hyper-Threading: OS and USR, the same
 * bits 3 and 2, SDM Vol. 3B Figures 18-45 and 18-47, order no.
 * 253669-060US) and the benchmark at CPL 0 and at CPL 3.  T0_OS counts
 * "when thread 0 ... is executing at CPL of 0", T0_USR "at a CPL of 1, 2,
 * or 3" (§18.16.1): at a CPL the flags leave out the counter counts
 * nothing.  The harness runs on thread 0 (the bootstrap processor).
 *
 * What each bit counts, in the oracle's terms (pmu/sem.h), from the
 * definitions of the Chapter 19 NetBurst at-retirement and non-retirement
 * event tables (cited by title: "Performance Monitoring Events For Intel
 * NetBurst Microarchitecture for At-Retirement Counting" / "... for
 * Non-Retirement Counting"):
 *   instr_retired NBOGUSNTAG    non-bogus, untagged instructions retired:
 *                               every retired instruction (nothing is
 *                               tagged: TAG_ENABLE clear; no wrong path
 *                               retires, so nothing is bogus);
 *   uops_retired NBOGUS         non-bogus uops retired: on hardware at
 *                               least one per instruction; the model's
 *                               core makes each instruction one uop (its
 *                               stated convention), so = instructions;
 *   branch_retired MMNP / MMTP  branches retired not taken / taken, that
 *                               were predicted: near branches minus the
 *                               taken ones / the taken ones;
 *   branch_retired MMNM / MMTM  the same, mispredicted;
 *   mispred_branch_retired      mispredicted branches retired;
 *   NBOGUS                      (the model predicts every branch, so 0 -
 *                               on hardware at most the branches of that
 *                               kind);
 *   retired_branch_type         conditional jumps / calls / returns
 *   CONDITIONAL/CALL/RETURN     retired (Jcc, near CALL, near RET);
 *   global_power_events RUNNING the clocks in which the processor is
 *                               running (not halted): the model clock is
 *                               one per traced step; on hardware between
 *                               a third of the instructions (NetBurst
 *                               retires at most three uops per clock,
 *                               every instruction is at least one) and
 *                               the TSC span of the run.
 *
 * Under the model the counts are exact.  On hardware: counts with OS get
 * the driver's own CPL 0 code between start and stop as slack
 * (harness/pmu_run.h), mispredictions and clocks are ranges (above). */
#include "nb_test.h"

/* How a bit's definition reads in the oracle's counts. */
enum truth {
	T_SEM,		/* the count .sem */
	T_NOT_TAKEN,	/* near branches minus taken ones */
	T_CLOCKS,	/* processor clocks (the model clock) */
	T_UOPS,		/* uops: the model's one per instruction */
};

struct ev_case {
	const char *event, *mask;
	unsigned select, escr_sel, emask, ctr;
	const char *bench;
	enum truth truth;
	enum sem sem;
	int mispredicted;	/* only the mispredicted ones of .truth */
};

#define EV_N 24		/* benchmark parameter: a few hundred steps */

/* The events nb_test.h does not name (Chapter 19 at-retirement table;
 * Linux perf_event_p4.h agrees): uops_retired, CRU_ESCR0/1, CCCR select
 * 04H, event select 01H, NBOGUS bit 0; mispred_branch_retired, CRU_ESCR0/1,
 * CCCR select 04H, event select 03H, NBOGUS bit 0. */
#define UOPS_RETIRED 0x01
#define MISPRED_BRANCH_RETIRED 0x03
#define CRU01_SEL 4
#define NBOGUS (1u << 0)

enum {
	C_INSTR, C_UOPS, C_MMNP, C_MMNM, C_MMTP, C_MMTM, C_MISPRED, C_COND,
	C_CALL, C_RETURN, C_RUNNING,
};

/* Each event's event select and CCCR ESCR select. */
#define INSTR_RETIRED .event = "instr_retired", \
	.select = NBT_INSTR_RETIRED, .escr_sel = NBT_INSTR_RETIRED_SEL
#define UOPS .event = "uops_retired", .select = UOPS_RETIRED, \
	.escr_sel = CRU01_SEL
#define MISPRED .event = "mispred_branch_retired", \
	.select = MISPRED_BRANCH_RETIRED, .escr_sel = CRU01_SEL
#define BRANCH_RETIRED .event = "branch_retired", \
	.select = NBT_BRANCH_RETIRED, .escr_sel = NBT_BRANCH_RETIRED_SEL
#define BRANCH_TYPE .event = "retired_branch_type", \
	.select = NBT_RETIRED_BRANCH_TYPE, \
	.escr_sel = NBT_RETIRED_BRANCH_TYPE_SEL
#define POWER .event = "global_power_events", .select = NBT_GLOBAL_POWER, \
	.escr_sel = NBT_GLOBAL_POWER_SEL

/* The counters spread over the ESCR0 and ESCR1 side of each block
 * (Table 18-63); counter 1 is left out (its ENABLE is unreliable on
 * hardware: Linux p4.c). */
static const struct ev_case cases[] = {
	[C_INSTR] = { INSTR_RETIRED, .mask = "NBOGUSNTAG",
		      .emask = NBT_NBOGUSNTAG, .ctr = 12, .bench = "call-ret",
		      .truth = T_SEM, .sem = SEM_INSTRUCTIONS },
	[C_UOPS] = { UOPS, .mask = "NBOGUS", .emask = NBOGUS, .ctr = 14,
		     .bench = "call-ret", .truth = T_UOPS },
	[C_MMNP] = { BRANCH_RETIRED, .mask = "MMNP", .emask = NBT_MMNP,
		     .ctr = 13, .bench = "branch-alternating",
		     .truth = T_NOT_TAKEN },
	[C_MMNM] = { BRANCH_RETIRED, .mask = "MMNM", .emask = NBT_MMNM,
		     .ctr = 15, .bench = "branch-random",
		     .truth = T_NOT_TAKEN, .mispredicted = 1 },
	[C_MMTP] = { BRANCH_RETIRED, .mask = "MMTP", .emask = NBT_MMTP,
		     .ctr = 17, .bench = "branch-alternating", .truth = T_SEM,
		     .sem = SEM_TAKEN },
	[C_MMTM] = { BRANCH_RETIRED, .mask = "MMTM", .emask = NBT_MMTM,
		     .ctr = 12, .bench = "branch-random", .truth = T_SEM,
		     .sem = SEM_TAKEN, .mispredicted = 1 },
	[C_MISPRED] = { MISPRED, .mask = "NBOGUS", .emask = NBOGUS,
			.ctr = 16, .bench = "branch-random", .truth = T_SEM,
			.sem = SEM_BRANCHES, .mispredicted = 1 },
	[C_COND] = { BRANCH_TYPE, .mask = "CONDITIONAL",
		     .emask = NBT_BT_CONDITIONAL, .ctr = 4,
		     .bench = "branch-alternating", .truth = T_SEM,
		     .sem = SEM_COND },
	[C_CALL] = { BRANCH_TYPE, .mask = "CALL", .emask = NBT_BT_CALL,
		     .ctr = 5, .bench = "call-ret", .truth = T_SEM,
		     .sem = SEM_CALLS },
	[C_RETURN] = { BRANCH_TYPE, .mask = "RETURN", .emask = NBT_BT_RETURN,
		       .ctr = 6, .bench = "call-ret", .truth = T_SEM,
		       .sem = SEM_RETURNS },
	[C_RUNNING] = { POWER, .mask = "RUNNING", .emask = NBT_RUNNING,
			.ctr = 0, .bench = "rep-movsb", .truth = T_CLOCKS },
};

/* The events of .truth at one CPL, from the oracle's counts. */
static uint64_t truth_count(const struct ev_case *c, const uint64_t *oc)
{
	switch (c->truth) {
	case T_NOT_TAKEN:
		return oc[SEM_BRANCHES] - oc[SEM_TAKEN];
	case T_CLOCKS:
		return oc[SEM_CLOCKS];
	case T_UOPS:
		return oc[SEM_INSTRUCTIONS];
	default:
		return oc[c->sem];
	}
}

/* Does ESCR value escr count thread 0 at cpl (§18.16.1)? */
static int t0_counts_at(uint64_t escr, int cpl)
{
	return cpl == 0 ? !!(escr & NBT_ESCR_T0_OS) :
			  !!(escr & NBT_ESCR_T0_USR);
}

/* Hardware: clocks.  Counting at the benchmark's CPL: at least a third of
 * its instructions, at most the TSC ticks of the run (the TSC counts
 * every core clock, or on models 3 and later a constant rate no slower,
 * SDM Vol. 3B §17.17).  At the other CPL: the driver's CPL 0 code only
 * (OS), or nothing at all (USR while the benchmark runs at CPL 0). */
static struct pmu_expect hw_clocks(const struct pmu_run *r, uint64_t escr)
{
	struct pmu_expect x = { 0, r->tsc_span, "clocks <= TSC span (the "
				"driver's CPL 0 code)" };

	if (t0_counts_at(escr, r->cpl)) {
		x.lo = r->oc.c[r->cpl][SEM_INSTRUCTIONS] / 3;
		x.tolerance = "instructions/3 <= clocks <= TSC span";
	} else if (!(escr & NBT_ESCR_T0_OS)) {
		x.hi = 0;
		x.tolerance = NULL;
	}
	return x;
}

/* An event the trace counts exactly (pmu_run.h pmu_expect_counter):
 * exact under backend=emulated, the window's range on hardware.
 * Not-taken branches are the branches less the taken ones, in the window
 * as in the benchmark. */
static struct pmu_expect exact_on_emulated(const struct ev_case *c,
					   const struct pmu_run *r,
					   uint64_t n, unsigned cpls)
{
	struct pmu_expect x, taken;

	if (c->truth != T_NOT_TAKEN)
		return pmu_expect_counter(r, c->ctr, n, SEM_BIT(c->sem), cpls);
	x = pmu_expect_counter(r, c->ctr, n, SEM_BIT(SEM_BRANCHES), cpls);
	taken = pmu_expect_counter(r, c->ctr, 0, SEM_BIT(SEM_TAKEN), cpls);
	if (!x.traced || !taken.traced)
		return x;
	x.driver -= taken.driver;
	x.lo = x.hi = n + x.driver;
	return x;
}

static struct pmu_expect expect(const struct ev_case *c,
				const struct pmu_run *r, uint64_t escr)
{
	int here = t0_counts_at(escr, r->cpl);
	uint64_t n = here ? truth_count(c, r->oc.c[r->cpl]) : 0;
	/* T0_OS: "CPL of 0"; T0_USR: "a CPL of 1, 2, or 3" (§18.16.1),
	 * as a CPL set (pmu/driver.h's encoding, bit n: CPL n) */
	unsigned cpls = (escr & NBT_ESCR_T0_OS ? PMU_CPL(0) : 0) |
			(escr & NBT_ESCR_T0_USR ?
			 PMU_CPL(1) | PMU_CPL(2) | PMU_CPL(3) : 0);
	struct pmu_expect x = { 0 };

	if (pmu_on_model())
		return nbt_exact(c->mispredicted ? 0 : n);
	/* backend=emulated: the emulated PMU's clock is the model clock, one
	 * cycle per traced step (pmu/sem.h), so clocks are exact there too */
	if (c->truth == T_CLOCKS && backend_current()->id == BE_EMULATED)
		return pmu_expect_counter(r, c->ctr, n, SEM_BIT(SEM_CLOCKS),
					  cpls);
	if (c->truth == T_CLOCKS)
		return hw_clocks(r, escr);
	if (!c->mispredicted && c->truth != T_UOPS)
		return exact_on_emulated(c, r, n, cpls);
	if (c->mispredicted) {
		/* at most the branches of the kind: the benchmark's and those
		 * of the window's share (with OS, the driver's too) */
		x = exact_on_emulated(c, r, n, cpls);
		x.lo = 0;
		x.tolerance = "mispredictions: at most the branches of the "
			      "kind (and the driver's code with OS)";
	} else if (c->truth == T_UOPS) {
		/* call-ret has no instruction of more than four uops:
		 * longer ones come from the microcode ROM (Intel Pentium 4
		 * optimization reference), none here */
		x = pmu_expect_counter(r, c->ctr, n,
				       SEM_BIT(SEM_INSTRUCTIONS), cpls);
		x.hi *= 4;
		x.tolerance = "instructions <= uops <= 4 per instruction";
	}
	return x;
}

/* Once the counter counts: its ESCR and CCCR hold what the SDM's layout
 * gives (CCCR: the config with ENABLE, bit 12); pmu_run() logs them
 * after the run (<cpl>_escr, <cpl>_cccr) and the writes themselves
 * (<cpl>_wrmsr). */
static int regs_as_sdm(struct tcase *t, struct pmu_run *r)
{
	unsigned ctr = 0;
	uint64_t escr = 0, cccr = 0;
	uint32_t msr;

	while (ctr < NBT_COUNTERS && (r->idle >> ctr & 1))
		ctr++;
	msr = nbt_escr_msr(ctr, nbt_cccr_sel(r->cfg[ctr].aux), nbt_sig());
	if (!check(t, msr != 0, "counter %u: no ESCR at select %u", ctr,
		   nbt_cccr_sel(r->cfg[ctr].aux)) ||
	    !check(t, be_rdmsr(msr, &escr) == 0 &&
		   be_rdmsr(NBT_MSR_CCCR(ctr), &cccr) == 0, "reading back "
		   "counter %u's ESCR 0x%x and CCCR", ctr, msr))
		return 0;
	r->seen[0] = (struct pmu_seen){ "escr", escr };
	r->seen[1] = (struct pmu_seen){ "cccr", cccr };
	r->n_seen = 2;
	return check(t, escr == r->cfg[ctr].sel, "ESCR 0x%x reads 0x%llx, "
		     "configured 0x%llx", msr, (unsigned long long)escr,
		     (unsigned long long)r->cfg[ctr].sel) &&
	       check(t, cccr == (r->cfg[ctr].aux | NBT_CCCR_ENABLE), "CCCR "
		     "%u reads 0x%llx, the config with ENABLE is 0x%llx", ctr,
		     (unsigned long long)cccr,
		     (unsigned long long)(r->cfg[ctr].aux | NBT_CCCR_ENABLE));
}

static void event_test(struct tcase *t, const struct ev_case *c,
		       uint64_t flags, int cpl)
{
	const struct pmu_driver *d = nb_ready(t);
	struct pmu_run r = { .bench = c->bench, .n = EV_N, .cpl = cpl,
			     .n_ctrs = NBT_COUNTERS,
			     .idle = ~(1u << c->ctr),
			     .started = regs_as_sdm };
	struct pmu_expect x = { 0 };

	if (!d)
		return;
	r.cfg[c->ctr].sel = nbt_escr((struct nbt_escr){ .event = c->select,
							.emask = c->emask }) |
			    flags;
	r.cfg[c->ctr].aux = nbt_cccr((struct nbt_cccr){
		.escr_sel = c->escr_sel, .active = NBT_ANY });
	value(t, "event", "%s %s on counter %u", c->event, c->mask, c->ctr);
	if (!pmu_run(t, &r))
		return;
	x = expect(c, &r, r.cfg[c->ctr].sel);
	value(t, "oracle_counts", "cpl%d: %llu instructions, %llu branches, "
	      "%llu taken, %llu steps", cpl,
	      (unsigned long long)r.oc.c[cpl][SEM_INSTRUCTIONS],
	      (unsigned long long)r.oc.c[cpl][SEM_BRANCHES],
	      (unsigned long long)r.oc.c[cpl][SEM_TAKEN],
	      (unsigned long long)r.oc.c[cpl][SEM_CLOCKS]);
	nbt_check_count(t, NULL, c->ctr, 0, r.got[c->ctr], &x);
	nbt_log_model(t, NULL, &r, c->ctr);
}

/* One test per event-mask bit, ESCR flags and CPL. */
#define T0_OS_USR (NBT_ESCR_T0_OS | NBT_ESCR_T0_USR)
#define EV_TEST(id, name, what, fl, flname, flags, cpl)                      \
	static void test_##id##_##fl##_##cpl(struct tcase *t)                \
	{                                                                    \
		event_test(t, &cases[id], flags, cpl);                       \
	}                                                                    \
	TEST(nb_ev_##id##_##fl##_##cpl,                                      \
	     "netburst/" name "-" flname "-cpl" #cpl,                        \
	     what " with " flname " at CPL " #cpl ": the oracle's count, "   \
	     "0 at a CPL the flags leave out", test_##id##_##fl##_##cpl, 0);
#define EV_TESTS(id, name, what)                                             \
	EV_TEST(id, name, what, os, "os", NBT_ESCR_T0_OS, 0)                 \
	EV_TEST(id, name, what, os, "os", NBT_ESCR_T0_OS, 3)                 \
	EV_TEST(id, name, what, usr, "usr", NBT_ESCR_T0_USR, 0)              \
	EV_TEST(id, name, what, usr, "usr", NBT_ESCR_T0_USR, 3)              \
	EV_TEST(id, name, what, os_usr, "os-usr", T0_OS_USR, 0)              \
	EV_TEST(id, name, what, os_usr, "os-usr", T0_OS_USR, 3)

EV_TESTS(C_INSTR, "instr_retired-nbogusntag", "non-bogus instructions")
EV_TESTS(C_UOPS, "uops_retired-nbogus", "non-bogus uops")
EV_TESTS(C_MMNP, "branch_retired-mmnp", "not-taken predicted branches")
EV_TESTS(C_MMNM, "branch_retired-mmnm", "not-taken mispredicted branches")
EV_TESTS(C_MMTP, "branch_retired-mmtp", "taken predicted branches")
EV_TESTS(C_MMTM, "branch_retired-mmtm", "taken mispredicted branches")
EV_TESTS(C_MISPRED, "mispred_branch_retired-nbogus",
	 "mispredicted branches")
EV_TESTS(C_COND, "retired_branch_type-conditional", "conditional branches")
EV_TESTS(C_CALL, "retired_branch_type-call", "calls")
EV_TESTS(C_RETURN, "retired_branch_type-return", "returns")
EV_TESTS(C_RUNNING, "global_power_events-running", "clocks running")
