/* p5/rdpmc-cpl3-*: RDPMC executed at CPL 3 is governed by CR4.PCE (SDM
 * Vol. 2B RDPMC: #GP(0) at CPL > 0 when CR4.PCE is clear) on the Pentium
 * with MMX technology, and is #UD on a Pentium without it whatever
 * CR4.PCE says.  p5/program-order: the driver changes an event in the
 * SDM's order (Vol. 3B §18.23.1: a counter is stopped and cleared or
 * preset before its event is changed), checked on the backend's access
 * log, hardware and model alike. */
#include "p5_test.h"
#include "../../harness/rdpmc_user.h"
#include "../../arch/x86/trap.h"
#include "../../pmu/backend.h"

static void rdpmc_test(struct tcase *t, int pce)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P5);
	struct pmu_run r;

	if (!d)
		return;
	/* CTR0 counts CPL 3 instructions of a run, then holds still. */
	p5_setup(&r, "counted-loop", 30, 3, (struct p5_half){ 0x16,
		 SDM_CC_EV_USR, 0 }, (struct p5_half){ 0x00, SDM_CC_NONE, 0 });
	if (pmu_run(t, &r))
		rdpmc_cpl3_check(t, 0, pce, !sdm_p5_mmx() ? VEC_UD :
				 pce ? 0 : VEC_GP, r.got[0]);
}

static void test_pce_set(struct tcase *t)
{
	rdpmc_test(t, 1);
}

static void test_pce_clear(struct tcase *t)
{
	rdpmc_test(t, 0);
}

TEST(p5_rdpmc_pce1, "p5/rdpmc-cpl3-pce-set",
     "RDPMC at CPL 3 with CR4.PCE set reads CTR0 (MMX; #UD without)",
     test_pce_set, 0);
TEST(p5_rdpmc_pce0, "p5/rdpmc-cpl3-pce-clear",
     "RDPMC at CPL 3 with CR4.PCE clear raises #GP (MMX; #UD without)",
     test_pce_clear, 0);

static void test_order(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P5);
	struct p5_half old = { 0x16, SDM_CC_EV_USR, 1 }, neu = { 0x00,
			       SDM_CC_EV_USR, 1 };
	struct be_access a[32], w[8];
	struct be_log log;
	struct pmu_err e;
	unsigned n;

	if (!d || !check(t, p5_init(&e) == 0 && p5_program(1, &old, &e) == 0 &&
			 p5_start(1, &e) == 0, "setup: %s", e.msg))
		return;
	be_log_open(&log, a, 32);
	check(t, p5_program(1, &neu, &e) == 0, "program: %s", e.msg);
	be_log_close();
	n = be_log_writes(&log, w, 8);
	for (unsigned i = 0; i < n; i++) {
		char k[16] = "write0";

		k[5] = (char)('0' + i);
		value(t, k, "msr=0x%x value=0x%llx", w[i].reg,
		      (unsigned long long)w[i].value);
	}
	if (!check(t, n == 3, "%u writes, expected 3 (stop, clear, event)",
		   n))
		return;
	check(t, w[0].reg == SDM_P5_CESR && (w[0].value >> 22 & 7) == 0 &&
	      (w[0].value >> 16 & 0x3f) == old.es, "first write 0x%x=0x%llx:"
	      " not CTR1 stopped with its old event", w[0].reg,
	      (unsigned long long)w[0].value);
	check(t, w[1].reg == SDM_P5_CTR1 && w[1].value == 0, "second write "
	      "0x%x=0x%llx: not CTR1 cleared", w[1].reg,
	      (unsigned long long)w[1].value);
	check(t, w[2].reg == SDM_P5_CESR && (w[2].value >> 16 & 0x3f) ==
	      neu.es && (w[2].value >> 22 & 7) == 0, "third write "
	      "0x%x=0x%llx: not the new event with CC1=000", w[2].reg,
	      (unsigned long long)w[2].value);
}

TEST(p5_order, "p5/program-order",
     "changing an event: stop, clear, then the new ES (SDM 18.23.1)",
     test_order, 0);
