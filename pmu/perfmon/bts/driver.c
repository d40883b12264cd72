/* pmu/perfmon/bts/driver.c: BTS on the installed DS area
 * (pmu/perfmon/ds/driver.h): the IA32_DEBUGCTL bits of SDM Vol. 3B
 * §17.4.1 and §17.4.9.3-4 (driver.h). */
#include "driver.h"
#include "../ds/driver.h"
#include "../ds/regs.h"
#include "../caps.h"

#define BTS_FLAGS (DEBUGCTL_BTINT | DEBUGCTL_BTS_OFF_OS | DEBUGCTL_BTS_OFF_USR)

int perfmon_bts_enable(uint64_t flags, struct pmu_err *e)
{
	const struct perfmon_ds *ds = perfmon_ds_installed();
	const struct perfmon_caps *c;

	if (flags & ~BTS_FLAGS)
		return pmu_fail(e, 0, "BTS flags 0x%llx: only BTINT, "
				"BTS_OFF_OS and BTS_OFF_USR (0x%llx) may be "
				"given", (unsigned long long)flags,
				(unsigned long long)BTS_FLAGS);
	if (!perfmon_bts_available())
		return pmu_fail(e, 0, "BTS unavailable (IA32_MISC_ENABLE bit "
				"11 set, or no IA32_MISC_ENABLE)");
	/* BTS_OFF_OS/USR need CPL-qualified BTS: CPUID.01H:ECX.DS-CPL[4]
	 * (SDM Vol. 3B §17.4.9.4): refused rather than ignored without it */
	if ((flags & (DEBUGCTL_BTS_OFF_OS | DEBUGCTL_BTS_OFF_USR)) &&
	    !((c = perfmon_caps(0)) && c->ds_cpl))
		return pmu_fail(e, 0, "BTS flags 0x%llx: BTS_OFF_OS/BTS_OFF_USR "
				"need CPL-qualified BTS, and CPUID.01H:ECX."
				"DS-CPL (bit 4) is clear (SDM Vol. 3B "
				"17.4.9.4)", (unsigned long long)flags);
	if (!ds || !ds->use_bts)
		return pmu_fail(e, 0, "no DS area with a BTS buffer installed");
	return perfmon_ds_debugctl(DEBUGCTL_BTS_ALL,
				   DEBUGCTL_TR | DEBUGCTL_BTS | flags, e);
}

int perfmon_bts_disable(struct pmu_err *e)
{
	return perfmon_ds_debugctl(DEBUGCTL_BTS_ALL, 0, e);
}
