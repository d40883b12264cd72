/* pmu/perfmon/regs.c: the version rules of architectural performance
 * monitoring (regs.h): which counters, events and register bits a PMU
 * with given capabilities has, as the SDM states them per version
 * (Vol. 3B §18.2.1-§18.2.5).  Pure logic: host-tested
 * (tests/host/pmu/perfmon/test_caps.c). */
#include "regs.h"
#include "pebs/regs.h"

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
