/* pmu/perfmon/pebs/events.h: the precise events the harness samples with
 * PEBS, per microarchitecture (the capability row's, not the record
 * format's: Sandy Bridge shares Nehalem's format 1 but not its precise
 * events), with what the single-step trace sees of each (pebs/events.c
 * cites the tables). */
#ifndef PMU_PERFMON_PEBS_EVENTS_H
#define PMU_PERFMON_PEBS_EVENTS_H

#include <stdint.h>
#include "regs.h"
#include "../regs.h"

struct pebs_event {
	uint8_t event, umask;
	enum perfmon_uarch uarch_lo, uarch_hi;	/* the microarchitectures
						 * it is precise on */
	const char *name;	/* the SDM's name */
	uint32_t sem;		/* pmu/sem.h counts it is the sum of */
	enum pebs_data data;
	int pdir;		/* precise distribution: PMC1 only, the
				 * record at the overflowing instruction */
	const char *cite;
};
/* The precise event with this event select / unit mask on
 * microarchitecture u, or NULL. */
const struct pebs_event *pebs_event_for(enum perfmon_uarch u, unsigned event,
					unsigned umask);
/* The n-th precise event of u (n from 0), or NULL past the last: every
 * event the harness samples on a CPU of that microarchitecture. */
const struct pebs_event *pebs_event_nth(enum perfmon_uarch u, unsigned n);
/* The GP counters (bit n: IA32_PMCn) that may sample pe with PEBS, before
 * the record format's own limit (pebs_capable_counters(), regs.h):
 * PMC1 alone for precise distribution ("PDIR ... must use IA32_PMC1",
 * SDM Vol. 3B §18.9.4.4), every one otherwise.  The driver refuses the
 * others and the `events` listing lists these: one rule. */
uint64_t pebs_event_gp_counters(const struct pebs_event *pe);
/* The counters (GLOBAL_CTRL numbering: bit n IA32_PMCn, bit 32 + i
 * IA32_FIXED_CTRi) on which, on microarchitecture u, the PEBS record of
 * a precise event is for the instruction that caused the overflow, with
 * no wait for the next occurrence, whatever the event: fixed counter 0
 * from Ice Lake on (precise distribution moved there); PMC0 too on
 * Sapphire Rapids ("PDist") and on Tremont (reduced-skid PEBS, "PMC0 and
 * fixed counter 0").  pebs/events.c cites each.  INST_RETIRED.PREC_DIST
 * on PMC1 (Sandy Bridge to Skylake) is the event's own rule: .pdir. */
uint64_t pebs_overflow_record_counters(enum perfmon_uarch u);
/* The microarchitecture whose precise events c has: its row's, or for a
 * CPU the capability table does not know, the first one of its PEBS
 * record format (0 Core, 1 Nehalem, 2 Haswell, 3 Skylake, 4-5 Ice
 * Lake). */
enum perfmon_uarch pebs_events_uarch(const struct perfmon_caps *c);

#endif
