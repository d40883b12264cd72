/* pmu/perfmon/events.h: the architectural events (Intel SDM Vol. 3B
 * §18.2.1.2, Table 18-1) and the fixed counters' events (§18.2.2, Table
 * 18-2), with what the single-step trace sees of each (events.c). */
#ifndef PMU_PERFMON_EVENTS_H
#define PMU_PERFMON_EVENTS_H

#include <stdint.h>
#include "regs.h"

/* An architectural event (§18.2.1.2, Table 18-1) and what the trace
 * sees of it: sem, the counts of pmu/sem.h it is the sum of, or 0 with
 * why_not. */
struct perfmon_event {
	uint8_t event, umask;
	enum perfmon_arch_event arch;
	const char *name;
	uint32_t sem;
	const char *why_not;
};
extern const struct perfmon_event perfmon_arch_events[ARCH_EV_NR];
/* The architectural event an event select / unit mask pair names, or
 * NULL (a model-specific event). */
const struct perfmon_event *perfmon_event_for(unsigned event, unsigned umask);
struct perfmon_caps;
/* The same on the CPU c describes (NULL: any): on the Intel Core
 * microarchitecture (Core 2) 3CH/01H is CPU_CLK_UNHALTED.BUS, bus
 * cycles, which the trace does not see, though fixed counter 2 counts
 * reference cycles there (events.c). */
const struct perfmon_event *perfmon_event_of(const struct perfmon_caps *c,
					     unsigned event, unsigned umask);
/* What fixed counter i counts (§18.2.2, Table 18-2): FC0 instructions
 * retired, FC1 core cycles, FC2 reference cycles, FC3 topdown slots, as
 * the architectural event of the same meaning; NULL past 3. */
const struct perfmon_event *perfmon_fixed_event(unsigned i);

#endif
