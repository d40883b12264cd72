/* perfmon/pmc-write-running, perfmon/rdpmc-fast: a counter written while
 * it counts, and RDPMC's bit 31 (the NetBurst fast read).
 *   - A WRMSR to IA32_PMCx while the counter is enabled replaces the
 *     count; counting goes on from the value written (SDM Vol. 3B §18.2:
 *     the counter is the IA32_PMCx register itself; §18.2.6: WRMSR to
 *     IA32_PMCx takes EAX sign-extended to the counter width).  A write
 *     near the top overflows at the event past 2^width - 1 like any
 *     count, with its GLOBAL_STATUS bit (v2+, §18.2.2).  kvm-unit-tests
 *     x86/pmu.c checks the same ("running counter wrmsr").
 *   - RDPMC with ECX bit 31 set: the SDM's RDPMC page (Vol. 2B) has the
 *     fast read (the low 32 bits) on the Pentium 4 and Xeon of NetBurst
 *     only; on the architectural PMU any other ECX is #GP(0), so the
 *     model raises #GP (host test_model_regs test_rdpmc).  KVM emulates
 *     a fast read for Intel guests (arch/x86/kvm/pmu.c kvm_pmu_rdpmc():
 *     "fast_mode = idx & (1u << 31)", the count masked to 32 bits), and
 *     kvm-unit-tests x86/pmu.c check_rdpmc() accepts either: #GP (its
 *     "fast-%d" skipped) or the low 32 bits.  So on hardware either
 *     passes, never anything else; on the model #GP is required. */
#include "perfmon_test.h"

#define RUN_BENCH "nops"
#define RUN_N 20
#define WRITE_LOW 1000u		/* a small value: no wrap */
#define WRITE_TOP_K 5u		/* 2^width - 5: wraps at the 5th event */
#define FAST_BIT (1u << 31)	/* RDPMC ECX bit 31 */

static uint64_t to_write;	/* EAX of the WRMSR while PMC0 counts */

/* pmu_run's started hook: PMC0 counts; write it. */
static int write_running(struct tcase *t, struct pmu_run *r)
{
	int vec = be_wrmsr(PM_MSR_PMC(0), to_write);

	(void)r;
	return check(t, vec == 0, "WRMSR IA32_PMC0=0x%llx while it counts: "
		     "vector %d", (unsigned long long)to_write, vec);
}

/* One run of Instructions Retired (C0H/00H, Table 18-1) at CPL 3 on
 * PMC0, preset 0, written eax while it counts. */
static int run_written(struct tcase *t, const char *label, uint64_t eax,
		       struct pmu_run *r)
{
	to_write = eax;
	pm_setup(r, label, RUN_BENCH, RUN_N, 3);
	pm_add(r, 0, sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 }));
	r->started = write_running;
	return pmu_run(t, r);
}

/* got == base + the run's count, within the backend's rule for a CPL 3
 * count of counter 0 of r (pmu_expect_counter: exact on the model and
 * under backend=emulated, where the window's share is the trampoline's,
 * all of it after the write), modulo the width. */
static void check_from(struct tcase *t, const char *what,
		       const struct pmu_run *r, uint64_t base, uint64_t n,
		       uint64_t top)
{
	uint64_t got = r->got[0];
	struct pmu_expect x = pmu_expect_counter(r, 0, n,
						 SEM_BIT(SEM_INSTRUCTIONS),
						 PMU_CPLS_1_3);
	uint64_t lo = (base + x.lo) & top, hi = (base + x.hi) & top;

	value(t, what, "0x%llx, expected 0x%llx + [%llu, %llu]%s%s",
	      (unsigned long long)got, (unsigned long long)base,
	      (unsigned long long)x.lo, (unsigned long long)x.hi,
	      x.tolerance ? ": " : "", x.tolerance ? x.tolerance : "");
	pmu_check_window(t, what, 0, &x);
	check(t, lo <= hi ? got >= lo && got <= hi : got >= lo || got <= hi,
	      "%s: PMC0 0x%llx, expected the written 0x%llx plus the run's "
	      "%llu instructions", what, (unsigned long long)got,
	      (unsigned long long)base, (unsigned long long)n);
}

static void test_write_running(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
	uint64_t top, n, st = 0;
	struct oracle_counts oc;
	struct pmu_run r;

	if (!d || !pm_count_first(t, RUN_BENCH, RUN_N, 3, &oc))
		return;
	top = pm_top(c->gp_width);
	n = oc.c[3][SEM_INSTRUCTIONS];
	value(t, "instructions", "%llu", (unsigned long long)n);
	if (!check(t, n > WRITE_TOP_K, "%llu instructions",
		   (unsigned long long)n))
		return;
	/* counting goes on from the value written */
	if (!run_written(t, "low", WRITE_LOW, &r))
		return;
	check_from(t, "low", &r, WRITE_LOW, n, top);
	/* 0xfffffffb sign-extends to 2^width - 5: the count wraps at the
	 * 5th event and reads n - 5, with GLOBAL_STATUS bit 0 (v2+) */
	if (!run_written(t, "top", 0xffffffffu - WRITE_TOP_K + 1, &r))
		return;
	check_from(t, "top", &r, top - WRITE_TOP_K + 1, n, top);
	if (!c->globals)
		return;
	if (!check(t, be_rdmsr(PM_MSR_GLOBAL_STATUS, &st) == 0,
		   "RDMSR GLOBAL_STATUS"))
		return;
	value(t, "status_after_top", "0x%llx", (unsigned long long)st);
	check(t, st & 1, "PMC0 wrapped from the value written while it "
	      "counted, but GLOBAL_STATUS 0x%llx has no bit 0",
	      (unsigned long long)st);
	(void)be_wrmsr(PM_MSR_GLOBAL_OVF_CTRL, 1);
}

TEST(perfmon_write_running, "perfmon/pmc-write-running",
     "WRMSR to a counting IA32_PMC0: counting goes on from the value "
     "written, and wraps from it", test_write_running, 0);

static void test_rdpmc_fast(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));
	uint64_t full = 0, fast = ~0ull;
	struct pmu_run r;
	int vf, vq;

	if (!d)
		return;
	/* 0x80000000 sign-extends: PMC0 has bits 32 up to the width set,
	 * which a fast read must drop */
	if (!run_written(t, "fast", 0x80000000u, &r))
		return;
	vf = be_rdpmc(0, &full);
	vq = be_rdpmc(FAST_BIT | 0, &fast);
	value(t, "rdpmc_0", "0x%llx (vector %d)", (unsigned long long)full,
	      vf);
	value(t, "rdpmc_fast_0", "0x%llx (vector %d)",
	      (unsigned long long)fast, vq);
	check(t, !vf && full == r.got[0], "RDPMC 0: 0x%llx (vector %d), "
	      "RDMSR PMC0 0x%llx", (unsigned long long)full, vf,
	      (unsigned long long)r.got[0]);
	check(t, full >> 32 != 0, "PMC0 0x%llx: bits 32 and up clear after "
	      "a sign-extended 0x80000000", (unsigned long long)full);
	if (pmu_on_model() || vq) {
		check(t, vq == VEC_GP, "RDPMC 2^31+0 (bit 31, no fast read "
		      "outside NetBurst, SDM Vol. 2B RDPMC): vector %d, "
		      "expected #GP", vq);
		return;
	}
	check(t, fast == (r.got[0] & 0xffffffffu), "RDPMC 2^31+0 (a fast "
	      "read, KVM's): 0x%llx, expected the low 32 bits 0x%llx",
	      (unsigned long long)fast,
	      (unsigned long long)(r.got[0] & 0xffffffffu));
}

TEST(perfmon_rdpmc_fast, "perfmon/rdpmc-fast",
     "RDPMC with ECX bit 31: #GP (SDM), or the low 32 bits (KVM)",
     test_rdpmc_fast, 0);
