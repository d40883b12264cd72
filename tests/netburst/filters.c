/* netburst/compare-*: the CCCR's event filter (SDM Vol. 3B §18.15.3 and
 * Figure 18-46, order no. 253669-060US) against counts derived from the
 * trace.  The ESCR delivers an event count per clock; the CCCR, with
 *   Compare (bit 18)    "enables filtering of the event count";
 *   Complement (bit 19) clear: a clock counts 1 when its event count is
 *                       greater than the threshold; set: when it is less
 *                       than or equal to it;
 *   Threshold (23:20)   the value compared with;
 *   Edge (bit 24)       "rising edge (false-to-true) edge detection of the
 *                       threshold comparison output": a clock counts only
 *                       when the comparison became true after a clock
 *                       where it was false.
 * This file's transcription of that rule (sdm_filter() below) runs over a
 * trace of the same benchmarks, with the per-clock count n of each ESCR
 * from the events' definitions (Chapter 19 NetBurst event tables):
 *   instr_retired NBOGUSNTAG         1 in a clock that retires an
 *                                    instruction (a REP iteration that is
 *                                    not the last retires none), else 0;
 *   branch_retired MMNP|MMTP         1 in a clock that retires a branch;
 *   retired_branch_type              1 in a clock that retires a
 *   CONDITIONAL|CALL|RETURN          conditional jump, call or return:
 *                                    the three are disjoint, so never 2;
 *   global_power_events RUNNING      1 in every clock;
 *   an ESCR whose T0 flags leave the CPL out delivers 0.
 * The model's clock is one traced step (pmu/model.h); the edge detector
 * starts deasserted when the counter is programmed (the SDM does not say
 * what it holds before the first clock: the model's stated choice).
 *
 * One run per test: every counter below counts while rep-movsb, call-ret
 * and branch-alternating run in turn at CPL 3, each counter with the
 * test's filter:
 *   12  instr_retired, CRU_ESCR0, T0_USR
 *   16  the same ESCR (12 and 16 share CRU_ESCR0), the filter with
 *       Complement inverted
 *   13  branch_retired MMNP|MMTP, CRU_ESCR2, T0_USR
 *    4  retired_branch_type CONDITIONAL|CALL|RETURN, TBPU_ESCR0, T0_USR
 *    0  global_power_events RUNNING, FSB_ESCR0, T0_USR
 *   14  instr_retired, CRU_ESCR1, T0_OS only: delivers 0 at CPL 3
 * Under the model the counts are exact.  On hardware a filtered count
 * counts clocks, including the driver's between start and stop: between
 * 0 and the TSC span of the run. */
#include "nb_test.h"
#include "../../arch/x86/cpu.h"
#include "../../harness/need.h"

#define N_BENCH 3
#define N_CTRS 6

static const struct {
	const char *name;
	uint64_t n;
} benches[N_BENCH] = {
	{ "rep-movsb", 16 },
	{ "call-ret", 6 },
	{ "branch-alternating", 9 },
};

struct filt {
	unsigned compare, complement, threshold, edge;
};

/* What an ESCR delivers in one clock at the step's CPL (above). */
struct source {
	const char *what;
	unsigned event, escr_sel, emask;
	uint64_t flags;			/* T0_OS / T0_USR */
	uint64_t (*per_clock)(const struct insn_event *e);
};

static uint64_t retires_insn(const struct insn_event *e)
{
	return sem_once(SEM_INSTRUCTIONS, e);
}

static uint64_t retires_branch(const struct insn_event *e)
{
	return sem_once(SEM_BRANCHES, e);
}

static uint64_t retires_cond_call_ret(const struct insn_event *e)
{
	return sem_once(SEM_COND, e) + sem_once(SEM_CALLS, e) +
	       sem_once(SEM_RETURNS, e);
}

static uint64_t every_clock(const struct insn_event *e)
{
	(void)e;
	return 1;
}

static const struct source instr_usr = {
	"instr_retired NBOGUSNTAG T0_USR", NBT_INSTR_RETIRED,
	NBT_INSTR_RETIRED_SEL, NBT_NBOGUSNTAG, NBT_ESCR_T0_USR, retires_insn,
};
static const struct source instr_os = {
	"instr_retired NBOGUSNTAG T0_OS", NBT_INSTR_RETIRED,
	NBT_INSTR_RETIRED_SEL, NBT_NBOGUSNTAG, NBT_ESCR_T0_OS, retires_insn,
};
static const struct source branches = {
	"branch_retired MMNP|MMTP T0_USR", NBT_BRANCH_RETIRED,
	NBT_BRANCH_RETIRED_SEL, NBT_MMNP | NBT_MMTP, NBT_ESCR_T0_USR,
	retires_branch,
};
static const struct source branch_types = {
	"retired_branch_type CONDITIONAL|CALL|RETURN T0_USR",
	NBT_RETIRED_BRANCH_TYPE, NBT_RETIRED_BRANCH_TYPE_SEL,
	NBT_BT_CONDITIONAL | NBT_BT_CALL | NBT_BT_RETURN, NBT_ESCR_T0_USR,
	retires_cond_call_ret,
};
static const struct source clocks = {
	"global_power_events RUNNING T0_USR", NBT_GLOBAL_POWER,
	NBT_GLOBAL_POWER_SEL, NBT_RUNNING, NBT_ESCR_T0_USR, every_clock,
};

/* One counter of the run and the trace's side of it. */
struct fctr {
	unsigned ctr;
	const struct source *src;
	int invert_complement;		/* counter 16 */
	struct filt f;
	int was_true;			/* the comparison's last output */
	uint64_t want;
};

static uint64_t escr_of(const struct source *s)
{
	return nbt_escr((struct nbt_escr){ .event = s->event,
					   .emask = s->emask }) | s->flags;
}

static uint64_t cccr_of(const struct source *s, struct filt f)
{
	return nbt_cccr((struct nbt_cccr){ .escr_sel = s->escr_sel,
					   .active = NBT_ANY,
					   .compare = f.compare,
					   .complement = f.complement,
					   .threshold = f.threshold,
					   .edge = f.edge });
}

/* The per-clock rule of §18.15.3 as this file reads it (above). */
static uint64_t sdm_filter(struct filt f, int *was_true, uint64_t n)
{
	int now, rose;

	if (!f.compare)
		return n;
	now = f.complement ? n <= f.threshold : n > f.threshold;
	rose = now && !*was_true;
	*was_true = now;
	return f.edge ? (uint64_t)rose : (uint64_t)now;
}

/* Does the ESCR count thread 0 at cpl (T0_OS: CPL 0, T0_USR: 1-3)? */
static int counts_at(uint64_t flags, unsigned cpl)
{
	return cpl == 0 ? !!(flags & NBT_ESCR_T0_OS) :
			  !!(flags & NBT_ESCR_T0_USR);
}

struct trace_side {
	struct fctr *c;
	uint64_t clocks;
};

static void filter_sink(const struct insn_event *e, void *ctx)
{
	struct trace_side *s = ctx;

	s->clocks++;
	for (unsigned i = 0; i < N_CTRS; i++) {
		struct fctr *c = &s->c[i];
		uint64_t n = counts_at(c->src->flags, e->cpl) ?
			     c->src->per_clock(e) : 0;

		c->want += sdm_filter(c->f, &c->was_true, n);
	}
}

static void setup(struct fctr *c, struct filt f)
{
	struct filt inv = f;

	inv.complement = !f.complement;
	c[0] = (struct fctr){ .ctr = 12, .src = &instr_usr, .f = f };
	c[1] = (struct fctr){ .ctr = 16, .src = &instr_usr, .f = inv,
			      .invert_complement = 1 };
	c[2] = (struct fctr){ .ctr = 13, .src = &branches, .f = f };
	c[3] = (struct fctr){ .ctr = 4, .src = &branch_types, .f = f };
	c[4] = (struct fctr){ .ctr = 0, .src = &clocks, .f = f };
	c[5] = (struct fctr){ .ctr = 14, .src = &instr_os, .f = f };
}

/* The trace's counts: the benchmarks in the run's order. */
static int derive(struct tcase *t, struct fctr *c, uint64_t *steps)
{
	struct trace_side s = { c, 0 };
	struct fault f;

	for (unsigned i = 0; i < N_BENCH; i++) {
		const struct bench *b = bench_find(benches[i].name);

		if (!check(t, b != NULL, "no benchmark %s",
			   benches[i].name) || !need_bench_data(t, b) ||
		    !check(t, bench_exec(b, benches[i].n, 3, NULL,
					 filter_sink, &s, &f) == 0,
			   "trace of %s failed", benches[i].name))
			return 0;
	}
	*steps = s.clocks;
	return 1;
}

static int program(struct tcase *t, const struct pmu_driver *d,
		   const struct fctr *c)
{
	struct pmu_err e;

	for (unsigned i = 0; i < N_CTRS; i++) {
		struct pmu_config cfg = { escr_of(c[i].src),
					  cccr_of(c[i].src, c[i].f) };

		if (!check(t, d->program(c[i].ctr, &cfg, &e) == 0, "program "
			   "counter %u: %s", c[i].ctr, e.msg))
			return 0;
	}
	for (unsigned i = 0; i < N_CTRS; i++)
		if (!check(t, d->start(c[i].ctr, &e) == 0, "start counter %u: "
			   "%s", c[i].ctr, e.msg))
			return 0;
	return 1;
}

/* Programs, runs the benchmarks, stops and reads into got[]. */
static int run(struct tcase *t, const struct pmu_driver *d,
	       const struct fctr *c, struct nbt_trail *tr, uint64_t *got,
	       uint64_t *tsc_span)
{
	struct oracle_counts oc[N_BENCH];
	struct pmu_err e;
	int ok;

	for (unsigned i = 0; i < N_BENCH; i++)
		if (!pmu_oracle_first(t, benches[i].name, benches[i].n,
				      &oc[i]))
			return 0;
	*tsc_span = rdtsc();
	nbt_trail_open(tr);
	ok = program(t, d, c);
	nbt_trail_close();
	for (unsigned i = 0; ok && i < N_BENCH; i++)
		ok = pmu_exec(t, benches[i].name, benches[i].n, &oc[i]);
	for (unsigned i = 0; ok && i < N_CTRS; i++)
		ok = check(t, d->stop(c[i].ctr, &e) == 0 &&
			   d->read(c[i].ctr, &got[i], &e) == 0, "counter %u: "
			   "%s", c[i].ctr, e.msg);
	*tsc_span = rdtsc() - *tsc_span;
	return ok;
}

static void filter_test(struct tcase *t, struct filt f)
{
	const struct pmu_driver *d = nb_ready(t);
	static struct nbt_trail tr;
	struct fctr c[N_CTRS];
	uint64_t got[N_CTRS] = { 0 }, steps = 0, span = 0;

	if (!d)
		return;
	setup(c, f);
	if (!derive(t, c, &steps) || !run(t, d, c, &tr, got, &span))
		return;
	value(t, "benchmarks", "%s %llu, %s %llu, %s %llu at CPL 3: %llu "
	      "clocks (traced steps)", benches[0].name,
	      (unsigned long long)benches[0].n, benches[1].name,
	      (unsigned long long)benches[1].n, benches[2].name,
	      (unsigned long long)benches[2].n, (unsigned long long)steps);
	for (unsigned i = 0; i < N_CTRS; i++) {
		struct pmu_expect x = nbt_exact(c[i].want);
		char k[24];

		if (!pmu_on_model()) {
			x.lo = 0;
			x.hi = span;
			x.tolerance = "a filtered count counts clocks: <= TSC "
				      "span";
		}
		fmt_snprintf(k, sizeof(k), "ctr%u_counts", c[i].ctr);
		value(t, k, "%s%s", c[i].src->what, c[i].invert_complement ?
		      ", Complement inverted" : "");
		nbt_log_counter(t, NULL, &tr, c[i].ctr, 0, got[i], &x);
	}
}

/* Compare, threshold 0: clocks with at least one event. */
static void test_thr0(struct tcase *t)
{
	filter_test(t, (struct filt){ .compare = 1 });
}

/* Complement, threshold 0: clocks without one. */
static void test_complement(struct tcase *t)
{
	filter_test(t, (struct filt){ .compare = 1, .complement = 1 });
}

/* Complement, threshold 0, edge: each start of a run of clocks without
 * one. */
static void test_complement_edge(struct tcase *t)
{
	filter_test(t, (struct filt){ .compare = 1, .complement = 1,
				      .edge = 1 });
}

/* Compare, threshold 0, edge: each start of a run of clocks with one. */
static void test_edge(struct tcase *t)
{
	filter_test(t, (struct filt){ .compare = 1, .edge = 1 });
}

/* Threshold 1: no clock delivers more than 1 (retired_branch_type's three
 * bits are disjoint kinds of branch): 0 everywhere; counter 16's
 * Complement makes it every clock. */
static void test_thr1(struct tcase *t)
{
	filter_test(t, (struct filt){ .compare = 1, .threshold = 1 });
}

TEST(nb_compare_thr0, "netburst/compare-thr0",
     "COMPARE, threshold 0: one count per clock with more than 0 events",
     test_thr0, 0);
TEST(nb_compare_complement, "netburst/compare-complement-thr0",
     "COMPARE+COMPLEMENT, threshold 0: one count per clock with 0 events",
     test_complement, 0);
TEST(nb_compare_complement_edge, "netburst/compare-complement-thr0-edge",
     "COMPARE+COMPLEMENT+EDGE: clocks where 'no event' became true",
     test_complement_edge, 0);
TEST(nb_compare_edge, "netburst/compare-edge",
     "COMPARE+EDGE, threshold 0: clocks where 'events > 0' became true",
     test_edge, 0);
TEST(nb_compare_thr1_sum, "netburst/compare-thr1-sum",
     "threshold 1 on CONDITIONAL|CALL|RETURN: never more than 1 a clock, "
     "so 0", test_thr1, 0);
