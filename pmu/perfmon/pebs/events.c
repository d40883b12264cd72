/* pmu/perfmon/pebs/events.c: the precise events the harness samples
 * with PEBS (events.h), per record format (= per generation), with what
 * the single-step trace sees of each (pmu/sem.h) and whether the record
 * carries a data address.
 *
 * Sources, per generation (Intel SDM Vol. 3B, order no. 253669-060US,
 * chapter 18, and later editions for Ice Lake; the Linux files are
 * tools/perf/pmu-events/arch/x86/<cpu>/ JSON, whose "PEBS" field marks a
 * precise event, and arch/x86/events/intel/ds.c):
 *   - format 0, Core 2: Table 18-10 "PEBS Performance Events for Intel
 *     Core Microarchitecture"; PEBS on PMC0 only (Linux
 *     intel_core2_pebs_event_constraints: 00C0H on counter mask 0x1);
 *   - format 1, Nehalem/Westmere: the precise-events table of the Core i7
 *     PEBS section (the section of Table 18-23, §18.8.1.1); nehalemep
 *     JSON ("PEBS": "1").  Format 1 also covers Sandy Bridge and Ivy
 *     Bridge, whose memory events are D0H MEM_UOPS_RETIRED.* instead of
 *     0BH: not listed here;
 *   - format 2, Haswell/Broadwell: the precise-events table of the
 *     Haswell PEBS section (the section of Table 18-44); haswell JSON
 *     ("PEBS": "2"), intel_hsw_pebs_event_constraints (PREC_DIST 01C0H
 *     on PMC1 only, 81D0H/82D0H with data addresses);
 *   - format 3, Skylake: the precise-events table of the Skylake PEBS
 *     section (the section of Table 18-55); skylake JSON
 *     (pipeline.json, memory.json), intel_skl_pebs_event_constraints;
 *   - formats 4-5, Ice Lake on: the adaptive-PEBS section (PEBS on every
 *     counter with PEBS_BASELINE); icelake pipeline.json, memory.json.
 *
 * Meanings in the trace's counts:
 *   - instructions retired (C0H): SEM_INSTRUCTIONS;
 *   - all branches retired (C4H/00H, and the precise C4H/04H variants):
 *     SEM_BRANCHES + SEM_FAR, the same sum as the architectural C4H/00H
 *     event of pmu/perfmon/events.c (far transfers are branches to
 *     BR_INST_RETIRED, whose FAR_BRANCH unit mask is one of its parts);
 *   - loads / stores retired: SEM_LOADS / SEM_STORES.
 * Data addresses: format 1 writes the data linear address only for load
 * latency (and precise-store) sampling, so its loads/stores rows have
 * none; formats 2 on write it for the memory events marked Data_LA.
 *
 * All branches is not C4H/00H before format 4: Nehalem's precise
 * BR_INST_RETIRED.ALL_BRANCHES is C4H/04H (nehalemep pipeline.json), and
 * Skylake's C4H/00H has no PEBS field in skylake/pipeline.json: its
 * precise all-branches event is BR_INST_RETIRED.ALL_BRANCHES_PEBS,
 * C4H/04H ("PEBS": "2"), as on Haswell.
 */
#include "events.h"
#include "../../sem.h"

#define INSTRUCTIONS SEM_BIT(SEM_INSTRUCTIONS)
#define BRANCHES (SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR))
#define LOADS SEM_BIT(SEM_LOADS)
#define STORES SEM_BIT(SEM_STORES)

static const struct pebs_event pebs_events[] = {
	/* format 0: Core 2 */
	{ .event = 0xc0, .umask = 0x00, .fmt_lo = 0, .fmt_hi = 0,
	  .name = "INST_RETIRED.ANY_P", .sem = INSTRUCTIONS,
	  .data = PEBS_DATA_NONE, .cite = "SDM Table 18-10; PMC0 only" },
	/* format 1: Nehalem/Westmere */
	{ .event = 0xc0, .umask = 0x01, .fmt_lo = 1, .fmt_hi = 1,
	  .name = "INST_RETIRED.ANY_P", .sem = INSTRUCTIONS,
	  .data = PEBS_DATA_NONE, .cite = "SDM Core i7 PEBS events; NHM json" },
	{ .event = 0xc4, .umask = 0x04, .fmt_lo = 1, .fmt_hi = 1,
	  .name = "BR_INST_RETIRED.ALL_BRANCHES", .sem = BRANCHES,
	  .data = PEBS_DATA_NONE, .cite = "SDM Core i7 PEBS events; NHM json" },
	{ .event = 0x0b, .umask = 0x01, .fmt_lo = 1, .fmt_hi = 1,
	  .name = "MEM_INST_RETIRED.LOADS", .sem = LOADS,
	  .data = PEBS_DATA_NONE,
	  .cite = "SDM Core i7 PEBS events; no DLA" },
	{ .event = 0x0b, .umask = 0x02, .fmt_lo = 1, .fmt_hi = 1,
	  .name = "MEM_INST_RETIRED.STORES", .sem = STORES,
	  .data = PEBS_DATA_NONE, .cite = "SDM Core i7 PEBS events; NHM json" },
	/* formats 2-3: Haswell to Skylake */
	{ .event = 0xc0, .umask = 0x01, .fmt_lo = 2, .fmt_hi = 3,
	  .name = "INST_RETIRED.PREC_DIST", .sem = INSTRUCTIONS,
	  .data = PEBS_DATA_NONE, .cite = "SDM HSW/SKL PEBS; PMC1 only" },
	{ .event = 0xc4, .umask = 0x04, .fmt_lo = 2, .fmt_hi = 3,
	  .name = "BR_INST_RETIRED.ALL_BRANCHES_PEBS", .sem = BRANCHES,
	  .data = PEBS_DATA_NONE, .cite = "SDM HSW/SKL PEBS; json PEBS 2" },
	{ .event = 0xd0, .umask = 0x81, .fmt_lo = 2, .fmt_hi = 2,
	  .name = "MEM_UOPS_RETIRED.ALL_LOADS", .sem = LOADS,
	  .data = PEBS_DATA_LOAD, .cite = "SDM HSW PEBS events; Data_LA" },
	{ .event = 0xd0, .umask = 0x82, .fmt_lo = 2, .fmt_hi = 2,
	  .name = "MEM_UOPS_RETIRED.ALL_STORES", .sem = STORES,
	  .data = PEBS_DATA_STORE, .cite = "SDM HSW PEBS events; Data_LA" },
	/* format 3 on: Skylake, Ice Lake and later */
	{ .event = 0xd0, .umask = 0x81, .fmt_lo = 3, .fmt_hi = 5,
	  .name = "MEM_INST_RETIRED.ALL_LOADS", .sem = LOADS,
	  .data = PEBS_DATA_LOAD, .cite = "SDM SKL PEBS events; Data_LA" },
	{ .event = 0xd0, .umask = 0x82, .fmt_lo = 3, .fmt_hi = 5,
	  .name = "MEM_INST_RETIRED.ALL_STORES", .sem = STORES,
	  .data = PEBS_DATA_STORE, .cite = "SDM SKL PEBS events; Data_LA" },
	/* formats 4-5: Ice Lake on (adaptive PEBS) */
	{ .event = 0xc0, .umask = 0x00, .fmt_lo = 4, .fmt_hi = 5,
	  .name = "INST_RETIRED.ANY_P", .sem = INSTRUCTIONS,
	  .data = PEBS_DATA_NONE, .cite = "SDM adaptive PEBS; ICL json" },
	{ .event = 0xc4, .umask = 0x00, .fmt_lo = 4, .fmt_hi = 5,
	  .name = "BR_INST_RETIRED.ALL_BRANCHES", .sem = BRANCHES,
	  .data = PEBS_DATA_NONE, .cite = "SDM adaptive PEBS; ICL json" },
};

static const unsigned pebs_events_len =
	sizeof(pebs_events) / sizeof(pebs_events[0]);

const struct pebs_event *pebs_event_for(unsigned fmt, unsigned event,
					unsigned umask)
{
	for (unsigned i = 0; i < pebs_events_len; i++) {
		const struct pebs_event *e = &pebs_events[i];

		if (e->event == event && e->umask == umask &&
		    fmt >= e->fmt_lo && fmt <= e->fmt_hi)
			return e;
	}
	return 0;
}

const struct pebs_event *pebs_event_nth(unsigned fmt, unsigned n)
{
	for (unsigned i = 0; i < pebs_events_len; i++) {
		const struct pebs_event *e = &pebs_events[i];

		if (fmt >= e->fmt_lo && fmt <= e->fmt_hi && !n--)
			return e;
	}
	return 0;
}
