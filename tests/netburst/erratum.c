/* netburst/erratum-cascade-pmi: the erratum the SDM states with extended
 * cascading (Vol. 3B §18.15.5.7, order no. 253669-060US): "performance
 * counters do not generate PMI in cascade mode or extended cascade mode"
 * on processors with DisplayFamily_DisplayModel 0F_02, and on 0F_00 and
 * 0F_01 with a stepping above 09H (nbt_cascade_pmi_erratum() below).
 *
 * Two runs of counted-loop through the harness's NMI handler
 * (harness/pmi_run.h), counting instr_retired NBOGUSNTAG at CPL 3:
 *   control: counter 12 with OVF_PMI_T0 (without HT: OVF_PMI), preset
 *     2^40 - K1, not cascaded: it overflows and raises one PMI "on the
 *     next event count after the counter has overflowed" (§18.15.3), on
 *     every processor;
 *   cascaded: counter 12 preset 2^40 - K1 without OVF_PMI; counter 14
 *     cascaded from it (CASCADE set, §18.15.5.6) with OVF_PMI_T0, preset
 *     2^40 - K2: 14 starts after 12's K1-th instruction and overflows at
 *     its own K2-th.  One PMI, unless the erratum applies: none.  14's
 *     OVF is set either way (the erratum is about the interrupt only).
 * The APIC masks the LVTPC when it delivers the PMI, so one overflow is
 * one PMI at most. */
#include "nb_test.h"
#include "../../harness/pmi_run.h"

/* The erratum the SDM states in §18.15.5.7: "performance counters do not
 * generate PMI in cascade mode or extended cascade mode" on processors
 * with DisplayFamily_DisplayModel 0F_02, and on 0F_00 and 0F_01 with a
 * stepping above 09H. */
static int nbt_cascade_pmi_erratum(const struct cpu_sig *s)
{
	if (s->family != 15)
		return 0;
	if (s->model == 2)
		return 1;
	return (s->model == 0 || s->model == 1) && s->stepping > 9;
}

#define ERR_BENCH "counted-loop"
#define ERR_N 40
#define K1 10
#define K2 20

struct job {
	struct tcase *t;
	struct oracle_counts oc;
	int ran;
	unsigned calls;
};

static void on_pmi(const struct pmi_record *r, void *ctx)
{
	struct job *j = ctx;

	(void)r;
	j->calls++;
}

static void job_fn(void *arg)
{
	struct job *j = arg;

	pmi_set_callback(on_pmi, j);
	j->ran = pmu_exec(j->t, ERR_BENCH, ERR_N, &j->oc);
}

static uint64_t escr_instr(void)
{
	return nbt_escr_usr(NBT_INSTR_RETIRED, NBT_NBOGUSNTAG);
}

static uint64_t cccr_instr(unsigned pmi)
{
	return nbt_cccr((struct nbt_cccr){ .escr_sel = NBT_INSTR_RETIRED_SEL,
					   .active = NBT_ANY,
					   .ovf_pmi_t0 = pmi });
}

/* Before any counter counts: on hardware the oracle's trace of the
 * benchmark (pmu_run.h). */
static int job_prepare(struct tcase *t, struct job *j)
{
	*j = (struct job){ .t = t };
	return pmu_oracle_first(t, ERR_BENCH, ERR_N, &j->oc);
}

/* Runs the benchmark armed; returns the PMIs taken, or -1. */
static long armed_run(struct tcase *t, struct job *j, const char *key)
{
	struct fault f;
	int rc;

	rc = pmi_run(PMI_PATH_NMI, job_fn, j, &f);
	value(t, key, "%llu (handler calls %u)",
	      (unsigned long long)pmi_count(), j->calls);
	if (!check(t, rc == 0 && j->ran, "pmi_run %d (vector %u), benchmark "
		   "ran %d", rc, rc == 1 ? f.vector : 0, j->ran))
		return -1;
	return (long)pmi_count();
}

static uint64_t instrs(const struct job *j)
{
	return nbt_usr_count(&j->oc, SEM_INSTRUCTIONS);
}

/* Counter 12 alone with OVF_PMI: one PMI on every processor. */
static int control(struct tcase *t, struct job *j)
{
	static struct nbt_trail tr;
	uint64_t v = 0, cccr = 0;
	struct pmu_expect x = { 0 };
	struct pmu_err e = { "", 0 };
	long pmis;
	int ok;

	if (!job_prepare(t, j))
		return 0;
	nbt_trail_open(&tr);
	ok = nb_program(12, escr_instr(), cccr_instr(1), &e) == 0 &&
	     nb_write(12, NBT_TOP - K1, &e) == 0 && nb_start(12, &e) == 0;
	nbt_trail_close();
	if (!check(t, ok, "control setup: %s", e.msg))
		return 0;
	pmis = armed_run(t, j, "control_pmis");
	ok = pmis >= 0 && check(t, nb_stop(12, &e) == 0, "%s", e.msg) &&
	     nbt_read_ctr_cccr(t, 12, &v, &cccr);
	(void)nb_release(12, &e);
	if (!ok)
		return 0;
	nbt_log_regs(t, "control", &tr, 12);
	x = nbt_exact(instrs(j));
	nbt_check_count(t, "control", 12, NBT_TOP - K1, v, &x);
	return check(t, pmis == 1 && (cccr & NBT_CCCR_OVF), "control: counter"
		     " 12 not cascaded, OVF_PMI, wrapped: %ld PMIs, CCCR "
		     "0x%llx; expected 1 PMI and OVF (without it the cascaded "
		     "run proves nothing)", pmis, (unsigned long long)cccr);
}

static void test_erratum(struct tcase *t)
{
	static struct nbt_trail tr;
	static struct job j;
	const struct cpu_sig *s = nbt_sig();
	int erratum = nbt_cascade_pmi_erratum(s);
	uint64_t vx = 0, vy = 0, cx = 0, cy = 0;
	struct pmu_expect x = { 0 };
	struct pmu_err e = { "", 0 };
	long pmis, want = erratum ? 0 : 1;
	int ok;

	if (!nb_ready(t) || !apic_ready(t))
		return;
	value(t, "erratum", "%02X_%02XH stepping %u: %s", s->family, s->model,
	      s->stepping, erratum ? "applies (0F_02, or 0F_00/0F_01 stepping "
	      "> 09H): a cascaded counter raises no PMI" :
	      "does not apply: a cascaded counter raises its PMI");
	if (!control(t, &j) || !job_prepare(t, &j))
		return;
	nbt_trail_open(&tr);
	ok = nb_program(12, escr_instr(), cccr_instr(0), &e) == 0 &&
	     nb_write(12, NBT_TOP - K1, &e) == 0 &&
	     nb_program_cascaded(12, 14, escr_instr(), cccr_instr(1),
				 &e) == 0 &&
	     nb_write(14, NBT_TOP - K2, &e) == 0 && nb_start(14, &e) == 0 &&
	     nb_start(12, &e) == 0;
	nbt_trail_close();
	if (!check(t, ok, "setup: %s", e.msg))
		goto out;
	pmis = armed_run(t, &j, "cascaded_pmis");
	if (pmis < 0 || !check(t, nb_stop(14, &e) == 0 &&
			       nb_stop(12, &e) == 0, "%s", e.msg) ||
	    !nbt_read_ctr_cccr(t, 12, &vx, &cx) || !nbt_read_ctr_cccr(t, 14, &vy, &cy))
		goto out;
	nbt_log_regs(t, NULL, &tr, 12);
	nbt_log_regs(t, NULL, &tr, 14);
	if (!check(t, instrs(&j) > K1 + K2 + 1, "%llu instructions: the "
		   "benchmark is too short for K1 + K2 = %u",
		   (unsigned long long)instrs(&j), K1 + K2))
		goto out;
	x = nbt_exact(instrs(&j));
	nbt_check_count(t, NULL, 12, NBT_TOP - K1, vx, &x);
	x = nbt_exact(instrs(&j) - K1);
	nbt_check_count(t, NULL, 14, NBT_TOP - K2, vy, &x);
	value(t, "pmis_expected", "%ld", want);
	check(t, (cx & NBT_CCCR_OVF) && (cy & NBT_CCCR_OVF), "OVF: counter 12 "
	      "CCCR 0x%llx, counter 14 CCCR 0x%llx: both wrapped",
	      (unsigned long long)cx, (unsigned long long)cy);
	check(t, pmis == want, "cascaded counter 14 with OVF_PMI wrapped: %ld "
	      "PMIs, expected %ld (erratum %s)", pmis, want,
	      erratum ? "applies" : "does not apply");
out:
	(void)nb_release(14, &e);
	(void)nb_release(12, &e);
}

TEST(nb_erratum_cascade_pmi, "netburst/erratum-cascade-pmi",
     "a cascaded counter's overflow raises its PMI, except on 0F_02 and "
     "0F_00/0F_01 stepping > 09H (SDM 18.15.5.7 erratum)", test_erratum, 0);
