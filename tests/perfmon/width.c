/* perfmon/ counter widths, writes and reads (SDM Vol. 3B §18.2.1, §18.2.6
 * "Full-Width Writes to Performance Counter Registers"; Vol. 2B RDPMC):
 *   - a counter preset 5 below the top of its width wraps to a small
 *     value (GP and fixed);
 *   - WRMSR to IA32_PMCx takes EAX sign-extended to the counter width
 *     (EDX is ignored); IA32_A_PMCx (0x4C1+) takes the full width where
 *     IA32_PERF_CAPABILITIES bit 13 is set and raises #GP where it is not;
 *   - RDPMC reads GP counter n with ECX = n and fixed counter i with
 *     ECX = 2^30 + i; an index past the counters raises #GP;
 *   - at CPL 3, RDPMC needs CR4.PCE. */
#include "perfmon_test.h"
#include "../../harness/rdpmc_user.h"

static uint64_t top(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

static void test_wrap(struct tcase *t)
{
	const struct perfmon_caps *c;
	const struct pmu_driver *d = perfmon_ready(t, &c);
	struct pmu_run r;
	unsigned f0 = perfmon_fixed_ctr(0);

	if (!d)
		return;
	pm_setup(&r, "wrap", "nops", 20, 3);
	pm_add(&r, 0, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 }));
	r.preset[0] = top(c->gp_width) - 4;
	if (perfmon_fixed_exists(c, 0)) {
		pm_add(&r, f0, SDM_FIX_USR);
		r.preset[f0] = top(c->fixed_width) - 4;
	}
	if (!pmu_run(t, &r))
		return;
	value(t, "gp_width", "%u", c->gp_width);
	pm_check(t, d, &r, 0);
	check(t, r.got[0] < 1000, "PMC0 0x%llx did not wrap past 2^%u",
	      (unsigned long long)r.got[0], c->gp_width);
	if (perfmon_fixed_exists(c, 0)) {
		value(t, "fixed_width", "%u", c->fixed_width);
		pm_check(t, d, &r, f0);
		check(t, r.got[f0] < 1000, "FIXED_CTR0 0x%llx did not wrap",
		      (unsigned long long)r.got[f0]);
	}
}

TEST(perfmon_wrap, "perfmon/ctr-wraps-at-width",
     "GP and fixed counters preset 5 below 2^width wrap to a small value",
     test_wrap, 0);

static void write_read(struct tcase *t, uint32_t msr, uint64_t v,
		       int *vec, uint64_t *back)
{
	*back = ~0ull;
	*vec = be_wrmsr(msr, v);
	if (!*vec)
		check(t, be_rdmsr(MSR_IA32_PMC(0), back) == 0, "RDMSR PMC0");
}

static void test_writes(struct tcase *t)
{
	const struct perfmon_caps *c;
	struct pmu_err e;
	uint64_t mask, back, sext;
	int vec, fw;

	if (!perfmon_ready(t, &c) ||
	    !check(t, perfmon_driver.init(&e) == 0, "init: %s", e.msg))
		return;
	mask = top(c->gp_width);
	fw = c->has_perf_caps && (c->perf_caps >> 13 & 1);
	value(t, "full_width", "%d", fw);
	/* bit 31 set: bits 32 up to the width follow it */
	sext = (0xffffffff80000005ull) & mask;
	write_read(t, MSR_IA32_PMC(0), 0x80000005ull, &vec, &back);
	value(t, "pmc0_0x80000005", "0x%llx", (unsigned long long)back);
	check(t, !vec && back == sext, "PMC0=0x80000005 read 0x%llx (vector "
	      "%d), the sign extension is 0x%llx", (unsigned long long)back,
	      vec, (unsigned long long)sext);
	/* EDX is ignored */
	write_read(t, MSR_IA32_PMC(0), 0x100000005ull, &vec, &back);
	value(t, "pmc0_0x100000005", "0x%llx", (unsigned long long)back);
	check(t, !vec && back == 5, "PMC0=0x1_00000005 read 0x%llx (vector "
	      "%d), expected 5", (unsigned long long)back, vec);
	/* full width */
	write_read(t, MSR_IA32_A_PMC(0), 0x100000005ull, &vec, &back);
	value(t, "a_pmc0_0x100000005", "vector %d read 0x%llx", vec,
	      (unsigned long long)back);
	if (fw) {
		check(t, !vec && back == 0x100000005ull, "A_PMC0=0x1_00000005"
		      " read 0x%llx (vector %d)", (unsigned long long)back,
		      vec);
		vec = be_wrmsr(MSR_IA32_A_PMC(0), mask + 1);
		check(t, vec == VEC_GP, "A_PMC0=2^%u: vector %d, expected #GP",
		      c->gp_width, vec);
	} else {
		check(t, vec == VEC_GP, "A_PMC0 without full-width writes: "
		      "vector %d, expected #GP", vec);
		check(t, perfmon_driver.reset(0, 0x100000005ull, &e) != 0,
		      "the driver preset 0x1_00000005 without full-width "
		      "writes");
		value(t, "refused", "%s", e.msg);
	}
}

TEST(perfmon_writes, "perfmon/pmc-write-width",
     "IA32_PMCx sign-extends EAX; IA32_A_PMCx full width only with "
     "PERF_CAPABILITIES bit 13", test_writes, 0);

static void test_rdpmc(struct tcase *t)
{
	const struct perfmon_caps *c;
	const struct pmu_driver *d = perfmon_ready(t, &c);
	struct pmu_run r;
	uint64_t v;
	unsigned f1 = perfmon_fixed_ctr(1);
	int vec;

	if (!d)
		return;
	/* REP iterations: FIXED_CTR1 (clocks) differs from PMC1 */
	pm_setup(&r, "rdpmc", "rep-movsb", 30, 3);
	pm_add(&r, 1, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 }));
	if (perfmon_fixed_exists(c, 1))
		pm_add(&r, f1, SDM_FIX_USR);
	if (!pmu_run(t, &r))
		return;
	vec = be_rdpmc(1, &v);
	value(t, "rdpmc_1", "%llu (vector %d)", (unsigned long long)v, vec);
	check(t, !vec && v == r.got[1], "RDPMC 1: %llu vector %d, RDMSR PMC1 "
	      "%llu", (unsigned long long)v, vec, (unsigned long long)r.got[1]);
	if (perfmon_fixed_exists(c, 1)) {
		vec = be_rdpmc(RDPMC_FIXED | 1, &v);
		value(t, "rdpmc_fixed1", "%llu (vector %d)",
		      (unsigned long long)v, vec);
		check(t, !vec && v == r.got[f1], "RDPMC 2^30+1: %llu vector "
		      "%d, RDMSR FIXED_CTR1 %llu", (unsigned long long)v, vec,
		      (unsigned long long)r.got[f1]);
	}
	check(t, be_rdpmc(c->gp, &v) == VEC_GP, "RDPMC %u (no such GP "
	      "counter) did not raise #GP", c->gp);
	check(t, be_rdpmc(RDPMC_FIXED | PERFMON_MAX_FIXED, &v) == VEC_GP,
	      "RDPMC 2^30+%u did not raise #GP", PERFMON_MAX_FIXED);
}

TEST(perfmon_rdpmc, "perfmon/rdpmc-index",
     "RDPMC n reads PMCn, 2^30+i reads FIXED_CTRi, others #GP",
     test_rdpmc, 0);

static void rdpmc_user(struct tcase *t, int pce)
{
	const struct perfmon_caps *c;
	const struct pmu_driver *d = perfmon_ready(t, &c);
	struct pmu_run r;

	if (!d)
		return;
	pm_setup(&r, "count", "counted-loop", 30, 3);
	pm_add(&r, 0, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 }));
	if (pmu_run(t, &r))
		rdpmc_cpl3_check(t, 0, pce, pce ? 0 : VEC_GP, r.got[0]);
}

static void test_user_pce(struct tcase *t)
{
	rdpmc_user(t, 1);
}

static void test_user_nopce(struct tcase *t)
{
	rdpmc_user(t, 0);
}

TEST(perfmon_rdpmc_pce1, "perfmon/rdpmc-cpl3-pce-set",
     "RDPMC at CPL 3 with CR4.PCE set reads PMC0", test_user_pce, 0);
TEST(perfmon_rdpmc_pce0, "perfmon/rdpmc-cpl3-pce-clear",
     "RDPMC at CPL 3 with CR4.PCE clear raises #GP", test_user_nopce, 0);
