/* perfmon/pmi-*: a counter overflow with its interrupt enabled (PerfEvtSel
 * INT, bit 20; FIXED_CTR_CTRL PMI, bit 3 + 4i) raises a PMI through the
 * local APIC's LVTPC (SDM Vol. 3B §18.2.1.1, §18.2.2), which these
 * processors mask on delivery (Vol. 3B §17.4.9.5 and docs/apic.md); the
 * handler finds the counter's GLOBAL_STATUS bit set (v2+) and clears it
 * through GLOBAL_OVF_CTRL / GLOBAL_STATUS_RESET.  perfmon/freeze-on-pmi:
 * with IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI (bit 12) the PMI stops every
 * counter: v2/v3 clear GLOBAL_CTRL, v4 sets GLOBAL_STATUS.CTR_FRZ
 * (bit 59) and leave GLOBAL_CTRL as it was; clearing CTR_FRZ through
 * STATUS_RESET lets them count again (§18.2.4.1).
 *
 * The overflowing counter is preset to 2^width - K and counts CPL 3
 * instructions (C0H/00H, or FIXED_CTR0: Table 18-2), so it wraps at the
 * K-th instruction of the benchmark, from 2^width - 1 to 0.  A second
 * counter without INT counts the same instructions from 0: in the handler
 * it says at which instruction the PMI came.  Under the model, which
 * delivers the PMI at the boundary after the instruction (arch/x86/pmi.h),
 * the handler must find the overflowing counter at 0 and the witness at
 * exactly K - not K - 1 (an overflow one event early: the counter would
 * still read 2^width - 1), not K + 1.  On hardware the PMI may skid: the
 * witness is at least K and the counter reads witness - K.  The MSRs and
 * bits are perfmon_test.h's (Vol. 4 Table 2-2, Figures 18-3/18-4/18-7),
 * the LVT mask bit tests/apic/apic_test.h's. */
#include "perfmon_test.h"
#include "../../harness/pmi_run.h"
#include "../../arch/x86/apic.h"
#include "../apic/apic_test.h"
#include "../lbr/lbr_test.h"

#define K 12
#define PMI_BENCH "counted-loop"
#define PMI_BENCH_N 30

/* How far a PMI may skid past the overflow on hardware. */
#define SKID 64

struct seen {
	struct tcase *t;
	const struct pm_sdm *c;
	uint32_t ovf_msr, witness_msr;	/* read in the handler */
	uint64_t ovf_at_pmi, witness_at_pmi;
	uint64_t clear;			/* status bits the handler clears */
	unsigned calls;
	uint64_t status, global, after_clear;
	uint32_t lvtpc;
	int status_vec;
	struct oracle_counts oc;
	int ran;
	struct fault f;
};

static void handler(const struct pmi_record *r, void *ctx)
{
	struct seen *s = ctx;

	(void)r;
	if (s->calls++)
		return;
	s->lvtpc = apic_lvtpc();
	(void)be_rdmsr(s->ovf_msr, &s->ovf_at_pmi);
	(void)be_rdmsr(s->witness_msr, &s->witness_at_pmi);
	if (s->c->version < 2)
		return;
	s->status_vec = be_rdmsr(PM_MSR_GLOBAL_STATUS, &s->status);
	(void)be_rdmsr(PM_MSR_GLOBAL_CTRL, &s->global);
	(void)be_wrmsr(PM_MSR_GLOBAL_OVF_CTRL, s->clear);
	(void)be_rdmsr(PM_MSR_GLOBAL_STATUS, &s->after_clear);
}

static void run_bench(void *arg)
{
	struct seen *s = arg;

	pmi_set_callback(handler, s);
	s->ran = pmu_exec(s->t, PMI_BENCH, PMI_BENCH_N, &s->oc);
}

/* Programs and starts ctr with sel, preset to 2^width - preset_below
 * (0: preset 0), so that it wraps at its preset_below-th event. */
static int arm(struct tcase *t, unsigned ctr, uint64_t sel, unsigned width,
	       uint64_t preset_below)
{
	struct pmu_err e;
	uint64_t top = (1ull << width) - 1;

	return check(t, perfmon_driver.program(ctr, &(struct pmu_config){
				sel, 0 }, &e) == 0 &&
		     perfmon_driver.reset(ctr, preset_below ?
					  top - preset_below + 1 : 0, &e) == 0 &&
		     perfmon_driver.start(ctr, &e) == 0, "counter %u: %s", ctr,
		     e.msg);
}

static int rd_global(struct tcase *t, uint64_t *v)
{
	return check(t, be_rdmsr(PM_MSR_GLOBAL_CTRL, v) == 0,
		     "RDMSR GLOBAL_CTRL");
}

/* Before any counter counts (pmu_run.h): on hardware and under
 * backend=emulated the oracle's single-stepped run would be counted
 * too, and would take the PMI. */
static int oracle_first(struct tcase *t, struct seen *s)
{
	return apic_ready(t) &&
	       pmu_oracle_first(t, PMI_BENCH, PMI_BENCH_N, &s->oc);
}

static int go(struct tcase *t, struct seen *s)
{
	struct fault f;
	int rc;

	s->t = t;
	rc = pmi_run(PMI_PATH_NMI, run_bench, s, &f);
	value(t, "pmis", "%llu", (unsigned long long)pmi_count());
	return check(t, rc == 0 && s->ran, "pmi_run %d, benchmark ran %d", rc,
		     s->ran);
}

/* At which event the PMI came: the witness counted K events, and the
 * overflowing counter had just wrapped to 0 (model), or both moved on by
 * the same skid (hardware). */
static void at_kth(struct tcase *t, const struct seen *s, const char *ovf)
{
	uint64_t w = s->witness_at_pmi, o = s->ovf_at_pmi;

	value(t, "witness_at_pmi", "%llu instructions, the overflow is at the "
	      "%u-th", (unsigned long long)w, K);
	value(t, "overflowing_at_pmi", "0x%llx", (unsigned long long)o);
	if (pmu_pmi_exact()) {	/* the model's PMI: no skid */
		check(t, w == K, "the PMI came after instruction %llu, the "
		      "counter wraps at the %u-th", (unsigned long long)w, K);
		check(t, o == 0, "%s read 0x%llx in the handler: expected 0, "
		      "just wrapped at the %u-th instruction", ovf,
		      (unsigned long long)o, K);
		return;
	}
	check(t, w >= K && w < K + SKID && o == w - K, "the PMI came after "
	      "instruction %llu (%s 0x%llx), the counter wraps at the %u-th",
	      (unsigned long long)w, ovf, (unsigned long long)o, K);
}

/* The overflowing counter after the run: the run's count less the K that
 * wrapped it; exact on the model and under backend=emulated (the
 * trampoline's CALL and INT counted too, pmu_ring3_edges()), at least
 * that on hardware (the trampoline and the PMI's own effects). */
static int after_wrap(uint64_t v, const struct seen *s)
{
	uint64_t n = s->oc.c[3][SEM_INSTRUCTIONS] + pmu_ring3_edges() - K;

	return pmu_pmi_exact() ? v == n : v >= n - pmu_ring3_edges();
}

static void after(struct tcase *t, struct seen *s, uint64_t bit)
{
	value(t, "lvtpc_in_handler", "0x%x", s->lvtpc);
	check(t, s->calls == 1, "%u PMIs, expected 1", s->calls);
	check(t, s->lvtpc & SDM_LVT_MASK, "LVTPC 0x%x in the handler: not "
	      "masked on delivery", s->lvtpc);
	if (s->c->version < 2)
		return;
	value(t, "status_in_handler", "0x%llx", (unsigned long long)s->status);
	value(t, "status_after_clear", "0x%llx",
	      (unsigned long long)s->after_clear);
	check(t, s->status_vec == 0 && (s->status & bit), "the handler read "
	      "GLOBAL_STATUS 0x%llx (vector %d): bit 0x%llx not set",
	      (unsigned long long)s->status, s->status_vec,
	      (unsigned long long)bit);
	check(t, !(s->after_clear & bit), "GLOBAL_STATUS 0x%llx after "
	      "writing 0x%llx to OVF_CTRL", (unsigned long long)s->after_clear,
	      (unsigned long long)bit);
}

static void test_gp(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
	struct seen s = { .clear = 1, .ovf_msr = PM_MSR_PMC(0),
			  .witness_msr = PM_MSR_PMC(1) };
	struct pmu_err e;
	uint64_t v = 0;

	if (!d || !check(t, d->init(&e) == 0, "init: %s", e.msg) ||
	    !oracle_first(t, &s))
		return;
	s.c = c;
	if (!arm(t, 0, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1,
			       .intr = 1 }), c->gp_width, K) ||
	    !arm(t, 1, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 }),
		 c->gp_width, 0) || !go(t, &s))
		return;
	(void)d->stop(1, &e);
	(void)d->stop(0, &e);
	(void)d->read(0, &v, &e);
	value(t, "pmc0", "%llu", (unsigned long long)v);
	value(t, "oracle", "%llu instructions, wraps at the %u-th",
	      (unsigned long long)s.oc.c[3][SEM_INSTRUCTIONS], K);
	after(t, &s, 1);
	at_kth(t, &s, "PMC0");
	check(t, after_wrap(v, &s), "PMC0 %llu after the wrap, oracle %llu",
	      (unsigned long long)v, (unsigned long long)(s.oc.c[3]
	      [SEM_INSTRUCTIONS] + pmu_ring3_edges() - K));
}

TEST(perfmon_pmi_gp, "perfmon/pmi-gp-overflow",
     "PMC0 with INT wraps at the K-th event: one PMI there, LVTPC masked, "
     "status bit 0, cleared",
     test_gp, 0);

static void test_fixed(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
	struct seen s = { .clear = PM_GLOBAL_FIXED(0),
			  .ovf_msr = PM_MSR_FIXED_CTR(0),
			  .witness_msr = PM_MSR_PMC(0) };
	struct pmu_err e;
	uint64_t v = 0;

	if (!d)
		return;
	if (!c->fixed[0]) {
		skip(t, "no fixed counter 0: CPUID.0AH version %u, EDX[4:0] "
		     "%u, ECX 0x%x", c->version, c->n_fixed, c->k.ecx);
		return;
	}
	s.c = c;
	if (!check(t, d->init(&e) == 0, "init: %s", e.msg) ||
	    !oracle_first(t, &s) ||
	    !arm(t, pm_fixed_ctr(0), SDM_FIX_USR | SDM_FIX_PMI,
		 c->fixed_width, K) ||
	    !arm(t, 0, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 }),
		 c->gp_width, 0) || !go(t, &s))
		return;
	(void)d->stop(pm_fixed_ctr(0), &e);
	(void)d->stop(0, &e);
	(void)d->read(pm_fixed_ctr(0), &v, &e);
	value(t, "fixed_ctr0", "%llu", (unsigned long long)v);
	after(t, &s, PM_GLOBAL_FIXED(0));
	at_kth(t, &s, "FIXED_CTR0");
	check(t, after_wrap(v, &s), "FIXED_CTR0 %llu after the wrap, oracle "
	      "%llu", (unsigned long long)v, (unsigned long long)(s.oc.c[3]
	      [SEM_INSTRUCTIONS] + pmu_ring3_edges() - K));
}

TEST(perfmon_pmi_fixed, "perfmon/pmi-fixed-overflow",
     "FIXED_CTR0 with PMI wraps at the K-th instruction: one PMI there, "
     "status bit 32, cleared",
     test_fixed, 0);

static void test_freeze(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
	struct seen s = { .clear = 1, .ovf_msr = PM_MSR_PMC(0),
			  .witness_msr = PM_MSR_PMC(1) };
	uint64_t before = 0, v1 = 0, v1b = 0, status = 0;
	struct oracle_counts oc;
	struct pmu_err e;

	if (!d)
		return;
	if (c->version < 2) {
		skip(t, "freeze on PMI came with v2; CPUID.0AH:EAX[7:0] = 1");
		return;
	}
	s.c = c;
	if (!check(t, d->init(&e) == 0, "init: %s", e.msg) ||
	    !oracle_first(t, &s) ||
	    !check(t, be_wrmsr(PM_MSR_DEBUGCTL,
			       PM_DEBUGCTL_FREEZE_PERFMON_ON_PMI) == 0,
		   "WRMSR DEBUGCTL bit 12") ||
	    !arm(t, 0, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1,
			       .intr = 1 }), c->gp_width, K) ||
	    !arm(t, 1, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 }),
		 c->gp_width, 0) ||
	    !rd_global(t, &before) || !go(t, &s))
		goto out;
	(void)be_rdmsr(PM_MSR_PMC(1), &v1);
	value(t, "pmc1_frozen_at", "%llu", (unsigned long long)v1);
	at_kth(t, &s, "PMC0");
	value(t, "global_ctrl_before", "0x%llx", (unsigned long long)before);
	value(t, "global_ctrl_in_handler", "0x%llx",
	      (unsigned long long)s.global);
	value(t, "status_in_handler", "0x%llx", (unsigned long long)s.status);
	check(t, pmu_pmi_exact() ? v1 == K : v1 >= K && v1 < K + SKID,
	      "PMC1 "
	      "counted %llu: the freeze should stop it at the %u-th "
	      "instruction", (unsigned long long)v1, K);
	if (c->version < 4) {
		check(t, s.global == 0, "v%u: GLOBAL_CTRL 0x%llx in the "
		      "handler, expected 0", c->version,
		      (unsigned long long)s.global);
		goto out;
	}
	check(t, s.global == before, "v4: GLOBAL_CTRL 0x%llx in the handler,"
	      " expected 0x%llx unchanged", (unsigned long long)s.global,
	      (unsigned long long)before);
	check(t, !!(s.status & PM_STATUS_CTR_FRZ), "v4: CTR_FRZ not set: "
	      "status 0x%llx", (unsigned long long)s.status);
	/* still frozen: nothing counts until CTR_FRZ is cleared */
	if (!pmu_exec(t, PMI_BENCH, PMI_BENCH_N, &oc))
		goto out;
	(void)be_rdmsr(PM_MSR_PMC(1), &v1b);
	check(t, v1b == v1 || !backend_model_backed(), "PMC1 went from %llu to %llu "
	      "while frozen", (unsigned long long)v1, (unsigned long long)v1b);
	(void)be_wrmsr(PM_MSR_GLOBAL_STATUS_RESET, PM_STATUS_CTR_FRZ);
	(void)be_rdmsr(PM_MSR_GLOBAL_STATUS, &status);
	if (!pmu_exec(t, PMI_BENCH, PMI_BENCH_N, &oc))
		goto out;
	(void)be_rdmsr(PM_MSR_PMC(1), &v1b);
	value(t, "pmc1_after_unfreeze", "%llu", (unsigned long long)v1b);
	check(t, !(status & PM_STATUS_CTR_FRZ) && v1b > v1, "after "
	      "STATUS_RESET of CTR_FRZ: status 0x%llx, PMC1 %llu -> %llu",
	      (unsigned long long)status, (unsigned long long)v1,
	      (unsigned long long)v1b);
out:
	(void)be_wrmsr(PM_MSR_DEBUGCTL, 0);
	(void)d->init(&e);
}

TEST(perfmon_freeze, "perfmon/freeze-on-pmi",
     "DEBUGCTL.FREEZE_PERFMON_ON_PMI: the PMI stops every counter",
     test_freeze, 0);

/* perfmon/freeze-lbrs-on-pmi: with IA32_DEBUGCTL.FREEZE_LBRS_ON_PMI (bit
 * 11) the PMI freezes the LBRs (SDM Vol. 3B §17.4.7 "Freezing LBR and
 * Performance Counters on PMI"): v2/v3 ("legacy") clear DEBUGCTL.LBR
 * (bit 0); v4 and later set IA32_PERF_GLOBAL_STATUS.LBR_FRZ (bit 58)
 * and the LBRs record nothing while it is set, DEBUGCTL.LBR left as it
 * was (§18.2.4.1).  The PMI comes after the K-th instruction of
 * counted-loop (as perfmon/pmi-* hold): the stack's newest record is the
 * last taken branch among the first K instructions (counted-loop: the
 * jmp, and a jb every 3 instructions: at 2, 4, 7, 10 of 12), read at
 * the SDM's addresses (tests/lbr/lbr_sdm.c).  Under the model the stack
 * holds exactly those; under backend=emulated the driver's branches
 * before the benchmark too; on hardware the PMI may skid (SKID). */
#define PM_DEBUGCTL_LBR 1ull
#define PM_DEBUGCTL_FREEZE_LBRS_ON_PMI (1ull << 11)
#define PM_STATUS_LBR_FRZ (1ull << 58)

static struct lbr_trace lbr_tr;
static struct sdm_rec lbr_rec[LBR_MAX_DEPTH + 1];

/* The LBRs on, recording every branch: DEBUGCTL.LBR, or IA32_LBR_CTL
 * (LBREn, OS, USR and, where CPUID.1CH:EBX[1] has branch filtering, every
 * branch type bit 16-22) on architectural LBRs; and Freeze_LBRs_On_PMI. */
static int lbrs_on(struct tcase *t, const struct sdm_lbr *l)
{
	uint64_t ctl = 7 | (l->a_ebx & 2 ? 0x7full << 16 : 0);
	int vec = l->style == SDM_LBR_ARCH ? be_wrmsr(0x14ce, ctl) : 0;

	if (!vec)
		vec = be_wrmsr(PM_MSR_DEBUGCTL, PM_DEBUGCTL_FREEZE_LBRS_ON_PMI |
			       (l->style == SDM_LBR_ARCH ? 0 :
				PM_DEBUGCTL_LBR));
	return check(t, vec == 0, "LBRs on with Freeze_LBRs_On_PMI: vector "
		     "%d", vec);
}

/* The trace's last taken branch among the first k instructions. */
static const struct lbr_br *last_before(uint64_t k)
{
	const struct lbr_br *b = 0;

	for (unsigned i = 0; i < lbr_tr.n && lbr_tr.b[i].steps <= k; i++)
		b = &lbr_tr.b[i];
	return b;
}

static void check_frozen_stack(struct tcase *t, const struct sdm_lbr *l)
{
	const struct lbr_br *want = last_before(K), *b;
	uint64_t tos;
	unsigned n = 0, before = 0;
	int vec = sdm_lbr_read(l, lbr_rec, LBR_MAX_DEPTH, &n, &tos);

	if (!check(t, vec == 0 && n && want, "LBR stack: vector %d, %u "
		   "records, a branch before the %u-th instruction: %d", -vec,
		   n, K, want != 0))
		return;
	for (unsigned i = 0; i < lbr_tr.n && lbr_tr.b[i].steps <= K; i++)
		before++;
	value(t, "newest_record", "0x%llx -> 0x%llx",
	      (unsigned long long)lbr_rec[0].from,
	      (unsigned long long)lbr_rec[0].to);
	if (!pmu_pmi_exact()) {		/* hardware: the PMI may skid */
		b = last_before(K + SKID);
		check(t, lbr_rec[0].from >= want->from &&
		      lbr_rec[0].from <= b->from + 16, "the newest record "
		      "0x%llx is no branch of the benchmark's first %u + %u "
		      "instructions", (unsigned long long)lbr_rec[0].from, K,
		      SKID);
		return;
	}
	check(t, lbr_rec[0].from == want->from && lbr_rec[0].to == want->to,
	      "the newest record 0x%llx -> 0x%llx, the last branch before "
	      "the PMI 0x%llx -> 0x%llx: the LBRs went on recording",
	      (unsigned long long)lbr_rec[0].from,
	      (unsigned long long)lbr_rec[0].to,
	      (unsigned long long)want->from, (unsigned long long)want->to);
	if (backend_current()->id != BE_MODEL)
		return;
	for (unsigned k = 0; k < before && k < n; k++)
		if (!check(t, lbr_rec[k].from ==
			   lbr_tr.b[before - 1 - k].from, "record %u 0x%llx, "
			   "the trace's 0x%llx", k,
			   (unsigned long long)lbr_rec[k].from,
			   (unsigned long long)lbr_tr.b[before - 1 - k].from))
			return;
	check(t, n <= before || (!lbr_rec[before].from && !lbr_rec[before].to),
	      "a record past the %u branches before the PMI", before);
}

static void test_freeze_lbrs(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
	struct seen s = { .clear = 1, .ovf_msr = PM_MSR_PMC(0),
			  .witness_msr = PM_MSR_PMC(1) };
	const struct bench *b = bench_find(PMI_BENCH);
	struct sdm_lbr l;
	struct lbr_layout dl;
	uint64_t dbg = 0;
	const char *why = "";
	struct fault f = { 0 };
	struct pmu_err e;

	if (!d)
		return;
	if (c->version < 2) {
		skip(t, "freeze on PMI came with v2; CPUID.0AH:EAX[7:0] = 1");
		return;
	}
	if (!sdm_lbr_of(&l, &why)) {
		skip(t, "%s", why);
		return;
	}
	s.c = c;
	lbr_tr = (struct lbr_trace){ .model = NULL };
	if (!check(t, b && bench_exec(b, PMI_BENCH_N, 3, NULL, lbr_sink,
				      &lbr_tr, &f) == 0, "trace of %s (vector "
		   "%u)", PMI_BENCH, f.vector) ||
	    !check(t, d->init(&e) == 0, "init: %s", e.msg) ||
	    !check(t, pmu_lbr_layout(cpu_info()->pmu, cpu_info(), &dl,
				     &why) == 0 && lbr_clear(&dl, &e) == 0,
		   "clear the LBRs: %s", why) ||
	    !oracle_first(t, &s) || !lbrs_on(t, &l) ||
	    !arm(t, 0, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1,
			       .intr = 1 }), c->gp_width, K) ||
	    !arm(t, 1, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 }),
		 c->gp_width, 0) ||
	    !go(t, &s))
		goto out;
	(void)be_rdmsr(PM_MSR_DEBUGCTL, &dbg);
	at_kth(t, &s, "PMC0");
	value(t, "debugctl_after", "0x%llx", (unsigned long long)dbg);
	value(t, "status_in_handler", "0x%llx", (unsigned long long)s.status);
	if (c->version < 4)
		check(t, !(dbg & PM_DEBUGCTL_LBR), "v%u: DEBUGCTL 0x%llx "
		      "after the PMI: LBR (bit 0) must be clear", c->version,
		      (unsigned long long)dbg);
	else
		check(t, (s.status & PM_STATUS_LBR_FRZ) &&
		      (l.style == SDM_LBR_ARCH || (dbg & PM_DEBUGCTL_LBR)),
		      "v%u: status 0x%llx in the handler (LBR_FRZ, bit 58), "
		      "DEBUGCTL 0x%llx after (LBR kept)", c->version,
		      (unsigned long long)s.status, (unsigned long long)dbg);
	check_frozen_stack(t, &l);
out:
	if (l.style == SDM_LBR_ARCH)
		(void)be_wrmsr(0x14ce, 0);
	(void)be_wrmsr(PM_MSR_DEBUGCTL, 0);
	if (c->version >= 4)
		(void)be_wrmsr(PM_MSR_GLOBAL_STATUS_RESET, PM_STATUS_LBR_FRZ);
	(void)d->init(&e);
}

TEST(perfmon_freeze_lbrs, "perfmon/freeze-lbrs-on-pmi",
     "DEBUGCTL.FREEZE_LBRS_ON_PMI: the PMI stops the LBRs (v2/v3 clear "
     "DEBUGCTL.LBR, v4 sets LBR_FRZ)", test_freeze_lbrs, 0);
