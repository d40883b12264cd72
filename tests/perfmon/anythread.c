/* perfmon/anythread: AnyThread (architectural perfmon v3, PerfEvtSel bit
 * 21 and FIXED_CTR_CTRL bit 2 + 4i, SDM Vol. 3B §18.2.3) makes a counter
 * count the events of both logical processors of its core, each at its
 * own CPL under the counter's USR/OS.  Both threads run a benchmark while
 * this processor's counters count: this one at CPL 3, then its sibling
 * (arch/x86/smp.h) at CPL 0.
 *
 *   PMC0 instructions, USR+OS, AnyThread: this thread's + the sibling's
 *   PMC1 instructions, USR+OS:            this thread's only
 *   PMC2 instructions, USR, AnyThread:    this thread's (the sibling ran
 *                                         at CPL 0)
 *   PMC3 instructions, OS, AnyThread:     the sibling's only
 *   FIXED_CTR0 USR+OS+AnyThread, FIXED_CTR1 (core cycles) USR+OS:
 *                                         both threads, this thread's
 *
 * Under the model the counts are exact.  On hardware the sibling runs at
 * full speed while this processor waits in the firmware at CPL 0 (which
 * counts too), so counts with OS are lower bounds there. */
#include "perfmon_test.h"
#include "../../harness/pmi_run.h"
#include "../../harness/smp_run.h"
#include "../../harness/need.h"
#include "../../arch/x86/smp.h"
#include "../../lib/fmt.h"

#define ANY_BENCH "call-ret"
#define ANY_N 30

struct sibling_job {
	const struct bench *b;
	struct oracle_counts oc;
	struct fault f;
	int ret;
};

static void on_sibling(void *arg)
{
	struct sibling_job *j = arg;

	j->ret = bench_exec(j->b, ANY_N, 0, &j->oc, backend_current()->sink,
			    NULL, &j->f);
}

/* The sibling's job, ANY_BENCH with its data, where AnyThread exists and
 * a sibling runs; NULL (skipped or failed, said) otherwise.  One job for
 * both tests, kept: the sibling reads it. */
static struct sibling_job *any_job(struct tcase *t, const struct pm_sdm *c)
{
	static struct sibling_job *j;

	if (!c->any) {
		skip(t, "AnyThread needs v3 and no EDX[15] deprecation: "
		     "CPUID.0AH:EAX[7:0] = %u%s (perfmon/version-* checks that "
		     "it #GPs)", c->version, c->any_deprecated ?
		     ", EDX[15] = 1" : "");
		return 0;
	}
	if (!sibling_ready(t) ||
	    (!j && !(j = need_alloc(t, "the sibling job", sizeof(*j), 4096))))
		return 0;
	j->b = bench_find(ANY_BENCH);
	if (!check(t, j->b != NULL, "no benchmark %s", ANY_BENCH) ||
	    !need_bench_data(t, j->b))
		return 0;
	return j;
}

static const struct sdm_sel sels[4] = {
	{ .event = 0xc0, .usr = 1, .os = 1, .any = 1 },
	{ .event = 0xc0, .usr = 1, .os = 1 },
	{ .event = 0xc0, .usr = 1, .any = 1 },
	{ .event = 0xc0, .os = 1, .any = 1 },
};

static int program(struct tcase *t, const struct pmu_driver *d,
		   const struct pm_sdm *c)
{
	struct pmu_err e;
	unsigned n = c->gp < 4 ? c->gp : 4;

	if (!check(t, d->init(&e) == 0, "init: %s", e.msg))
		return 0;
	for (unsigned k = 0; k < n; k++)
		if (!check(t, d->program(k, &(struct pmu_config){
				sdm_sel(sels[k]), 0 }, &e) == 0 &&
			   d->start(k, &e) == 0, "PMC%u: %s", k, e.msg))
			return 0;
	for (unsigned i = 0; i < 2 && c->fixed[i]; i++) {
		unsigned field = SDM_FIX_OS | SDM_FIX_USR |
				 (i == 0 ? SDM_FIX_ANY : 0);

		if (!check(t, d->program(pm_fixed_ctr(i),
					 &(struct pmu_config){ field, 0 },
					 &e) == 0 &&
			   d->start(pm_fixed_ctr(i), &e) == 0,
			   "FIXED_CTR%u: %s", i, e.msg))
			return 0;
	}
	return 1;
}

static void expect(struct tcase *t, const char *name, uint64_t got,
		   uint64_t want, int lower_bound_only)
{
	char k[40];	/* "fixed1_this_thread_oracle" was cut at 24 */

	if (!check(t, fmt_snprintf(k, sizeof(k), "%s_oracle", name) <
		   (int)sizeof(k), "key %s_oracle longer than %zu bytes", name,
		   sizeof(k) - 1))
		return;
	value(t, name, "%llu", (unsigned long long)got);
	value(t, k, "%s%llu", lower_bound_only ? ">= " : "",
	      (unsigned long long)want);
	check(t, lower_bound_only ? got >= want : got == want, "%s read %llu,"
	      " expected %s%llu", name, (unsigned long long)got,
	      lower_bound_only ? "at least " : "", (unsigned long long)want);
}

static void test_anythread(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
	struct sibling_job *j;
	struct oracle_counts own;
	uint64_t v[4] = { 0 }, fx[2] = { 0 }, mine, sib;
	char why[240];
	int hw = !pmu_on_model();
	struct pmu_err e;

	if (!d || !(j = any_job(t, c)) ||
	    !pmu_oracle_first(t, ANY_BENCH, ANY_N, &own))
		return;
	if (hw && !check(t, oracle_run(j->b, ANY_N, 0, &j->oc, &j->f) == 0,
			 "oracle run at CPL 0"))
		return;
	if (!program(t, d, c) || !pmu_exec(t, ANY_BENCH, ANY_N, &own))
		return;
	if (!check(t, smp_sibling_run(on_sibling, j, why, sizeof(why)) == 0,
		   "on the sibling: %s", why) ||
	    !check(t, j->ret == 0, "the benchmark faulted on the sibling "
		   "(vector %u)", j->f.vector))
		return;
	for (unsigned k = 0; k < 4 && k < c->gp; k++)
		(void)(d->stop(k, &e) || d->read(k, &v[k], &e));
	for (unsigned i = 0; i < 2 && c->fixed[i]; i++)
		(void)(d->stop(pm_fixed_ctr(i), &e) ||
		       d->read(pm_fixed_ctr(i), &fx[i], &e));
	mine = own.c[3][SEM_INSTRUCTIONS];
	sib = j->oc.c[0][SEM_INSTRUCTIONS];
	value(t, "this_thread_cpl3", "%llu instructions",
	      (unsigned long long)mine);
	value(t, "sibling_cpl0", "%llu instructions", (unsigned long long)sib);
	expect(t, "pmc0_any_usr_os", v[0], mine + sib, hw);
	expect(t, "pmc1_usr_os", v[1], mine, hw);
	if (c->gp >= 4) {
		expect(t, "pmc2_any_usr", v[2], mine, 0);
		expect(t, "pmc3_any_os", v[3], sib, hw);
	}
	if (c->fixed[0])
		expect(t, "fixed0_any", fx[0], mine + sib, hw);
	/* FIXED_CTR1 counts core cycles (Table 18-2): without AnyThread,
	 * this thread's */
	if (c->fixed[1] && !hw)
		expect(t, "fixed1_this_thread", fx[1],
		       sem_sum(pm_events[pm_fixed_counts[1]].sem, own.c[3]), 0);
}

TEST(perfmon_anythread, "perfmon/anythread",
     "AnyThread counts both logical processors of the core, each at its CPL",
     test_anythread, 0);

/* perfmon/anythread-pmi: an AnyThread counter whose overflow the
 * sibling's events make interrupts this processor, "the logical processor
 * that programmed" it (SDM Vol. 3B 18.2.3), and sets its GLOBAL_STATUS
 * bit (18.2.2).  PMC0 counts OS instructions (C0H/00H, Table 18-1) with
 * AnyThread and INT, preset PMI_K below its wrap; this processor runs no
 * benchmark, the sibling runs ANY_BENCH at CPL 0 (more than PMI_K
 * instructions): the overflow is the sibling's event, the PMI this
 * processor's.  Then this processor reads GLOBAL_STATUS and waits for a
 * late PMI; exactly one must have come. */
#define PMI_K 5

struct any_pmi {
	struct sibling_job *j;
	int rc;
	char why[240];
	uint64_t status;
	int status_vec;
};

static void sibling_then_status(void *arg)
{
	struct any_pmi *a = arg;

	a->rc = smp_sibling_run(on_sibling, a->j, a->why, sizeof(a->why));
	a->status_vec = be_rdmsr(PM_MSR_GLOBAL_STATUS, &a->status);
	apic_delay(10000);
}

static void test_anythread_pmi(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
	struct sibling_job *j;
	struct any_pmi a = { 0 };
	struct pmu_err e;
	struct fault f;
	uint64_t top;
	int rc;

	if (!d || !(j = any_job(t, c)) || !apic_ready(t))
		return;
	top = (1ull << c->gp_width) - 1;
	if (!check(t, d->init(&e) == 0, "init: %s", e.msg) ||
	    !check(t, d->program(0, &(struct pmu_config){
			sdm_sel((struct sdm_sel){ .event = 0xc0, .os = 1,
						  .any = 1, .intr = 1 }), 0 },
			&e) == 0 && d->reset(0, top - PMI_K + 1, &e) == 0 &&
		   d->start(0, &e) == 0, "PMC0: %s", e.msg))
		return;
	a.j = j;
	rc = pmi_run(PMI_PATH_NMI, sibling_then_status, &a, &f);
	(void)d->stop(0, &e);
	value(t, "pmis", "%llu", (unsigned long long)pmi_count());
	value(t, "global_status", "0x%llx", (unsigned long long)a.status);
	if (!check(t, rc == 0, "pmi_run %d", rc) ||
	    !check(t, a.rc == 0, "on the sibling: %s", a.why) ||
	    !check(t, j->ret == 0, "the benchmark faulted on the sibling "
		   "(vector %u)", j->f.vector))
		return;
	check(t, a.status_vec == 0 && (a.status & 1), "GLOBAL_STATUS 0x%llx: "
	      "bit 0 (PMC0 overflowed) clear", (unsigned long long)a.status);
	check(t, pmi_count() == 1, "%llu PMIs on this processor: the "
	      "overflow of its AnyThread counter raises one",
	      (unsigned long long)pmi_count());
	(void)be_wrmsr(PM_MSR_GLOBAL_OVF_CTRL, 1);
}

TEST(perfmon_anythread_pmi, "perfmon/anythread-pmi",
     "an AnyThread counter overflowing on the sibling's events interrupts "
     "the processor that programmed it", test_anythread_pmi, 0);
