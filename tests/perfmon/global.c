/* perfmon/global-*: the global control registers of version 2 and later
 * (SDM Vol. 3B §18.2.2, Figures 18-3 and 18-4; v4: §18.2.4, Figures 18-7
 * to 18-10), their addresses and bits as perfmon_test.h writes them out
 * (Vol. 4 Table 2-2), the version from CPUID.0AH:EAX[7:0]:
 *   - IA32_PERF_GLOBAL_CTRL gates each counter on top of its own enable;
 *   - a counter that wraps sets its IA32_PERF_GLOBAL_STATUS bit (bit n,
 *     fixed counter i: 32 + i) at the event that carries it from
 *     2^width - 1 to 0, not before: one that ends at 2^width - 1 leaves
 *     it clear; GLOBAL_STATUS is read-only; writing 1s to
 *     IA32_PERF_GLOBAL_OVF_CTRL (v4: GLOBAL_STATUS_RESET) clears them;
 *   - v4: GLOBAL_STATUS_SET sets status bits (not CondChgd, bit 63);
 *     GLOBAL_INUSE shows which PERFEVTSELs select an event (bit n), which
 *     fixed counters are enabled (32 + i) and whether any PMI is (63).
 * Version 1 has none of these (perfmon/version-* checks their #GP). */
#include "perfmon_test.h"

/* Instruction Retired, C0H/00H (Table 18-1), at CPL > 0 */
#define INSTR_USR sdm_sel((struct sdm_sel){ .event = 0xc0, .usr = 1 })

/* The driver on a PMU of version >= version (CPUID.0AH:EAX[7:0]) with
 * Instruction Retired available (EBX bit 1), or SKIP. */
static const struct pmu_driver *v2_ready(struct tcase *t, struct pm_sdm *c,
					 unsigned version)
{
	const struct pmu_driver *d = pm_ready_for(t, c,
						  PM_NEED(PM_EV_INSTRUCTIONS));

	if (d && c->version < version) {
		skip(t, "needs architectural perfmon v%u, CPUID.0AH:EAX[7:0] "
		     "= %u (perfmon/version-* checks what it lacks)", version,
		     c->version);
		return 0;
	}
	return d;
}

static int rd(struct tcase *t, uint32_t msr, uint64_t *v)
{
	int vec = be_rdmsr(msr, v);

	return check(t, vec == 0, "RDMSR 0x%x raised vector %d", msr, vec);
}

/* GLOBAL_CTRL with only PMC0's bit: PMC1 and FIXED_CTR0, enabled on
 * their own, count nothing; with all bits, all count. */
static void test_gates(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = v2_ready(t, c, 2);
	unsigned f0 = pm_fixed_ctr(0);
	struct oracle_counts oc;
	struct pmu_err e;
	uint64_t v[3], all = 3ull | 1ull << 32, want;

	if (!d || !check(t, d->init(&e) == 0, "init: %s", e.msg) ||
	    !pmu_oracle_first(t, "counted-loop", 25, &oc))
		return;
	for (unsigned k = 0; k < 2; k++)
		if (!check(t, d->program(k, &(struct pmu_config){ INSTR_USR, 0 },
					 &e) == 0 && d->start(k, &e) == 0,
			   "PMC%u: %s", k, e.msg))
			return;
	if (!check(t, d->program(f0, &(struct pmu_config){ SDM_FIX_USR, 0 },
				 &e) == 0 && d->start(f0, &e) == 0, "FC0: %s",
		   e.msg) ||
	    !check(t, be_wrmsr(PM_MSR_GLOBAL_CTRL, 1) == 0,
		   "WRMSR GLOBAL_CTRL=1") ||
	    !pmu_exec(t, "counted-loop", 25, &oc))
		return;
	/* a USR count: on hardware with the trampoline's (pmu_run.h) */
	want = oc.c[3][SEM_INSTRUCTIONS] + pmu_ring3_edges();
	if (!rd(t, PM_MSR_PMC(0), &v[0]) || !rd(t, PM_MSR_PMC(1), &v[1]) ||
	    !rd(t, PM_MSR_FIXED_CTR(0), &v[2]))
		return;
	value(t, "gated", "PMC0 %llu PMC1 %llu FC0 %llu, oracle %llu",
	      (unsigned long long)v[0], (unsigned long long)v[1],
	      (unsigned long long)v[2], (unsigned long long)want);
	check(t, pmu_on_model() ? v[0] == want : v[0] >= want, "PMC0 (bit "
	      "set) counted %llu, oracle %llu", (unsigned long long)v[0],
	      (unsigned long long)want);
	check(t, v[1] == 0 && v[2] == 0, "PMC1 %llu, FC0 %llu with their "
	      "GLOBAL_CTRL bits clear", (unsigned long long)v[1],
	      (unsigned long long)v[2]);
	if (!check(t, be_wrmsr(PM_MSR_GLOBAL_CTRL, all) == 0,
		   "WRMSR GLOBAL_CTRL=0x%llx", (unsigned long long)all) ||
	    !pmu_exec(t, "counted-loop", 25, &oc) ||
	    !rd(t, PM_MSR_PMC(1), &v[1]) || !rd(t, PM_MSR_FIXED_CTR(0), &v[2]))
		return;
	(void)be_wrmsr(PM_MSR_GLOBAL_CTRL, 0);
	value(t, "enabled", "PMC1 %llu FC0 %llu", (unsigned long long)v[1],
	      (unsigned long long)v[2]);
	check(t, v[1] == want && v[2] == want, "with their bits: PMC1 %llu "
	      "FC0 %llu, oracle %llu", (unsigned long long)v[1],
	      (unsigned long long)v[2], (unsigned long long)want);
}

TEST(perfmon_gates, "perfmon/global-ctrl-gates",
     "a counter counts only with its IA32_PERF_GLOBAL_CTRL bit set",
     test_gates, 0);

/*
 * The event at which a counter overflows.  Over a run of n instructions
 * (the oracle's count, traced first): PMC0 and FIXED_CTR0 preset to
 * 2^width - K wrap at the K-th and read n - K; PMC1 preset to
 * 2^width - 1 - n reaches 2^width - 1 at the last one and does not wrap.  So
 * GLOBAL_STATUS has bits 0 and 32 and not bit 1: a counter that
 * overflowed one event early would set bit 1 too.  Then OVF_CTRL clears
 * one bit at a time; GLOBAL_STATUS itself is read-only, OVF_CTRL's
 * reserved bits #GP; and a second run takes FIXED_CTR0 to 2^width - 1
 * exactly: bit 32 stays clear.
 */
#define K 3
#define ST_BENCH "counted-loop"
#define ST_N 10

static int wrap_run(struct tcase *t, const struct pmu_driver *d,
		    const struct pm_sdm *c, uint64_t n, uint64_t *status)
{
	unsigned f0 = pm_fixed_ctr(0);
	uint64_t gp_top = pm_top(c->gp_width), fx_top = pm_top(c->fixed_width);
	struct pmu_run r;

	pm_setup(&r, "wrap", ST_BENCH, ST_N, 3);
	pm_add(&r, 0, INSTR_USR);
	pm_add(&r, 1, INSTR_USR);
	pm_add(&r, f0, SDM_FIX_USR);
	r.preset[0] = gp_top - K + 1;
	r.preset[1] = gp_top - n;
	r.preset[f0] = fx_top - K + 1;
	if (!pmu_run(t, &r) || !rd(t, PM_MSR_GLOBAL_STATUS, status))
		return 0;
	value(t, "instructions", "%llu (the oracle's, traced first)",
	      (unsigned long long)n);
	for (unsigned k = 0; k < 2; k++)
		pm_check(t, d, &r, k);
	pm_check(t, d, &r, f0);
	check(t, r.got[0] == n - K && r.got[f0] == n - K, "PMC0 %llu, "
	      "FIXED_CTR0 %llu: preset 2^width - %u, %llu instructions: "
	      "expected %llu", (unsigned long long)r.got[0],
	      (unsigned long long)r.got[f0], K, (unsigned long long)n,
	      (unsigned long long)(n - K));
	check(t, r.got[1] == gp_top, "PMC1 %llu, expected 2^%u - 1 (no "
	      "wrap)", (unsigned long long)r.got[1], c->gp_width);
	return 1;
}

static void test_status(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = v2_ready(t, c, 2);
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, fc0 = PM_GLOBAL_FIXED(0);
	unsigned f0 = pm_fixed_ctr(0);
	struct oracle_counts oc;
	struct pmu_run r;
	uint64_t n;

	if (!d || !pm_count_first(t, ST_BENCH, ST_N, 3, &oc))
		return;
	/* a USR count: on hardware with the trampoline's (pmu_run.h) */
	n = oc.c[3][SEM_INSTRUCTIONS] + pmu_ring3_edges();
	if (!check(t, c->fixed[0], "v%u without FIXED_CTR0 (EDX[4:0] %u)",
		   c->version, c->n_fixed) ||
	    !check(t, n > K, "%llu instructions, need more than %u",
		   (unsigned long long)n, K) ||
	    !wrap_run(t, d, c, n, &s0))
		return;
	value(t, "status", "0x%llx", (unsigned long long)s0);
	check(t, (s0 & (7ull | fc0)) == (1ull | fc0), "GLOBAL_STATUS 0x%llx:"
	      " expected bits 0 and 32 set (wrapped), 1 clear (reached "
	      "2^width - 1, no wrap), 2 clear", (unsigned long long)s0);
	check(t, be_wrmsr(PM_MSR_GLOBAL_STATUS, 0) == VEC_GP,
	      "WRMSR GLOBAL_STATUS did not raise #GP");
	if (!check(t, be_wrmsr(PM_MSR_GLOBAL_OVF_CTRL, 1) == 0,
		   "WRMSR OVF_CTRL=1") ||
	    !rd(t, PM_MSR_GLOBAL_STATUS, &s1) ||
	    !check(t, be_wrmsr(PM_MSR_GLOBAL_OVF_CTRL, fc0) == 0,
		   "WRMSR OVF_CTRL=2^32") ||
	    !rd(t, PM_MSR_GLOBAL_STATUS, &s2))
		return;
	value(t, "after_clearing_bit0", "0x%llx", (unsigned long long)s1);
	value(t, "after_clearing_bit32", "0x%llx", (unsigned long long)s2);
	check(t, !(s1 & 1) && (s1 & fc0), "after clearing bit 0: 0x%llx",
	      (unsigned long long)s1);
	check(t, !(s2 & fc0), "after clearing bit 32: 0x%llx",
	      (unsigned long long)s2);
	check(t, be_wrmsr(PM_MSR_GLOBAL_OVF_CTRL, 1ull << 40) ==
	      VEC_GP, "OVF_CTRL bit 40 (reserved) did not raise #GP");
	/* bit 61 "Set 1 to Clear Ovf_Uncore" from Nehalem's v3 (SDM Vol. 4
	 * Table 2-2, IA32_PERF_GLOBAL_OVF_CTRL: introduced at 06_2EH) */
	if (c->version >= 3)
		check(t, be_wrmsr(PM_MSR_GLOBAL_OVF_CTRL, 1ull << 61) == 0,
		      "OVF_CTRL bit 61 (Ovf_Uncore, v3+) raised #GP");
	/* FIXED_CTR0 to 2^width - 1 and no further */
	pm_setup(&r, "top", ST_BENCH, ST_N, 3);
	pm_add(&r, f0, SDM_FIX_USR);
	r.preset[f0] = pm_top(c->fixed_width) - n;
	if (!pmu_run(t, &r) || !rd(t, PM_MSR_GLOBAL_STATUS, &s3))
		return;
	value(t, "status_at_top", "0x%llx", (unsigned long long)s3);
	pm_check(t, d, &r, f0);
	check(t, !(s3 & fc0), "FIXED_CTR0 reached 2^%u - 1 without wrapping "
	      "(reads 0x%llx) but set GLOBAL_STATUS bit 32: 0x%llx",
	      c->fixed_width, (unsigned long long)r.got[f0],
	      (unsigned long long)s3);
}

TEST(perfmon_status, "perfmon/global-status-overflow",
     "a wrapping counter sets its GLOBAL_STATUS bit; OVF_CTRL clears it",
     test_status, 0);

/* v4: STATUS_SET "Set 1 to cause ASCI = 1" (bit 60) and "Ovf_Uncore = 1"
 * (bit 61), STATUS_RESET "Set 1 to Clear" them (SDM Vol. 4 Table 2-2,
 * IA32_PERF_GLOBAL_STATUS_SET / _RESET); bits 57:56 are reserved in
 * both. */
static void set_reset_uncore_asci(struct tcase *t)
{
	const uint64_t bits = 1ull << 60 | 1ull << 61;
	uint64_t s = 0, after = ~0ull;

	if (!check(t, be_wrmsr(PM_MSR_GLOBAL_STATUS_SET, bits) == 0,
		   "WRMSR STATUS_SET=0x%llx (ASCI, Ovf_Uncore) raised #GP",
		   (unsigned long long)bits) ||
	    !rd(t, PM_MSR_GLOBAL_STATUS, &s) ||
	    !check(t, be_wrmsr(PM_MSR_GLOBAL_STATUS_RESET, bits) == 0,
		   "WRMSR STATUS_RESET=0x%llx (ASCI, Ovf_Uncore) raised #GP",
		   (unsigned long long)bits) ||
	    !rd(t, PM_MSR_GLOBAL_STATUS, &after))
		return;
	value(t, "after_set_asci_uncore", "0x%llx", (unsigned long long)s);
	check(t, (s & bits) == bits, "STATUS_SET 0x%llx: status 0x%llx",
	      (unsigned long long)bits, (unsigned long long)s);
	check(t, !(after & bits), "STATUS_RESET of ASCI, Ovf_Uncore left "
	      "0x%llx", (unsigned long long)after);
	check(t, be_wrmsr(PM_MSR_GLOBAL_STATUS_SET, 1ull << 56) == VEC_GP &&
	      be_wrmsr(PM_MSR_GLOBAL_STATUS_RESET, 1ull << 57) == VEC_GP,
	      "STATUS_SET bit 56 or STATUS_RESET bit 57 (reserved) did not "
	      "raise #GP");
}

static void test_set_reset(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = v2_ready(t, c, 4);
	uint64_t bits = 2ull | 1ull << 62 | 1ull << 59, s = 0, after = 0;
	struct pmu_err e;

	if (!d || !check(t, d->init(&e) == 0, "init: %s", e.msg))
		return;
	if (!check(t, be_wrmsr(PM_MSR_GLOBAL_STATUS_SET, bits) == 0,
		   "WRMSR STATUS_SET=0x%llx", (unsigned long long)bits) ||
	    !rd(t, PM_MSR_GLOBAL_STATUS, &s))
		return;
	value(t, "after_set", "0x%llx", (unsigned long long)s);
	check(t, (s & bits) == bits, "STATUS_SET 0x%llx: status 0x%llx",
	      (unsigned long long)bits, (unsigned long long)s);
	check(t, be_wrmsr(PM_MSR_GLOBAL_STATUS_SET, 1ull << 63) ==
	      VEC_GP, "STATUS_SET of CondChgd (bit 63) did not raise #GP");
	if (!check(t, be_wrmsr(PM_MSR_GLOBAL_STATUS_RESET, bits) == 0,
		   "WRMSR STATUS_RESET") ||
	    !rd(t, PM_MSR_GLOBAL_STATUS, &after))
		return;
	value(t, "after_reset", "0x%llx", (unsigned long long)after);
	check(t, !(after & bits), "STATUS_RESET left 0x%llx",
	      (unsigned long long)after);
	set_reset_uncore_asci(t);
}

TEST(perfmon_set_reset, "perfmon/global-status-set-reset",
     "v4: GLOBAL_STATUS_SET sets status bits, STATUS_RESET clears them",
     test_set_reset, 0);

static void test_inuse(struct tcase *t)
{
	struct pm_sdm sdm, *c = &sdm;
	const struct pmu_driver *d = v2_ready(t, c, 4);
	uint64_t before = 1, after = 0, want;
	unsigned f2 = pm_fixed_ctr(2);
	struct pmu_err e;

	if (!d || !check(t, d->init(&e) == 0, "init: %s", e.msg) ||
	    !rd(t, PM_MSR_GLOBAL_INUSE, &before))
		return;
	want = 2ull | (c->fixed[2] ? 1ull << 34 : 0) |
	       1ull << 63;
	if (!check(t, d->program(1, &(struct pmu_config){ INSTR_USR |
				 1ull << 20, 0 }, &e) == 0, "PMC1: %s", e.msg))
		return;
	if (c->fixed[2] &&
	    !check(t, d->program(f2, &(struct pmu_config){ SDM_FIX_USR, 0 },
				 &e) == 0 && d->start(f2, &e) == 0, "FC2: %s",
		   e.msg))
		return;
	if (!rd(t, PM_MSR_GLOBAL_INUSE, &after))
		return;
	(void)d->init(&e);
	value(t, "inuse_after_init", "0x%llx", (unsigned long long)before);
	value(t, "inuse", "0x%llx", (unsigned long long)after);
	check(t, before == 0, "INUSE after init 0x%llx, expected 0",
	      (unsigned long long)before);
	check(t, after == want, "INUSE 0x%llx, expected 0x%llx (PMC1, FC2, "
	      "PMI)", (unsigned long long)after, (unsigned long long)want);
	check(t, be_wrmsr(PM_MSR_GLOBAL_INUSE, 0) == VEC_GP,
	      "WRMSR GLOBAL_INUSE did not raise #GP");
}

TEST(perfmon_inuse, "perfmon/global-inuse",
     "v4: GLOBAL_INUSE shows selected events, enabled fixed counters, PMI",
     test_inuse, 0);
