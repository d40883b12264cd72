/* tests/perfmon/perfmon_ready.c: the perfmon driver for a test
 * (perfmon_test.h), with its capabilities and this CPU's CPUID.0AH as
 * the SDM reads it, and the architectural events the test needs
 * available; else a SKIP that names why. */
#include "perfmon_test.h"

const struct pmu_driver *
perfmon_ready(struct tcase *t, const struct perfmon_caps **c)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_ARCH);
	const char *why = 0;

	if (!d)
		return 0;
	/* a test that stood in for another PMU must have gone back */
	if (!check(t, !perfmon_caps_standing_in(), "a previous test left "
		   "the model standing in for another PMU")) {
		perfmon_caps_stand_in(0);
		return 0;
	}
	*c = perfmon_caps(&why);
	if (!*c) {
		skip(t, "no capabilities: %s", why);
		return 0;
	}
	return d;
}

const struct pmu_driver *pm_ready(struct tcase *t, struct pm_sdm *s)
{
	const struct perfmon_caps *c;
	const struct pmu_driver *d = perfmon_ready(t, &c);
	struct pm_cpuid k = { 0, 0, 0, 0 };
	uint64_t pc = 0;

	if (!d)
		return 0;
	if (!check(t, pm_own_cpuid(&k, &pc), "the driver has capabilities "
		   "(%s) but CPUID.0AH reports no version and no row "
		   "stands in", c->source))
		return 0;
	*s = pm_sdm_read(k);
	s->perf_caps = pc;
	if (!check(t, s->version > 0 && s->gp > 0, "CPUID.0AH EAX 0x%08x: "
		   "version %u, %u GP counters", k.eax, s->version, s->gp))
		return 0;
	return d;
}

/* Why ev is unavailable, for a SKIP: names the bit. */
static void pm_skip_unavailable(struct tcase *t, const struct pm_sdm *s,
				enum pm_arch_event ev)
{
	if ((unsigned)ev >= s->ebx_len)
		skip(t, "%s unavailable: CPUID.0AH:EAX[31:24] = %u defines "
		     "no EBX bit %u", pm_events[ev].name, s->ebx_len, ev);
	else
		skip(t, "%s unavailable: CPUID.0AH:EBX[%u] = 1 (EBX 0x%x)",
		     pm_events[ev].name, ev, s->k.ebx);
}

const struct pmu_driver *
pm_ready_for(struct tcase *t, struct pm_sdm *s, unsigned mask)
{
	const struct pmu_driver *d = pm_ready(t, s);

	if (!d)
		return 0;
	for (unsigned ev = 0; ev < PM_EV_NR; ev++)
		if ((mask >> ev & 1) && !pm_event_available(s, ev)) {
			pm_skip_unavailable(t, s, ev);
			return 0;
		}
	return d;
}
