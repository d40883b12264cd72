/* pmu/perfmon/regs.c: the version rules of architectural performance
 * monitoring (regs.h): which counters, events and register bits a PMU
 * with given capabilities has, as the SDM states them per version
 * (Vol. 3B §18.2.1-§18.2.5).  Pure logic: host-tested
 * (tests/host/pmu/perfmon/test_caps.c). */
#include "regs.h"

void perfmon_caps_decode(uint32_t eax, uint32_t ebx, uint32_t ecx,
			 uint32_t edx, struct perfmon_caps *c)
{
	const char *source = c->source;

	*c = (struct perfmon_caps){ .source = source };
	c->version = eax & 0xff;
	if (!c->version)
		return;
	c->gp = eax >> 8 & 0xff;
	c->gp_width = eax >> 16 & 0xff;
	c->ebx_len = eax >> 24;
	c->events_unavail = ebx;
	if (c->gp > PERFMON_MAX_GP)
		c->gp = PERFMON_MAX_GP;
	/* EDX is defined from version 2 on (Vol. 2A CPUID 0AH: "if Version
	 * ID > 1"); Linux likewise ignores it on v1. */
	if (c->version < 2)
		return;
	c->fixed = edx & 0x1f;
	c->fixed_width = edx >> 5 & 0xff;
	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++)
		/* v5: "FxCtr[i]_is_supported := ECX[i] || (EDX[4:0] > i)"
		 * (Vol. 3B §18.2.5); before v5 ECX is reserved. */
		if (c->fixed > i || (c->version >= 5 && (ecx >> i & 1)))
			c->fixed_mask |= 1u << i;
	c->any_deprecated = c->version >= 5 &&
			    (edx & CPUID0A_EDX_ANY_DEPRECATED);
}

int perfmon_event_available(const struct perfmon_caps *c,
			    enum perfmon_arch_event ev)
{
	return c->version && (unsigned)ev < c->ebx_len &&
	       !(c->events_unavail >> ev & 1);
}

int perfmon_fixed_exists(const struct perfmon_caps *c, unsigned n)
{
	return n < PERFMON_MAX_FIXED && (c->fixed_mask >> n & 1);
}

int perfmon_any_allowed(const struct perfmon_caps *c)
{
	return c->version >= 3 && !c->any_deprecated;
}

uint64_t perfmon_evtsel_valid(const struct perfmon_caps *c)
{
	uint64_t v = EVTSEL_DEFINED;

	if (!perfmon_any_allowed(c))
		v &= ~EVTSEL_ANY;
	if (perfmon_pebs_baseline(c))
		v |= EVTSEL_ADAPTIVE;
	return v;
}

uint64_t perfmon_fixed_ctrl_valid(const struct perfmon_caps *c)
{
	uint64_t v = 0;
	unsigned field = FIXED_CTRL_OS | FIXED_CTRL_USR | FIXED_CTRL_PMI |
			 (perfmon_any_allowed(c) ? FIXED_CTRL_ANY : 0);

	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++)
		if (perfmon_fixed_exists(c, i))
			v |= (uint64_t)field << (FIXED_CTRL_BITS * i) |
			     (perfmon_pebs_baseline(c) ? 1ull <<
			      (FIXED_CTRL_ADAPTIVE_SHIFT + 4 * i) : 0);
	return v;
}

uint64_t perfmon_global_counters(const struct perfmon_caps *c)
{
	uint64_t v = c->gp >= 64 ? ~0ull : (1ull << c->gp) - 1;

	return v | (uint64_t)c->fixed_mask << GLOBAL_FIXED_SHIFT;
}

uint64_t perfmon_status_bits(const struct perfmon_caps *c)
{
	uint64_t v = perfmon_global_counters(c) | GLOBAL_STATUS_OVF_BUF |
		     GLOBAL_STATUS_COND_CHGD;

	if (c->version >= 4)
		v |= GLOBAL_STATUS_LBR_FRZ | GLOBAL_STATUS_CTR_FRZ;
	return v;
}

int perfmon_uarch_pebs_modelled(enum perfmon_uarch u)
{
	switch (u) {
	case PERFMON_UARCH_BONNELL:
	case PERFMON_UARCH_GOLDMONT:
	case PERFMON_UARCH_KNIGHTS:
		return 0;
	default:
		return 1;
	}
}

int perfmon_caps_pebs(const struct perfmon_caps *c)
{
	return c->version >= 2 && c->has_perf_caps &&
	       perfmon_uarch_pebs_modelled(c->uarch);
}

unsigned perfmon_pebs_format(const struct perfmon_caps *c)
{
	return c->has_perf_caps ?
	       (unsigned)((c->perf_caps & PERF_CAP_PEBS_FMT_MASK) >>
			  PERF_CAP_PEBS_FMT_SHIFT) : 0;
}

int perfmon_pebs_baseline(const struct perfmon_caps *c)
{
	return c->has_perf_caps && c->version >= 2 &&
	       (c->perf_caps & PERF_CAP_PEBS_BASELINE) &&
	       perfmon_pebs_format(c) >= 4;
}

int perfmon_pebs_trap(const struct perfmon_caps *c)
{
	return c->has_perf_caps && (c->perf_caps & PERF_CAP_PEBS_TRAP);
}

int perfmon_full_width(const struct perfmon_caps *c)
{
	return c->has_perf_caps && (c->perf_caps & PERF_CAP_FW_WRITE);
}
