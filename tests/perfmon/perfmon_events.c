/* tests/perfmon/perfmon_events.c: the architectural events of SDM Vol.
 * 3B Table 18-1 and the fixed counters' events of Table 18-2, with what
 * each counts in the oracle's terms (perfmon_test.h says how they are
 * read), written out from the SDM, not taken from pmu/perfmon/events.c. */
#include "perfmon_test.h"

const struct pm_event pm_events[PM_EV_NR] = {
	[PM_EV_CORE_CYCLES] = { .name = "UnHalted Core Cycles",
		.event = 0x3c, .umask = 0x00, .sem = SEM_BIT(SEM_CLOCKS) },
	[PM_EV_INSTRUCTIONS] = { .name = "Instruction Retired",
		.event = 0xc0, .umask = 0x00,
		.sem = SEM_BIT(SEM_INSTRUCTIONS) },
	[PM_EV_REF_CYCLES] = { .name = "UnHalted Reference Cycles",
		.event = 0x3c, .umask = 0x01,
		.sem = SEM_BIT(SEM_REF_CLOCKS) },
	[PM_EV_LLC_REFERENCES] = { .name = "LLC Reference", .event = 0x2e,
		.umask = 0x4f, .why_not = "the trace has no caches" },
	[PM_EV_LLC_MISSES] = { .name = "LLC Misses", .event = 0x2e,
		.umask = 0x41, .why_not = "the trace has no caches" },
	[PM_EV_BRANCHES] = { .name = "Branch Instruction Retired",
		.event = 0xc4, .umask = 0x00,
		.sem = SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR) },
	[PM_EV_BRANCH_MISSES] = { .name = "Branch Misses Retired",
		.event = 0xc5, .umask = 0x00,
		.why_not = "the trace has no branch predictor" },
	[PM_EV_TOPDOWN_SLOTS] = { .name = "Topdown Slots", .event = 0xa4,
		.umask = 0x01, .why_not = "the trace has no issue slots" },
};

/* Table 18-2 (FIXED_CTR3: §18.2.5): IA32_FIXED_CTR0 INST_RETIRED.ANY,
 * FIXED_CTR1 CPU_CLK_UNHALTED.THREAD (core cycles), FIXED_CTR2
 * CPU_CLK_UNHALTED.REF_TSC (reference cycles), FIXED_CTR3 TOPDOWN.SLOTS:
 * each the architectural event of the same meaning. */
const enum pm_arch_event pm_fixed_counts[PM_MAX_FIXED] = {
	PM_EV_INSTRUCTIONS, PM_EV_CORE_CYCLES, PM_EV_REF_CYCLES,
	PM_EV_TOPDOWN_SLOTS,
};

/* The Intel Core microarchitecture (Core 2) by DisplayFamily_DisplayModel
 * (SDM Vol. 4 Table 2-1: 06_0FH, 06_16H, 06_17H, 06_1DH): its event
 * table names 3CH/01H CPU_CLK_UNHALTED.BUS, the bus cycles the core is
 * not halted (SDM Vol. 3B, the Intel Core microarchitecture's events;
 * Linux's PERF_COUNT_HW_BUS_CYCLES 013CH), which the trace has no clock
 * for; its fixed counter 2 counts reference cycles as everywhere. */
static const struct pm_event core2_bus_cycles = {
	.name = "CPU_CLK_UNHALTED.BUS", .event = 0x3c, .umask = 0x01,
	.why_not = "the trace has no bus clock",
};

static int core2(void)
{
	const struct cpu_sig *s = &cpu_info()->sig;

	return s->family == 6 && (s->model == 0x0f || s->model == 0x16 ||
				  s->model == 0x17 || s->model == 0x1d);
}

const struct pm_event *pm_event_for(unsigned event, unsigned umask)
{
	if (event == 0x3c && umask == 0x01 && core2())
		return &core2_bus_cycles;
	for (unsigned i = 0; i < PM_EV_NR; i++)
		if (pm_events[i].event == event && pm_events[i].umask == umask)
			return &pm_events[i];
	return 0;
}
