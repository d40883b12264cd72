/* perfmon/version-*: what each version of architectural performance
 * monitoring adds, read from CPUID.0AH the way the SDM says (Vol. 2A
 * CPUID leaf 0AH; Vol. 3B §18.2.1-§18.2.5), checked on the registers
 * and the driver:
 *   v1: no fixed counters, no global registers (#GP), EDX not defined;
 *   v2: fixed counters (EDX[4:0] of them), GLOBAL_CTRL/STATUS/OVF_CTRL;
 *       AnyThread reserved (#GP);
 *   v3: AnyThread in PerfEvtSel bit 21 and FIXED_CTR_CTRL bit 2 + 4i;
 *   v4: GLOBAL_STATUS_SET (0x391), GLOBAL_INUSE (0x392, read-only);
 *   v5: fixed counter i exists when ECX[i] is set or EDX[4:0] > i (a hole
 *       in the bitmap is no counter); EDX[15] deprecates AnyThread
 *       (reserved again); ECX is reserved before v5.
 * The reading of CPUID.0AH is perfmon_cpuid.c's pm_sdm_read(), written
 * from the SDM, not pmu/perfmon/caps.c's.  "perfmon/version-own" checks
 * the PMU this CPU has (its CPUID, or its capability row under the
 * model).  The other cases make the model stand
 * in for a PMU of another version (perfmon_caps_stand_in), so every boot
 * under the model checks every version's rules; on hardware they SKIP. */
#include "perfmon_test.h"

struct version_case {
	const char *what;
	struct pm_cpuid k;
};

static void expect_vec(struct tcase *t, const char *what, int vec, int ok)
{
	check(t, ok ? vec == 0 : vec == VEC_GP, "%s: vector %d, expected %s",
	      what, vec, ok ? "none" : "#GP");
}

static void fixed_rules(struct tcase *t, const struct pm_sdm *s)
{
	struct pmu_config on = { SDM_FIX_USR, 0 };
	struct pmu_err e;
	uint64_t v;

	for (unsigned i = 0; i < PM_MAX_FIXED; i++) {
		int drv;

		expect_vec(t, "RDMSR FIXED_CTRi", be_rdmsr(PM_MSR_FIXED_CTR(i),
							    &v), s->fixed[i]);
		if (s->globals)
			expect_vec(t, "WRMSR GLOBAL_CTRL fixed bit",
				   be_wrmsr(PM_MSR_GLOBAL_CTRL,
					    1ull << (32 + i)), s->fixed[i]);
		drv = perfmon_driver.program(pm_fixed_ctr(i), &on, &e);
		check(t, (drv == 0) == !!s->fixed[i], "fixed counter %u: the "
		      "driver %s it, the SDM says it %s", i, drv ? "refused" :
		      "programmed", s->fixed[i] ? "exists" : "does not exist");
	}
	if (s->globals)
		(void)be_wrmsr(PM_MSR_GLOBAL_CTRL, 0);
}

static void any_rules(struct tcase *t, const struct pm_sdm *s)
{
	struct pmu_config any = { sdm_sel((struct sdm_sel){ .event = 0xc0,
				  .usr = 1, .any = 1 }), 0 };
	struct pmu_err e;

	expect_vec(t, "WRMSR PERFEVTSEL0 with AnyThread",
		   be_wrmsr(PM_MSR_PERFEVTSEL(0), any.sel), s->any);
	(void)be_wrmsr(PM_MSR_PERFEVTSEL(0), 0);
	if (s->fixed[0]) {
		expect_vec(t, "WRMSR FIXED_CTR_CTRL with AnyThread of FC0",
			   be_wrmsr(PM_MSR_FIXED_CTR_CTRL, SDM_FIX_USR |
				    SDM_FIX_ANY), s->any);
		(void)be_wrmsr(PM_MSR_FIXED_CTR_CTRL, 0);
	}
	check(t, (perfmon_driver.program(0, &any, &e) == 0) == !!s->any,
	      "AnyThread: the driver %s it, the SDM says %s",
	      s->any ? "refused" : "accepted", s->any ? "allowed" :
	      "reserved");
}

static void rules(struct tcase *t, const struct version_case *k)
{
	struct pm_sdm s = pm_sdm_read(k->k);
	struct pmu_err e;
	uint64_t v;

	value(t, "cpuid_0a", "eax=0x%08x ebx=0x%x ecx=0x%x edx=0x%x", k->k.eax,
	      k->k.ebx, k->k.ecx, k->k.edx);
	if (!check(t, perfmon_driver.init(&e) == 0, "init: %s", e.msg))
		return;
	expect_vec(t, "RDMSR GLOBAL_CTRL",
		   be_rdmsr(PM_MSR_GLOBAL_CTRL, &v), s.globals);
	expect_vec(t, "RDMSR GLOBAL_STATUS",
		   be_rdmsr(PM_MSR_GLOBAL_STATUS, &v), s.globals);
	expect_vec(t, "RDMSR FIXED_CTR_CTRL",
		   be_rdmsr(PM_MSR_FIXED_CTR_CTRL, &v), s.globals);
	expect_vec(t, "RDMSR GLOBAL_STATUS_SET (0x391)",
		   be_rdmsr(PM_MSR_GLOBAL_STATUS_SET, &v), s.v4);
	expect_vec(t, "RDMSR GLOBAL_INUSE (0x392)",
		   be_rdmsr(PM_MSR_GLOBAL_INUSE, &v), s.v4);
	if (s.v4)
		expect_vec(t, "WRMSR GLOBAL_INUSE (read-only)",
			   be_wrmsr(PM_MSR_GLOBAL_INUSE, 0), 0);
	expect_vec(t, "RDMSR PERFEVTSEL of the last GP counter",
		   be_rdmsr(PM_MSR_PERFEVTSEL(s.gp - 1), &v), 1);
	if (s.gp < PM_MAX_GP)
		expect_vec(t, "RDMSR PERFEVTSEL past the GP counters",
			   be_rdmsr(PM_MSR_PERFEVTSEL(s.gp), &v), 0);
	fixed_rules(t, &s);
	any_rules(t, &s);
}

static void test_own(struct tcase *t)
{
	const struct perfmon_caps *c;
	struct version_case k = { "own" };
	uint64_t pc;

	if (!perfmon_ready(t, &c) ||
	    !check(t, pm_own_cpuid(&k.k, &pc), "caps=%s but CPUID.0AH "
		   "reports no version and no row stands in", c->source))
		return;
	value(t, "caps", "%s", c->source);
	rules(t, &k);
}

TEST(perfmon_version_own, "perfmon/version-own",
     "this PMU's version rules: global MSRs, fixed counters, AnyThread",
     test_own, 0);

static void stand_in(struct tcase *t, const struct version_case *k)
{
	const struct perfmon_caps *c;
	struct perfmon_caps as = { .source = "stand-in" };

	if (!perfmon_ready(t, &c))
		return;
	if (!pmu_on_model()) {
		skip(t, "standing in for another PMU needs the model");
		return;
	}
	/* the model plays a machine with these CPUID.0AH registers (the
	 * product's decoding configures it; the expectations are
	 * pm_sdm_read()'s) */
	perfmon_caps_decode(k->k.eax, k->k.ebx, k->k.ecx, k->k.edx, &as);
	if (!check(t, perfmon_caps_stand_in(&as) == 0, "stand-in refused"))
		return;
	value(t, "stands_in_for", "%s", k->what);
	rules(t, k);
	perfmon_caps_stand_in(0);
}

#define CASE(id, name, ...)                                                  \
	static void test_##id(struct tcase *t)                               \
	{                                                                    \
		static const struct version_case k = { name,                 \
			{ __VA_ARGS__ } };                                   \
		stand_in(t, &k);                                             \
	}                                                                    \
	TEST(perfmon_version_##id, "perfmon/version-" name,                  \
	     "the model standing in for " name ": its version rules",        \
	     test_##id, 0)

CASE(v1, "v1-yonah", .eax = 0x07280201);
CASE(v1edx, "v1-edx-undefined", .eax = 0x07280201, .edx = 0x0603);
CASE(v2, "v2-core2", .eax = 0x07280202, .edx = 0x0503);
CASE(v2ecx, "v2-ecx-reserved", .eax = 0x07280202, .ecx = 0x8,
     .edx = 0x0503);
CASE(v3, "v3-nehalem", .eax = 0x07300403, .edx = 0x0603);
CASE(v4, "v4-skylake", .eax = 0x07300404, .edx = 0x0603);
CASE(v5hole, "v5-bitmap-hole", .eax = 0x08300805, .ecx = 0x9,
     .edx = 0x8601);
CASE(v5edx, "v5-edx-past-bitmap", .eax = 0x08300805, .ecx = 0x1,
     .edx = 0x0603);
