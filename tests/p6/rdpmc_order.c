/* p6/rdpmc-cpl3-*: RDPMC executed at CPL 3 reads PerfCtr0 when CR4.PCE
 * is set and raises #GP(0) when it is clear (SDM Vol. 3B §18.22.2; Vol.
 * 2B RDPMC, "Protected Mode Exceptions"); every P6 has RDPMC.
 * p6/program-order: the driver changes an event with EN off, the
 * counter cleared before the new event is written, and the other
 * counter re-enabled after it, checked on the backend's access log,
 * hardware and model alike. */
#include "p6_test.h"
#include "../../harness/rdpmc_user.h"
#include "../../arch/x86/trap.h"
#include "../../pmu/backend.h"

static void rdpmc_test(struct tcase *t, int pce)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct pmu_run r;

	if (!d)
		return;
	/* PerfCtr0 counts CPL 3 instructions of a run from a preset that
	 * uses bits 39:32, then holds still. */
	p6_setup(&r, "counted-loop", 30, 3,
		 (struct sdm_sel){ .event = SDM_P6_INST_RETIRED, .usr = 1 },
		 (struct sdm_sel){ .event = SDM_P6_INST_RETIRED });
	r.preset[0] = SDM_CTR_TOP - 0x10000;
	if (pmu_run(t, &r))
		rdpmc_cpl3_check(t, 0, pce, pce ? 0 : VEC_GP, r.got[0]);
}

static void test_pce_set(struct tcase *t)
{
	rdpmc_test(t, 1);
}

static void test_pce_clear(struct tcase *t)
{
	rdpmc_test(t, 0);
}

TEST(p6_rdpmc_pce1, "p6/rdpmc-cpl3-pce-set",
     "RDPMC at CPL 3 with CR4.PCE set reads PerfCtr0", test_pce_set, 0);
TEST(p6_rdpmc_pce0, "p6/rdpmc-cpl3-pce-clear",
     "RDPMC at CPL 3 with CR4.PCE clear raises #GP", test_pce_clear, 0);

static void log_writes(struct tcase *t, const char *what,
		       const struct be_access *w, unsigned n)
{
	char k[32];

	for (unsigned i = 0; i < n; i++) {
		fmt_snprintf(k, sizeof(k), "%s_write%u", what, i);
		value(t, k, "msr=0x%x value=0x%llx", w[i].reg,
		      (unsigned long long)w[i].value);
	}
}

static int is_write(const struct be_access *w, uint32_t msr, uint64_t v)
{
	return w->reg == msr && w->value == v;
}

/*
 * Counter 0 counts (INST_RETIRED, USR) and counter 1 counts BR_INST_
 * RETIRED; counter 1 changes to DATA_MEM_REFS.  Expected writes, from the
 * SDM's layout:
 *   PerfEvtSel0 = counter 0's selection with EN clear (both stop),
 *   PerfCtr1 = 0,
 *   PerfEvtSel1 = DATA_MEM_REFS with USR and OS clear,
 *   PerfEvtSel0 = counter 0's selection with EN (counter 0 resumes);
 * then start(1) writes PerfEvtSel1 = DATA_MEM_REFS with USR, nothing else
 * (EN is set).  Then counter 0 changes while counter 1 is stopped:
 *   PerfEvtSel0 without EN, PerfCtr0 = 0, PerfEvtSel0 = the new event with
 *   USR, OS and EN clear - and EN stays clear.
 */
static void test_order(struct tcase *t)
{
	uint64_t s0 = sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 });
	uint64_t s1 = sdm_sel((struct sdm_sel){ .event = 0xc4, .usr = 1 });
	uint64_t n1 = sdm_sel((struct sdm_sel){ .event = 0x43, .usr = 1 });
	uint64_t n0 = sdm_sel((struct sdm_sel){ .event = 0x79, .os = 1 });
	struct be_access a[64], w[8];
	struct be_log log;
	struct pmu_err e;
	unsigned n;

	if (!pmu_ready(t, PMU_P6) ||
	    !check(t, p6_init(&e) == 0 && p6_program(0, s0, &e) == 0 &&
		   p6_program(1, s1, &e) == 0 && p6_start(0, &e) == 0 &&
		   p6_start(1, &e) == 0, "setup: %s", e.msg))
		return;
	be_log_open(&log, a, 64);
	check(t, p6_program(1, n1, &e) == 0, "program: %s", e.msg);
	be_log_close();
	n = be_log_writes(&log, w, 8);
	log_writes(t, "program1", w, n);
	if (check(t, n == 4, "%u writes, expected 4 (EN off, clear, event, "
		  "EN on)", n)) {
		check(t, is_write(&w[0], SDM_P6_PERFEVTSEL0, s0), "first: not "
		      "PerfEvtSel0 = 0x%llx (EN clear)",
		      (unsigned long long)s0);
		check(t, is_write(&w[1], SDM_P6_PERFCTR1, 0), "second: not "
		      "PerfCtr1 = 0");
		check(t, is_write(&w[2], SDM_P6_PERFEVTSEL1, n1 & ~SDM_USR),
		      "third: not PerfEvtSel1 = 0x%llx (USR/OS clear)",
		      (unsigned long long)(n1 & ~SDM_USR));
		check(t, is_write(&w[3], SDM_P6_PERFEVTSEL0, s0 | SDM_EN),
		      "fourth: not PerfEvtSel0 = 0x%llx (EN set)",
		      (unsigned long long)(s0 | SDM_EN));
	}
	be_log_open(&log, a, 64);
	check(t, p6_start(1, &e) == 0, "start: %s", e.msg);
	be_log_close();
	n = be_log_writes(&log, w, 8);
	log_writes(t, "start1", w, n);
	check(t, n == 1 && is_write(&w[0], SDM_P6_PERFEVTSEL1, n1), "start "
	      "1: %u writes, expected one, PerfEvtSel1 = 0x%llx", n,
	      (unsigned long long)n1);
	if (!check(t, p6_stop(1, &e) == 0, "stop 1: %s", e.msg))
		return;
	be_log_open(&log, a, 64);
	check(t, p6_program(0, n0, &e) == 0, "program 0: %s", e.msg);
	be_log_close();
	n = be_log_writes(&log, w, 8);
	log_writes(t, "program0", w, n);
	if (check(t, n == 3, "%u writes, expected 3 (EN off, clear, event)",
		  n))
		check(t, is_write(&w[0], SDM_P6_PERFEVTSEL0, s0) &&
		      is_write(&w[1], SDM_P6_PERFCTR0, 0) &&
		      is_write(&w[2], SDM_P6_PERFEVTSEL0, n0 & ~SDM_OS),
		      "not PerfEvtSel0 = 0x%llx, PerfCtr0 = 0, PerfEvtSel0 = "
		      "0x%llx", (unsigned long long)s0,
		      (unsigned long long)(n0 & ~SDM_OS));
	(void)p6_stop(0, &e);
}

TEST(p6_order, "p6/program-order",
     "changing an event: EN off, clear, the new event stopped, EN back on "
     "for the other counter", test_order, 0);
