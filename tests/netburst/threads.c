/* netburst/ht-*: the PMU with Hyper-Threading, one register file for both
 * logical processors of the core (SDM Vol. 3B §18.16, order no.
 * 253669-060US):
 *   - the ESCR's T0_OS / T0_USR count logical processor 0's events at CPL
 *     0 / 1-3, T1_OS / T1_USR logical processor 1's (§18.16.1, Figure
 *     18-47);
 *   - the CCCR's active-thread field (bits 17:16, §18.16.2, Figure 18-48)
 *     lets a counter count only while no (00), exactly one (01), both
 *     (10) or at least one (11) logical processor is active; a halted
 *     processor is inactive;
 *   - OVF_PMI_T0 / OVF_PMI_T1 (CCCR bits 26 / 27) send the overflow's PMI
 *     to logical processor 0 / 1.
 * This processor (the bootstrap processor, BSP) runs benchmark A
 * (call-ret) at CPL 3, traced through the model (pmu_exec()); then its
 * sibling (arch/x86/smp.h) runs a different benchmark B
 * (branch-alternating) at CPL 0, traced there (CPL 3 is not supported
 * there).  Counters are programmed once, from the BSP, and count through
 * both.  Which of the two is logical processor 0 (T0) is the SMT bit of
 * the BSP's initial APIC ID (nbt_bsp_thread(), logged as bsp_thread),
 * not an assumption: the BSP is thread 0 on every boot here, but need
 * not be.
 *
 * What the model takes for "active" (its stated convention): thread 0 is
 * always active (it runs the harness, or polls the firmware while the
 * sibling runs); thread 1 is active only while it runs harness code, else
 * the firmware keeps it halted.  So during A one logical processor is
 * active, during B both.  With all four T bits: NONE counts 0, SINGLE A's
 * events only, BOTH B's only, ANY both.
 *
 * Without Hyper-Threading (CPUID.01H:EDX.HTT clear or fewer than two
 * logical processors per package) these tests SKIP: the T1 bits and
 * OVF_PMI_T1 are reserved there and the active-thread field must be 11B;
 * netburst/reserved-no-ht checks that the driver refuses them.
 *
 * Under the model every count is exact.  On hardware thread 0 polls in
 * the firmware at CPL 0 while thread 1 runs, and thread 1 runs the
 * firmware's code at CPL 0 around B: counts with T0_OS or T1_OS are lower
 * bounds; the active-thread filters depend on whether the firmware halts
 * a waiting sibling (only NONE and ANY are checked); clocks are bounded
 * by the TSC span per thread; USR-only counts are exact. */
#include "nb_test.h"
#include "../../harness/pmi_run.h"
#include "../../harness/need.h"
#include "../../harness/smp_run.h"
#include "../../arch/x86/apic.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/smp.h"

/* The logical processor (0: T0, 1: T1) this processor - the bootstrap
 * processor, which ran CPUID for cpu_info() - is: with two logical
 * processors per package, the SMT ID, the lowest bit of the initial APIC
 * ID CPUID.01H:EBX[31:24] (Vol. 3A §8.4.5 "Identifying Logical Processors
 * in an MP System", which §18.16.1 refers to for T0/T1; perfctr:
 * cpuid_ebx(1) >> 24 & 1); 0 without HT.  The sibling is the other. */
static unsigned nbt_bsp_thread(const struct cpu_info *ci)
{
	return nbt_has_ht(ci) ? (ci->f1_ebx >> 24) & 1 : 0;
}

#define A_BENCH "call-ret"
#define A_N 20
#define B_BENCH "branch-alternating"
#define B_N 15
#define MAX_CTRS 10
#define WHY 240
#define T_ALL (NBT_ESCR_T0_OS | NBT_ESCR_T0_USR | NBT_ESCR_T1_OS | \
	       NBT_ESCR_T1_USR)

/* An ESCR's event and, per step, how many it delivers (the Chapter 19
 * NetBurst event tables in the oracle's terms). */
struct source {
	const char *name;
	unsigned event, escr_sel, emask;
	uint32_t sems;			/* SEM_BIT()s summed */
};

/* instr_retired NBOGUSNTAG: every retired instruction (nothing tagged,
 * nothing bogus).  global_power_events RUNNING: every clock (the model
 * clock: one per traced step of either thread).  retired_branch_type
 * CONDITIONAL|CALL|RETURN: Jcc, near calls and near returns. */
static const struct source instr = {
	"instr_retired NBOGUSNTAG", NBT_INSTR_RETIRED, NBT_INSTR_RETIRED_SEL,
	NBT_NBOGUSNTAG, SEM_BIT(SEM_INSTRUCTIONS),
};
static const struct source clocks = {
	"global_power_events RUNNING", NBT_GLOBAL_POWER, NBT_GLOBAL_POWER_SEL,
	NBT_RUNNING, SEM_BIT(SEM_CLOCKS),
};
static const struct source branch_types = {
	"retired_branch_type CONDITIONAL|CALL|RETURN",
	NBT_RETIRED_BRANCH_TYPE, NBT_RETIRED_BRANCH_TYPE_SEL,
	NBT_BT_CONDITIONAL | NBT_BT_CALL | NBT_BT_RETURN,
	SEM_BIT(SEM_COND) | SEM_BIT(SEM_CALLS) | SEM_BIT(SEM_RETURNS),
};

struct hctr {
	unsigned ctr;
	const struct source *src;
	uint64_t tbits;			/* T0_OS ... T1_USR */
	unsigned active;		/* NBT_NONE ... NBT_ANY */
	uint64_t cccr_extra;		/* OVF_PMI_T0/T1 */
	uint64_t preset, got;
};

/* Thread 1's part: B at CPL 0, and for the PMI tests its LVTPC armed for
 * an NMI around it (the harness's PMI path programs only the LVTPC of
 * the processor that arms it; the NMI gate and hook are shared, so only
 * the sibling's own LVTPC needs setting). */
struct sibling_job {
	const struct bench *b;
	struct oracle_counts oc;
	struct fault f;
	int ret;
	int arm_lvtpc;
	uint32_t apic_id, lvtpc_before, lvtpc_after;
};

struct ht_run {
	struct hctr c[MAX_CTRS];
	unsigned n;
	int spin;			/* the sibling spins during A */
	struct oracle_counts a;		/* thread 0's A */
	struct sibling_job *j;		/* thread 1's B */
	uint64_t span;			/* TSC ticks, start to stop */
	struct nbt_trail tr;
};

static struct sibling_job job;
static struct ht_run run_;

static void on_sibling(void *arg)
{
	struct sibling_job *j = arg;

	j->apic_id = apic_id();
	if (j->arm_lvtpc) {
		j->lvtpc_before = apic_lvtpc();
		apic_set_lvtpc(APIC_DM_NMI << LVT_DM_SHIFT);
	}
	j->ret = bench_exec(j->b, B_N, 0, &j->oc, be_sibling_sink(), NULL,
			    &j->f);
	if (j->arm_lvtpc) {
		j->lvtpc_after = apic_lvtpc();
		apic_set_lvtpc(j->lvtpc_before);
	}
}

/* SKIPs without HT or a sibling; the driver, initialised, otherwise. */
static const struct pmu_driver *ht_ready(struct tcase *t)
{
	const struct pmu_driver *d = nb_ready(t);

	if (!d)
		return NULL;
	if (!nbt_has_ht(cpu_info())) {
		skip(t, "no HT (CPUID.01H EDX.HTT=%u, EBX[23:16]=%u, %u cores "
		     "per package (CPUID.04H)): T1 bits, OVF_PMI_T1 reserved, "
		     "active thread 11B only (see netburst/reserved-no-ht)",
		     cpu_info()->f1_edx >> 28 & 1,
		     cpu_info()->f1_ebx >> 16 & 0xff, nbt_cores_per_package());
		return NULL;
	}
	return sibling_ready(t) ? d : NULL;
}

static void add(struct ht_run *r, unsigned ctr, const struct source *s,
		uint64_t tbits, unsigned active)
{
	r->c[r->n++] = (struct hctr){ .ctr = ctr, .src = s, .tbits = tbits,
				      .active = active };
}

static struct pmu_config config_of(const struct hctr *c)
{
	struct pmu_config cfg;

	cfg.sel = nbt_escr((struct nbt_escr){ .event = c->src->event,
					      .emask = c->src->emask }) |
		  c->tbits;
	cfg.aux = nbt_cccr((struct nbt_cccr){ .escr_sel = c->src->escr_sel,
					      .active = c->active }) |
		  c->cccr_extra;
	return cfg;
}

static int program(struct tcase *t, const struct pmu_driver *d,
		   struct ht_run *r)
{
	struct pmu_err e;
	int ok = 1;

	nbt_trail_open(&r->tr);
	for (unsigned i = 0; ok && i < r->n; i++) {
		struct pmu_config cfg = config_of(&r->c[i]);

		ok = check(t, d->program(r->c[i].ctr, &cfg, &e) == 0 &&
			   d->reset(r->c[i].ctr, r->c[i].preset, &e) == 0,
			   "program counter %u: %s", r->c[i].ctr, e.msg);
	}
	for (unsigned i = 0; ok && i < r->n; i++)
		ok = check(t, d->start(r->c[i].ctr, &e) == 0, "start counter "
			   "%u: %s", r->c[i].ctr, e.msg);
	nbt_trail_close();
	return ok;
}

/* Before anything counts: on hardware, the oracle's counts of A (CPL 3)
 * and of B (CPL 0), both traced here. */
static int oracle_first(struct tcase *t, struct ht_run *r)
{
	r->j->b = bench_find(B_BENCH);
	if (!check(t, r->j->b != NULL, "no benchmark " B_BENCH) ||
	    !need_bench_data(t, r->j->b) ||
	    !pmu_oracle_first(t, A_BENCH, A_N, &r->a))
		return 0;
	return backend_current()->sink ||
	       check(t, oracle_run(r->j->b, B_N, 0, &r->j->oc, &r->j->f) == 0,
		     "oracle run of " B_BENCH " at CPL 0");
}

/* Programs, runs A here and B on the sibling, stops and reads. */
static int ht_exec(struct tcase *t, const struct pmu_driver *d,
		   struct ht_run *r)
{
	char why[WHY];
	struct pmu_err e;
	int ok;

	if (!oracle_first(t, r) || !program(t, d, r))
		return 0;
	r->span = rdtsc();
	ok = (!r->spin || check(t, smp_sibling_spin_start(why, sizeof(why))
				== 0, "the sibling's spin: %s", why)) &&
	     pmu_exec(t, A_BENCH, A_N, &r->a);
	if (r->spin)
		ok = check(t, smp_sibling_spin_stop(why, sizeof(why)) == 0,
			   "stopping the sibling's spin: %s", why) && ok;
	be_window_pause(1);
	ok = ok &&
	     check(t, smp_sibling_run(on_sibling, r->j, why, sizeof(why)) ==
		   0, "on the sibling: %s", why) &&
	     check(t, r->j->ret == 0, B_BENCH " faulted on the sibling "
		   "(vector %u)", r->j->f.vector);
	be_window_pause(0);
	for (unsigned i = 0; i < r->n; i++)
		ok = check(t, d->stop(r->c[i].ctr, &e) == 0 &&
			   d->read(r->c[i].ctr, &r->c[i].got, &e) == 0,
			   "counter %u: %s", r->c[i].ctr, e.msg) && ok;
	r->span = rdtsc() - r->span;
	value(t, "bsp_thread", "%u (initial APIC ID %u, CPUID.01H:EBX[31:24]"
	      "; the sibling is thread %u)", nbt_bsp_thread(cpu_info()),
	      cpu_info()->f1_ebx >> 24, !nbt_bsp_thread(cpu_info()));
	value(t, "sibling_during_A", "%s", r->spin ? "spinning in harness "
	      "code (active)" : "parked by the firmware (halted)");
	value(t, "bsp_A", A_BENCH " n=%u at CPL 3: %llu instructions, "
	      "%llu steps", A_N,
	      (unsigned long long)r->a.c[3][SEM_INSTRUCTIONS],
	      (unsigned long long)r->a.c[3][SEM_CLOCKS]);
	value(t, "sibling_B", B_BENCH " n=%u at CPL 0: %llu instructions, "
	      "%llu steps", B_N,
	      (unsigned long long)r->j->oc.c[0][SEM_INSTRUCTIONS],
	      (unsigned long long)r->j->oc.c[0][SEM_CLOCKS]);
	return ok;
}

/* Does the ESCR count thread th at cpl (T0_OS: thread 0 at CPL 0,
 * T0_USR: thread 0 at CPL 1-3, T1_* the same for thread 1)? */
static int t_counts(uint64_t tbits, unsigned th, unsigned cpl)
{
	uint64_t os = th ? NBT_ESCR_T1_OS : NBT_ESCR_T0_OS;
	uint64_t usr = th ? NBT_ESCR_T1_USR : NBT_ESCR_T0_USR;

	return !!(tbits & (cpl == 0 ? os : usr));
}

/* Does the active-thread field pass with `active` logical processors
 * active (§18.16.2)? */
static int active_passes(unsigned field, unsigned active)
{
	switch (field) {
	case NBT_NONE:
		return active == 0;
	case NBT_SINGLE:
		return active == 1;
	case NBT_BOTH:
		return active == 2;
	default:
		return active >= 1;
	}
}

/* The model's count: the BSP's A steps have one processor active (two
 * while the sibling spins), the sibling's B steps both; per[] by logical
 * processor.  On hardware and under backend=emulated A's USR count has
 * the ring-3 trampoline's share too (pmu_ring3_sem_edges()). */
static uint64_t model_count(const struct ht_run *r, const struct hctr *c)
{
	unsigned bsp = nbt_bsp_thread(cpu_info());
	const struct oracle_counts *per[2];
	uint64_t n = 0;

	per[bsp] = &r->a;
	per[!bsp] = &r->j->oc;
	for (unsigned th = 0; th < 2; th++) {
		/* A: the BSP and, if it spins, the sibling; B: both */
		unsigned active = th == bsp && !r->spin ? 1 : 2;

		if (!active_passes(c->active, active))
			continue;
		for (unsigned cpl = 0; cpl < 4; cpl++)
			if (t_counts(c->tbits, th, cpl))
				n += sem_sum(c->src->sems, per[th]->c[cpl]);
		/* A runs at CPL 3 through the ring-3 trampoline */
		if (th == bsp && t_counts(c->tbits, th, 3))
			n += pmu_ring3_sem_edges(c->src->sems);
	}
	return n;
}

/* On hardware: at most NBT_RETIRE_WIDTH instructions (or branches)
 * retire per clock and thread, and a thread has at most the TSC span in
 * clocks (the NetBurst TSC counts at the core clock, or on models 3 and
 * later at the maximum core clock: never slower, Vol. 3B §17.17). */
static uint64_t hw_ceiling(const struct ht_run *r, unsigned threads)
{
	return (uint64_t)threads * NBT_RETIRE_WIDTH * r->span;
}

static struct pmu_expect expect(const struct ht_run *r, const struct hctr *c)
{
	struct pmu_expect x = nbt_exact(model_count(r, c));
	unsigned threads = !!(c->tbits & (NBT_ESCR_T0_OS | NBT_ESCR_T0_USR)) +
			   !!(c->tbits & (NBT_ESCR_T1_OS | NBT_ESCR_T1_USR));

	if (pmu_on_model() || c->active == NBT_NONE)
		return x;
	if (c->src == &clocks) {
		x.lo = 0;
		x.hi = threads * r->span;
		x.tolerance = "clocks: at most the TSC span per thread counted";
	} else if (c->active != NBT_ANY) {
		x.hi = hw_ceiling(r, threads);
		x.tolerance = "at least the traced benchmark's events the "
			      "filter passes (the BSP executes while it waits "
			      "for the sibling; the firmware parks an idle "
			      "sibling with HLT, the harness's spin keeps it "
			      "active), plus CPL 0 code of driver and "
			      "firmware: at most 3 per clock per thread over "
			      "the TSC span";
	} else if (c->tbits & (NBT_ESCR_T0_OS | NBT_ESCR_T1_OS)) {
		x.hi = hw_ceiling(r, threads);
		x.tolerance = "at least the traced events: both threads also "
			      "run the firmware's and the driver's CPL 0 code, "
			      "at most 3 per clock per thread over the TSC "
			      "span";
	}
	return x;
}

static void check_all(struct tcase *t, const struct ht_run *r)
{
	for (unsigned i = 0; i < r->n; i++) {
		const struct hctr *c = &r->c[i];
		struct pmu_expect x = expect(r, c);
		char k[24];

		fmt_snprintf(k, sizeof(k), "ctr%u_counts", c->ctr);
		value(t, k, "%s%s%s%s%s active=%u%u", c->src->name,
		      c->tbits & NBT_ESCR_T0_OS ? " T0_OS" : "",
		      c->tbits & NBT_ESCR_T0_USR ? " T0_USR" : "",
		      c->tbits & NBT_ESCR_T1_OS ? " T1_OS" : "",
		      c->tbits & NBT_ESCR_T1_USR ? " T1_USR" : "",
		      c->active >> 1, c->active & 1);
		nbt_log_counter(t, NULL, &r->tr, c->ctr, c->preset, c->got,
				&x);
	}
}

/* ---- netburst/ht-<flags>: T bits.  Counters 12 and 16 share CRU_ESCR0
 * with tbits, 14, 15 and 17 CRU_ESCR1 with the other T bits; 0
 * (FSB_ESCR0) and 2 (FSB_ESCR1) count clocks, 4 (TBPU_ESCR0) and 6
 * (TBPU_ESCR1) branches, likewise.  All with active thread ANY. */
static void tbits_test(struct tcase *t, uint64_t tbits)
{
	const struct pmu_driver *d = ht_ready(t);
	uint64_t other = T_ALL & ~tbits;
	struct ht_run *r = &run_;

	if (!d)
		return;
	*r = (struct ht_run){ .j = &job };
	job = (struct sibling_job){ 0 };
	add(r, 12, &instr, tbits, NBT_ANY);
	add(r, 16, &instr, tbits, NBT_ANY);
	add(r, 14, &instr, other, NBT_ANY);
	add(r, 15, &instr, other, NBT_ANY);
	add(r, 17, &instr, other, NBT_ANY);
	add(r, 0, &clocks, tbits, NBT_ANY);
	add(r, 2, &clocks, other, NBT_ANY);
	add(r, 4, &branch_types, tbits, NBT_ANY);
	add(r, 6, &branch_types, other, NBT_ANY);
	if (ht_exec(t, d, r))
		check_all(t, r);
}

static void test_t0_usr(struct tcase *t)
{
	tbits_test(t, NBT_ESCR_T0_USR);
}

static void test_t1_os(struct tcase *t)
{
	tbits_test(t, NBT_ESCR_T1_OS);
}

static void test_t1_usr(struct tcase *t)
{
	tbits_test(t, NBT_ESCR_T1_USR);
}

static void test_t0_os_t1_os(struct tcase *t)
{
	tbits_test(t, NBT_ESCR_T0_OS | NBT_ESCR_T1_OS);
}

static void test_all(struct tcase *t)
{
	tbits_test(t, T_ALL);
}

TEST(nb_ht_t0_usr, "netburst/ht-t0-usr",
     "T0_USR counts thread 0's CPL 3 events only, not the sibling's",
     test_t0_usr, 0);
TEST(nb_ht_t1_os, "netburst/ht-t1-os",
     "T1_OS counts the sibling's CPL 0 events only", test_t1_os, 0);
TEST(nb_ht_t1_usr, "netburst/ht-t1-usr",
     "T1_USR counts nothing when the sibling runs at CPL 0 only",
     test_t1_usr, 0);
TEST(nb_ht_t0_os_t1_os, "netburst/ht-t0-os-t1-os",
     "T0_OS+T1_OS: the sum of both threads' CPL 0 events",
     test_t0_os_t1_os, 0);
TEST(nb_ht_all, "netburst/ht-all",
     "all four T bits: both threads' events at every CPL", test_all, 0);

/* ---- netburst/ht-active-<x>: the active-thread field.  All four T bits;
 * counters 12 (instructions), 0 (clocks) and 4 (branches) with the
 * field under test, 16 (CRU_ESCR0 shared with 12) with ANY beside it. */
static void active_test(struct tcase *t, unsigned field, int spin)
{
	const struct pmu_driver *d = ht_ready(t);
	struct ht_run *r = &run_;

	if (!d)
		return;
	*r = (struct ht_run){ .j = &job, .spin = spin };
	job = (struct sibling_job){ 0 };
	add(r, 12, &instr, T_ALL, field);
	add(r, 16, &instr, T_ALL, NBT_ANY);
	add(r, 0, &clocks, T_ALL, field);
	add(r, 4, &branch_types, T_ALL, field);
	if (ht_exec(t, d, r))
		check_all(t, r);
}

static void test_active_none(struct tcase *t)
{
	active_test(t, NBT_NONE, 0);
}

static void test_active_single(struct tcase *t)
{
	active_test(t, NBT_SINGLE, 0);
}

static void test_active_both(struct tcase *t)
{
	active_test(t, NBT_BOTH, 0);
}

static void test_active_any(struct tcase *t)
{
	active_test(t, NBT_ANY, 0);
}

static void test_active_single_spin(struct tcase *t)
{
	active_test(t, NBT_SINGLE, 1);
}

static void test_active_both_spin(struct tcase *t)
{
	active_test(t, NBT_BOTH, 1);
}

TEST(nb_ht_active_none, "netburst/ht-active-none",
     "active thread 00: counts only while no logical processor is active: "
     "never while one runs", test_active_none, 0);
TEST(nb_ht_active_single, "netburst/ht-active-single",
     "active thread 01: counts while exactly one is active (thread 0's "
     "steps)", test_active_single, 0);
TEST(nb_ht_active_both, "netburst/ht-active-both",
     "active thread 10: counts while both are active (the sibling's "
     "steps)", test_active_both, 0);
TEST(nb_ht_active_single_spin, "netburst/ht-active-single-sibling-spins",
     "active thread 01 with the sibling spinning in harness code during "
     "the BSP's run: both are active throughout, nothing counts",
     test_active_single_spin, 0);
TEST(nb_ht_active_both_spin, "netburst/ht-active-both-sibling-spins",
     "active thread 10 with the sibling spinning during the BSP's run: "
     "both are active throughout, both runs count",
     test_active_both_spin, 0);
TEST(nb_ht_active_any, "netburst/ht-active-any",
     "active thread 11: counts while at least one is active (all steps)",
     test_active_any, 0);

/* ---- netburst/ht-pmi-*: counter 14 counts B's instructions (the
 * sibling's OS flag: T1_OS where the BSP is logical processor 0),
 * preset 2^40 - K: it wraps with B's K-th instruction, on the sibling;
 * counter 12 counts them too, without OVF_PMI.  Both processors' LVTPCs
 * are armed for an NMI; the handler tells them apart by APIC ID.
 *   ht-pmi-t1              the sibling's OVF_PMI flag (OVF_PMI_T1 where
 *                          the BSP is thread 0): the sibling takes the
 *                          PMI, at the boundary after B's (K+1)-th
 *                          instruction (the next count after the
 *                          overflow, §18.15.3); the BSP takes none.
 *   ht-pmi-t0-during-t1    the BSP's OVF_PMI flag: the sibling takes
 *                          none.  The BSP would take it on hardware (it
 *                          runs the firmware's wait loop then); the model
 *                          can interrupt only the processor executing the
 *                          step and drops it (its documented limit). */
#define K 20

struct ht_pmi {
	uint32_t sibling_apic;
	unsigned calls[2];		/* [0] thread 0, [1] the sibling */
	struct pmi_record rec[2];
	uint64_t cccr, count;		/* counter 14 in the sibling's
					 * handler */
};

static struct ht_pmi seen;

static void on_pmi(const struct pmi_record *rec, void *ctx)
{
	struct ht_pmi *s = ctx;
	unsigned th = apic_id() == s->sibling_apic;

	if (s->calls[th]++)
		return;
	s->rec[th] = *rec;
	if (th) {
		(void)be_rdmsr(NBT_MSR_CCCR(14), &s->cccr);
		(void)be_rdmsr(NBT_MSR_COUNTER(14), &s->count);
	}
}

struct pmi_body {
	struct tcase *t;
	const struct pmu_driver *d;
	int ok;
};

static void pmi_body_fn(void *arg)
{
	struct pmi_body *p = arg;

	pmi_set_callback(on_pmi, &seen);
	p->ok = ht_exec(p->t, p->d, &run_);
}

/* The boundary after B's (K+1)-th instruction, traced here at CPL 0
 * (the same code and steps as on the sibling). */
struct kth {
	uint64_t n, at;
};

static void kth_sink(const struct insn_event *e, void *ctx)
{
	struct kth *k = ctx;

	if (e->retired && ++k->n == K + 1)
		k->at = e->next_rip;
}

static int b_boundary(struct tcase *t, uint64_t *rip)
{
	const struct bench *b = bench_find(B_BENCH);
	struct kth k = { 0, 0 };
	struct fault f;

	if (!check(t, b != NULL, "no benchmark " B_BENCH) ||
	    !need_bench_data(t, b) ||
	    !check(t, bench_exec(b, B_N, 0, NULL, kth_sink, &k, &f) == 0 &&
		   k.at, "trace of " B_BENCH " at CPL 0"))
		return 0;
	*rip = k.at;
	value(t, "pmi_boundary", "0x%llx (after B's instruction %u)",
	      (unsigned long long)*rip, K + 1);
	return 1;
}

/* The ESCR's OS flag and the CCCR's OVF_PMI flag of logical processor
 * th (Figures 18-47, 18-48). */
static uint64_t os_flag(unsigned th)
{
	return th ? NBT_ESCR_T1_OS : NBT_ESCR_T0_OS;
}

static uint64_t pmi_flag(unsigned th)
{
	return th ? NBT_CCCR_OVF_PMI_T1 : NBT_CCCR_OVF_PMI_T0;
}

/* to_sibling: OVF_PMI of the sibling's logical processor, else of the
 * BSP's. */
static int pmi_run_ht(struct tcase *t, const struct pmu_driver *d,
		      int to_sibling)
{
	struct pmi_body body = { t, d, 0 };
	struct ht_run *r = &run_;
	unsigned sib = !nbt_bsp_thread(cpu_info());
	uint64_t pmi_bit = pmi_flag(to_sibling ? sib : !sib);
	struct fault f;
	int rc;

	*r = (struct ht_run){ .j = &job };
	job = (struct sibling_job){ .arm_lvtpc = 1 };
	seen = (struct ht_pmi){ 0 };
	value(t, "pmi_flag", "OVF_PMI_T%u (the %s's logical processor)",
	      pmi_bit == NBT_CCCR_OVF_PMI_T1, to_sibling ? "sibling" : "BSP");
	add(r, 14, &instr, os_flag(sib), NBT_ANY);
	r->c[0].cccr_extra = pmi_bit;
	r->c[0].preset = NBT_TOP - K;
	add(r, 12, &instr, os_flag(sib), NBT_ANY);
	seen.sibling_apic = smp_sibling_cpu()->apic_id;
	rc = pmi_run(PMI_PATH_NMI, pmi_body_fn, &body, &f);
	value(t, "pmis", "thread 0: %u, sibling: %u", seen.calls[0],
	      seen.calls[1]);
	value(t, "sibling_apic_id", "%u (firmware: %u)", job.apic_id,
	      seen.sibling_apic);
	value(t, "sibling_lvtpc", "0x%x before, 0x%x after B",
	      job.lvtpc_before, job.lvtpc_after);
	if (!check(t, rc == 0, "pmi_run returned %d (vector %u)", rc,
		   rc == 1 ? f.vector : 0) || !body.ok)
		return 0;
	check(t, job.apic_id == seen.sibling_apic, "the sibling's APIC ID %u,"
	      " the firmware lists %u", job.apic_id, seen.sibling_apic);
	check_all(t, r);
	return 1;
}

static int pmi_ready(struct tcase *t, const struct pmu_driver **d)
{
	/* the APIC first: apic_init() keeps the first caller's LVTPC as the
	 * firmware's, which must be this processor's */
	if (!apic_ready(t))
		return 0;
	*d = ht_ready(t);
	return *d != NULL;
}

static void test_pmi_t1(struct tcase *t)
{
	const struct pmu_driver *d;
	uint64_t want = 0, cccr = 0;

	if (!pmi_ready(t, &d) || !b_boundary(t, &want) ||
	    !pmi_run_ht(t, d, 1))
		return;
	pmi_log(t, "sibling_pmi", &seen.rec[1]);
	value(t, "sibling_handler", "counter 14 %llu, CCCR 0x%llx",
	      (unsigned long long)seen.count, (unsigned long long)seen.cccr);
	check(t, seen.calls[1] == 1 && seen.calls[0] == 0, "PMIs: %u on the "
	      "sibling, %u on thread 0; expected 1 and 0", seen.calls[1],
	      seen.calls[0]);
	check(t, job.lvtpc_after & LVT_MASKED, "the sibling's LVTPC 0x%x "
	      "after the PMI: not masked on delivery", job.lvtpc_after);
	check(t, seen.cccr & NBT_CCCR_OVF, "CCCR 14 0x%llx in the sibling's "
	      "handler: OVF not set", (unsigned long long)seen.cccr);
	check(t, be_rdmsr(NBT_MSR_CCCR(14), &cccr) == 0 &&
	      (cccr & NBT_CCCR_OVF), "CCCR 14 0x%llx after the run: OVF not "
	      "set", (unsigned long long)cccr);
	check(t, seen.rec[1].cpl == 0, "the sibling's PMI at CPL %u: B runs "
	      "at CPL 0", seen.rec[1].cpl);
	if (!pmu_on_model())
		return;
	check(t, seen.rec[1].rip == want, "the sibling's PMI at rip 0x%llx, "
	      "expected 0x%llx (after B's instruction %u)",
	      (unsigned long long)seen.rec[1].rip, (unsigned long long)want,
	      K + 1);
	check(t, seen.count == 1, "counter 14 read %llu in the sibling's "
	      "handler: expected 1 (wrapped at B's instruction %u, the PMI "
	      "with instruction %u)", (unsigned long long)seen.count, K,
	      K + 1);
}

static void test_pmi_t0(struct tcase *t)
{
	const struct pmu_driver *d;
	uint64_t want = 0, cccr = 0;
	unsigned t0_want = pmu_on_model() ? 0 : 1;

	if (!pmi_ready(t, &d) || !b_boundary(t, &want) ||
	    !pmi_run_ht(t, d, 0))
		return;
	check(t, seen.calls[1] == 0, "%u PMIs on the sibling with OVF_PMI_T0 "
	      "only", seen.calls[1]);
	check(t, !(job.lvtpc_after & LVT_MASKED), "the sibling's LVTPC 0x%x "
	      "after B: masked, as by a delivery", job.lvtpc_after);
	check(t, be_rdmsr(NBT_MSR_CCCR(14), &cccr) == 0 &&
	      (cccr & NBT_CCCR_OVF), "CCCR 14 0x%llx after the run: OVF not "
	      "set", (unsigned long long)cccr);
	value(t, "thread0_expected", "%u PMI%s", t0_want, pmu_on_model() ?
	      "s: the model drops a PMI due to a thread that is not "
	      "executing traced code (its documented limit)" : ": thread 0 "
	      "waits in the firmware while B runs");
	check(t, seen.calls[0] == t0_want, "%u PMIs on thread 0, expected %u",
	      seen.calls[0], t0_want);
}

TEST(nb_ht_pmi_t1, "netburst/ht-pmi-t1",
     "OVF_PMI_T1: the overflow during the sibling's run interrupts the "
     "sibling, at the next count, and not thread 0", test_pmi_t1, 0);
TEST(nb_ht_pmi_t0, "netburst/ht-pmi-t0-during-t1",
     "OVF_PMI_T0: the overflow during the sibling's run does not "
     "interrupt the sibling", test_pmi_t0, 0);
