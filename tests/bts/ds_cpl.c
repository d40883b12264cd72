/* bts/refuse-off-without-ds-cpl: CPL-qualified BTS exists only where
 * CPUID says so.  SDM Vol. 3B (order no. 253669-060US) §17.4.9.4
 * "Setting Up CPL-Qualified BTS": the BTS_OFF_OS (IA32_DEBUGCTL bit 9)
 * and BTS_OFF_USR (bit 10) controls are there when CPUID.01H:ECX.DS-CPL
 * (bit 4) is 1 (Vol. 2A, CPUID leaf 01H, the ECX feature flags: bit 4
 * "DS-CPL", CPL Qualified Debug Store).  Without it the driver refuses
 * either flag, writes nothing and leaves IA32_DEBUGCTL as it was, where
 * the processor would otherwise record at the CPL the caller asked to
 * leave out; BTS with BTINT alone is still accepted.
 *
 * The bit is the CPU's (hardware: its own CPUID, which runs the check
 * only where it is 0) or the capability row's (the model: every row from
 * Core 2 on has it, so a stand-in clears it). */
#include "bts_test.h"

#define K 8u

/* perfmon_bts_enable(flags): refused, IA32_DEBUGCTL untouched. */
static void refused(struct tcase *t, uint64_t flags, const char *key)
{
	uint64_t before = 0, after = 0;
	struct pmu_err e = { "" };
	int rc;

	(void)be_rdmsr(MSR_IA32_DEBUGCTL, &before);
	rc = perfmon_bts_enable(flags, &e);
	(void)be_rdmsr(MSR_IA32_DEBUGCTL, &after);
	value(t, key, "%s", rc ? e.msg : "(accepted)");
	check(t, rc == -1, "flags 0x%llx accepted without DS-CPL",
	      (unsigned long long)flags);
	check(t, after == before, "IA32_DEBUGCTL 0x%llx after the refusal, "
	      "was 0x%llx", (unsigned long long)after,
	      (unsigned long long)before);
}

/* The refusals, on an installed BTS buffer; then BTS with BTINT alone
 * is accepted (not a refusal of everything). */
static void run(struct tcase *t, struct bts_env *v)
{
	struct pmu_err e;

	if (!bts_install(v, K, K - 1))
		return;
	refused(t, SDM_DEBUGCTL_BTS_OFF_OS, "refusal_off_os");
	refused(t, SDM_DEBUGCTL_BTS_OFF_USR, "refusal_off_usr");
	refused(t, SDM_DEBUGCTL_BTINT | SDM_DEBUGCTL_BTS_OFF_OS,
		"refusal_btint_off_os");
	if (check(t, perfmon_bts_enable(SDM_DEBUGCTL_BTINT, &e) == 0,
		  "BTS with BTINT refused: %s", e.msg))
		check(t, perfmon_bts_disable(&e) == 0, "disable: %s", e.msg);
}

static void test_no_ds_cpl(struct tcase *t)
{
	struct perfmon_caps no_cpl;
	struct bts_env v;

	if (!bts_begin(t, &v))
		goto out;
	value(t, "cpuid_ds_cpl", "%d (%s)", v.c->ds_cpl, v.c->source);
	if (!pmu_on_model()) {
		/* the CPU's CPUID, or under backend=emulated the PMU the
		 * model stands in for (its capability row) */
		if ((cpu_info()->f1_ecx & (1u << 4)) || v.c->ds_cpl)
			skip(t, "this CPU has DS-CPL (CPUID.01H:ECX[4], %s); "
			     "clearing it needs the model", v.c->source);
		else
			run(t, &v);
		goto out;
	}
	no_cpl = *v.c;
	no_cpl.ds_cpl = 0;
	no_cpl.source = "model:no-ds-cpl";
	if (check(t, perfmon_caps_stand_in(&no_cpl) == 0, "stand-in"))
		run(t, &v);
	bts_end(&v);
	perfmon_caps_stand_in(0);
	return;
out:
	bts_end(&v);
}

TEST(bts_refuse_no_ds_cpl, "bts/refuse-off-without-ds-cpl",
     "without CPUID.01H:ECX.DS-CPL, BTS_OFF_OS / BTS_OFF_USR are refused",
     test_no_ds_cpl, 0);
