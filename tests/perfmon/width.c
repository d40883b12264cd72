/* perfmon/ counter widths, writes and reads (SDM Vol. 3B §18.2.1, §18.2.6
 * "Full-Width Writes to Performance Counter Registers"; Vol. 2B RDPMC):
 *   - a counter is CPUID.0AH:EAX[23:16] bits wide (fixed: EDX[12:5]) and
 *     overflows at the event that carries it from 2^width - 1 to 0: one
 *     preset to 2^width - 5 over n > 5 instructions reads n - 5 and has
 *     its GLOBAL_STATUS bit (v2+); one preset to 2^width - 1 - n reads
 *     2^width - 1 and has not (GP and fixed);
 *   - WRMSR to IA32_PMCx takes EAX sign-extended to the counter width
 *     (EDX is ignored); IA32_A_PMCx (0x4C1+) takes the full width where
 *     IA32_PERF_CAPABILITIES bit 13 is set and raises #GP where it is not;
 *   - RDPMC reads GP counter n with ECX = n and fixed counter i with
 *     ECX = 2^30 + i; an index past the counters raises #GP;
 *   - at CPL 3, RDPMC needs CR4.PCE. */
#include "perfmon_test.h"
#include "../../harness/rdpmc_user.h"

#define WRAP_K 5
#define WRAP_BENCH "nops"
#define WRAP_N 20

/* One run of Instruction Retired (C0H/00H; FIXED_CTR0, Table 18-2) on
 * PMC0 and FIXED_CTR0, preset to 2^width - at: each wraps at its at-th
 * event; logs and checks
 * the counts, returns GLOBAL_STATUS (v2+) in *status. */
static int wrap_run(struct tcase *t, const struct pmu_driver *d,
		    const struct pm_sdm *c, const char *label,
		    uint64_t at, struct pmu_run *r, uint64_t *status)
{
	unsigned f0 = pm_fixed_ctr(0);

	*status = 0;
	pm_setup(r, label, WRAP_BENCH, WRAP_N, 3);
	pm_add(r, 0, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 }));
	r->preset[0] = pm_top(c->gp_width) - at + 1;
	if (c->fixed[0]) {
		pm_add(r, f0, SDM_FIX_USR);
		r->preset[f0] = pm_top(c->fixed_width) - at + 1;
	}
	if (!pmu_run(t, r))
		return 0;
	pm_check(t, d, r, 0);
	if (c->fixed[0])
		pm_check(t, d, r, f0);
	if (c->globals) {
		if (!check(t, be_rdmsr(PM_MSR_GLOBAL_STATUS, status) == 0,
			   "RDMSR GLOBAL_STATUS"))
			return 0;
		value(t, label, "GLOBAL_STATUS 0x%llx",
		      (unsigned long long)*status);
		(void)be_wrmsr(PM_MSR_GLOBAL_OVF_CTRL, 1ull |
			       (c->fixed[0] ? PM_GLOBAL_FIXED(0) : 0));
	}
	return 1;
}

static void test_wrap(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
	unsigned f0 = pm_fixed_ctr(0);
	uint64_t bits, n, st;
	struct oracle_counts oc;
	struct pmu_run r;

	if (!d || !pm_count_first(t, WRAP_BENCH, WRAP_N, 3, &oc))
		return;
	/* what a USR counter counts: the benchmark, and on hardware the
	 * ring-3 trampoline's CALL and INT (pmu_run.h) */
	n = oc.c[3][SEM_INSTRUCTIONS] + pmu_ring3_edges();
	value(t, "gp_width", "%u (CPUID.0AH:EAX[23:16])", c->gp_width);
	value(t, "fixed_width", "%u (CPUID.0AH:EDX[12:5])", c->fixed_width);
	value(t, "instructions", "%llu", (unsigned long long)n);
	if (!check(t, n > WRAP_K, "%llu instructions", (unsigned long long)n))
		return;
	bits = 1ull | (c->fixed[0] ? PM_GLOBAL_FIXED(0) : 0);
	/* wraps at the WRAP_K-th */
	if (!wrap_run(t, d, c, "wrap", WRAP_K, &r, &st))
		return;
	check(t, r.got[0] == n - WRAP_K, "PMC0 0x%llx, expected %llu: 2^%u "
	      "- %u plus %llu", (unsigned long long)r.got[0],
	      (unsigned long long)(n - WRAP_K), c->gp_width, WRAP_K,
	      (unsigned long long)n);
	if (c->fixed[0])
		check(t, r.got[f0] == n - WRAP_K, "FIXED_CTR0 0x%llx, "
		      "expected %llu", (unsigned long long)r.got[f0],
		      (unsigned long long)(n - WRAP_K));
	if (c->globals)
		check(t, (st & bits) == bits, "wrapped: GLOBAL_STATUS 0x%llx, "
		      "expected bits 0x%llx", (unsigned long long)st,
		      (unsigned long long)bits);
	/* reaches 2^width - 1 at the last instruction (it would wrap at
	 * the next): no overflow */
	if (!wrap_run(t, d, c, "top", n + 1, &r, &st))
		return;
	check(t, r.got[0] == pm_top(c->gp_width), "PMC0 0x%llx, expected "
	      "2^%u - 1", (unsigned long long)r.got[0], c->gp_width);
	if (c->fixed[0])
		check(t, r.got[f0] == pm_top(c->fixed_width), "FIXED_CTR0 "
		      "0x%llx, expected 2^%u - 1", (unsigned long long)r.got[f0],
		      c->fixed_width);
	if (c->globals)
		check(t, !(st & bits), "no counter went past 2^width - 1 but "
		      "GLOBAL_STATUS is 0x%llx", (unsigned long long)st);
}

TEST(perfmon_wrap, "perfmon/ctr-wraps-at-width",
     "GP and fixed counters overflow at the event past 2^width - 1, "
     "not at 2^width - 1", 
     test_wrap, 0);

static void write_read(struct tcase *t, uint32_t msr, uint64_t v,
		       int *vec, uint64_t *back)
{
	*back = ~0ull;
	*vec = be_wrmsr(msr, v);
	if (!*vec)
		check(t, be_rdmsr(PM_MSR_PMC(0), back) == 0, "RDMSR PMC0");
}

static void test_writes(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	struct pmu_err e;
	uint64_t mask, back, sext;
	int vec, fw;

	if (!pm_ready(t, c) ||
	    !check(t, perfmon_driver.init(&e) == 0, "init: %s", e.msg))
		return;
	mask = pm_top(c->gp_width);
	fw = !!(c->perf_caps & PM_PERF_CAP_FW_WRITE);
	value(t, "full_width", "%d", fw);
	/* bit 31 set: bits 32 up to the width follow it */
	sext = (0xffffffff80000005ull) & mask;
	write_read(t, PM_MSR_PMC(0), 0x80000005ull, &vec, &back);
	value(t, "pmc0_0x80000005", "0x%llx", (unsigned long long)back);
	check(t, !vec && back == sext, "PMC0=0x80000005 read 0x%llx (vector "
	      "%d), the sign extension is 0x%llx", (unsigned long long)back,
	      vec, (unsigned long long)sext);
	/* EDX is ignored */
	write_read(t, PM_MSR_PMC(0), 0x100000005ull, &vec, &back);
	value(t, "pmc0_0x100000005", "0x%llx", (unsigned long long)back);
	check(t, !vec && back == 5, "PMC0=0x1_00000005 read 0x%llx (vector "
	      "%d), expected 5", (unsigned long long)back, vec);
	/* full width */
	write_read(t, PM_MSR_A_PMC(0), 0x100000005ull, &vec, &back);
	value(t, "a_pmc0_0x100000005", "vector %d read 0x%llx", vec,
	      (unsigned long long)back);
	if (fw) {
		check(t, !vec && back == 0x100000005ull, "A_PMC0=0x1_00000005"
		      " read 0x%llx (vector %d)", (unsigned long long)back,
		      vec);
		vec = be_wrmsr(PM_MSR_A_PMC(0), mask + 1);
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
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
	struct pmu_run r;
	uint64_t v;
	unsigned f1 = pm_fixed_ctr(1);
	int vec;

	if (!d)
		return;
	/* REP iterations: FIXED_CTR1 (clocks) differs from PMC1 */
	pm_setup(&r, "rdpmc", "rep-movsb", 30, 3);
	pm_add(&r, 1, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 }));
	if (c->fixed[1])
		pm_add(&r, f1, SDM_FIX_USR);
	if (!pmu_run(t, &r))
		return;
	vec = be_rdpmc(1, &v);
	value(t, "rdpmc_1", "%llu (vector %d)", (unsigned long long)v, vec);
	check(t, !vec && v == r.got[1], "RDPMC 1: %llu vector %d, RDMSR PMC1 "
	      "%llu", (unsigned long long)v, vec, (unsigned long long)r.got[1]);
	if (c->fixed[1]) {
		vec = be_rdpmc(PM_RDPMC_FIXED | 1, &v);
		value(t, "rdpmc_fixed1", "%llu (vector %d)",
		      (unsigned long long)v, vec);
		check(t, !vec && v == r.got[f1], "RDPMC 2^30+1: %llu vector "
		      "%d, RDMSR FIXED_CTR1 %llu", (unsigned long long)v, vec,
		      (unsigned long long)r.got[f1]);
	}
	check(t, be_rdpmc(c->gp, &v) == VEC_GP, "RDPMC %u (no such GP "
	      "counter) did not raise #GP", c->gp);
	check(t, be_rdpmc(PM_RDPMC_FIXED | PM_MAX_FIXED, &v) == VEC_GP,
	      "RDPMC 2^30+%u did not raise #GP", PM_MAX_FIXED);
}

TEST(perfmon_rdpmc, "perfmon/rdpmc-index",
     "RDPMC n reads PMCn, 2^30+i reads FIXED_CTRi, others #GP",
     test_rdpmc, 0);

static void rdpmc_user(struct tcase *t, int pce)
{
	struct pm_sdm c;
	const struct pmu_driver *d = pm_ready_for(t, &c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
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
