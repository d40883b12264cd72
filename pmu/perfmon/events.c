/* pmu/perfmon/events.c: the architectural events (Intel SDM Vol. 3B,
 * order no. 253669-060US, §18.2.1.2 "Pre-defined Architectural
 * Performance Events", Table 18-1; topdown slots: §18.2.5) and the fixed
 * counters' events (§18.2.2, Table 18-2), with what the single-step
 * trace sees of each.
 *
 * Meanings in the trace's counts (pmu/sem.h):
 *   - Instruction Retired (C0H/00H) and fixed counter 0: instructions;
 *     a REP string instruction retires once (SDM: "the counter counts
 *     the retirement of the instruction", not its iterations);
 *   - Branch Instruction Retired (C4H/00H): branch instructions at
 *     retirement, near and far: SEM_BRANCHES + SEM_FAR (far transfers are
 *     branches to this event: BR_INST_RETIRED's far-branch unit mask is
 *     one of its parts, Vol. 3B chapter 19);
 *   - UnHalted Core Cycles (3CH/00H) and fixed counter 1: the model
 *     clock; UnHalted Reference Cycles (3CH/01H) and fixed counter 2: the
 *     model's reference clock, SEM_REF_PER_CLOCK per model cycle
 *     (pmu/sem.h states the ratio);
 *   - LLC references/misses, branch mispredictions and topdown slots are
 *     not in the trace.
 */
#include "events.h"
#include "caps.h"
#include "../sem.h"

#define CACHE "cache behaviour is not in the trace"

const struct perfmon_event perfmon_arch_events[ARCH_EV_NR] = {
	[ARCH_EV_CORE_CYCLES] = { 0x3c, 0x00, ARCH_EV_CORE_CYCLES,
		"UnHalted Core Cycles", SEM_BIT(SEM_CLOCKS), 0 },
	[ARCH_EV_INSTRUCTIONS] = { 0xc0, 0x00, ARCH_EV_INSTRUCTIONS,
		"Instruction Retired", SEM_BIT(SEM_INSTRUCTIONS), 0 },
	[ARCH_EV_REF_CYCLES] = { 0x3c, 0x01, ARCH_EV_REF_CYCLES,
		"UnHalted Reference Cycles", SEM_BIT(SEM_REF_CLOCKS), 0 },
	[ARCH_EV_LLC_REFERENCES] = { 0x2e, 0x4f, ARCH_EV_LLC_REFERENCES,
		"LLC Reference", 0, CACHE },
	[ARCH_EV_LLC_MISSES] = { 0x2e, 0x41, ARCH_EV_LLC_MISSES,
		"LLC Misses", 0, CACHE },
	[ARCH_EV_BRANCHES] = { 0xc4, 0x00, ARCH_EV_BRANCHES,
		"Branch Instruction Retired",
		SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR), 0 },
	[ARCH_EV_BRANCH_MISSES] = { 0xc5, 0x00, ARCH_EV_BRANCH_MISSES,
		"Branch Misses Retired", 0,
		"branch prediction is not in the trace" },
	[ARCH_EV_TOPDOWN_SLOTS] = { 0xa4, 0x01, ARCH_EV_TOPDOWN_SLOTS,
		"Topdown Slots", 0,
		"issue slots are a pipeline quantity the trace lacks" },
};

const struct perfmon_event *perfmon_event_for(unsigned event, unsigned umask)
{
	for (unsigned i = 0; i < ARCH_EV_NR; i++)
		if (perfmon_arch_events[i].event == event &&
		    perfmon_arch_events[i].umask == umask)
			return &perfmon_arch_events[i];
	return 0;
}

/* Core 2's 3CH/01H: the SDM's Intel Core microarchitecture section names
 * it CPU_CLK_UNHALTED.BUS, "the number of bus cycles when the core is not
 * in the halt state", at the bus clock, not the TSC's rate of fixed
 * counter 2's CPU_CLK_UNHALTED.REF (Vol. 3B §18.6 and its event table;
 * Linux intel_perfmon_event_map: PERF_COUNT_HW_BUS_CYCLES = 013CH).  The
 * trace has no bus clock. */
static const struct perfmon_event core2_bus_cycles = {
	0x3c, 0x01, ARCH_EV_REF_CYCLES,
	"CPU_CLK_UNHALTED.BUS (bus cycles on Core 2)", 0,
	"bus cycles: the bus clock is not in the trace"
};

const struct perfmon_event *perfmon_event_of(const struct perfmon_caps *c,
					     unsigned event, unsigned umask)
{
	if (c && c->uarch == PERFMON_UARCH_CORE && event == 0x3c &&
	    umask == 0x01)
		return &core2_bus_cycles;
	return perfmon_event_for(event, umask);
}

const struct perfmon_event *perfmon_fixed_event(unsigned i)
{
	static const enum perfmon_arch_event same[PERFMON_MAX_FIXED] = {
		ARCH_EV_INSTRUCTIONS, ARCH_EV_CORE_CYCLES, ARCH_EV_REF_CYCLES,
		ARCH_EV_TOPDOWN_SLOTS,
	};

	return i < PERFMON_MAX_FIXED ? &perfmon_arch_events[same[i]] : 0;
}
