/* perfmon_bts: BTS on the installed DS area (pmu/perfmon/ds/driver.h): the
 * IA32_DEBUGCTL bits of SDM Vol. 3B §17.4.1 and §17.4.9.3-4. */
#include "../ds/driver.h"
#include "../../../arch/x86/msr.h"

#define BTS_FLAGS (DEBUGCTL_BTINT | DEBUGCTL_BTS_OFF_OS | DEBUGCTL_BTS_OFF_USR)
#define BTS_ALL (DEBUGCTL_TR | DEBUGCTL_BTS | BTS_FLAGS)

/* Read-modify-write of IA32_DEBUGCTL: clear, then set. */
static int debugctl_update(uint64_t clear, uint64_t set, struct pmu_err *e)
{
	uint64_t v;

	if (pmu_rdmsr(MSR_IA32_DEBUGCTL, &v, "IA32_DEBUGCTL", e))
		return -1;
	return pmu_wrmsr(MSR_IA32_DEBUGCTL, (v & ~clear) | set,
			 "IA32_DEBUGCTL", e);
}

int perfmon_bts_enable(uint64_t flags, struct pmu_err *e)
{
	const struct perfmon_ds *ds = perfmon_ds_installed();

	if (flags & ~BTS_FLAGS)
		return pmu_fail(e, 0, "BTS flags 0x%llx: only BTINT, "
				"BTS_OFF_OS and BTS_OFF_USR (0x%llx) may be "
				"given", (unsigned long long)flags,
				(unsigned long long)BTS_FLAGS);
	if (!perfmon_bts_available())
		return pmu_fail(e, 0, "BTS unavailable (IA32_MISC_ENABLE bit "
				"11 set, or no IA32_MISC_ENABLE)");
	if (!ds || !ds->use_bts)
		return pmu_fail(e, 0, "no DS area with a BTS buffer installed");
	return debugctl_update(BTS_ALL, DEBUGCTL_TR | DEBUGCTL_BTS | flags, e);
}

int perfmon_bts_disable(struct pmu_err *e)
{
	return debugctl_update(BTS_ALL, 0, e);
}
