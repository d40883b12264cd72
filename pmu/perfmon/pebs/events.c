/* pmu/perfmon/pebs/events.c: the precise events the harness samples
 * with PEBS (events.h), per microarchitecture (the capability row's,
 * pmu/perfmon/caps_table.c; not the record format), with what
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
 *     JSON ("PEBS": "1");
 *   - format 1, Sandy Bridge/Ivy Bridge: their own table (§18.9.4.2, the
 *     Sandy Bridge PEBS performance events): C0H/01H is
 *     INST_RETIRED.PREC_DIST (§18.9.4.4, PMC1 only; Linux
 *     intel_snb_pebs_event_constraints 01C0H on counter mask 0x2), the
 *     memory events are D0H MEM_UOPS_RETIRED.*, and Nehalem's 0BH
 *     MEM_INST_RETIRED.* are not precise there (not in that table);
 *     the data address at 98H is written for load-latency and precise-
 *     store sampling only (§18.9.4.1), so the D0H rows have none;
 *   - format 2, Haswell/Broadwell: the precise-events table of the
 *     Haswell PEBS section (the section of Table 18-44); haswell JSON
 *     ("PEBS": "2"), intel_hsw_pebs_event_constraints (PREC_DIST 01C0H
 *     on PMC1 only, 81D0H/82D0H with data addresses);
 *   - format 3, Skylake: the precise-events table of the Skylake PEBS
 *     section (the section of Table 18-55); skylake JSON
 *     (pipeline.json, memory.json), intel_skl_pebs_event_constraints;
 *   - formats 4-5, Ice Lake on: the adaptive-PEBS section (PEBS on every
 *     counter with PEBS_BASELINE); icelake pipeline.json, memory.json;
 *   - format 4, Tremont (an Atom core: its own rows, after the big
 *     cores): the Tremont section of the performance monitoring chapter
 *     (editions from 2019 on: adaptive PEBS with PEBS_BASELINE, PEBS on
 *     every GP and fixed counter), whose precise events are Goldmont's:
 *     SDM Vol. 3, order no. 325384-059US, Table 18-19 "Precise Events
 *     Supported by the Goldmont Microarchitecture": INST_RETIRED.ANY
 *     C0H/00H, BR_INST_RETIRED.ALL_BRANCHES C4H/00H, MEM_UOPS_RETIRED
 *     D0H ALL_LOADS 81H / ALL_STORES 82H; Linux snowridgex
 *     pipeline.json and cache.json keep the same four with "PEBS": "1",
 *     the memory ones with "Data_LA": "1" (its record carries the data
 *     linear address: the adaptive memory-info group).
 *
 * Precise distribution (PDIR; .pdir): INST_RETIRED.PREC_DIST, Sandy
 * Bridge to Skylake.  SDM Vol. 3B §18.9.4.4 "Precise Distribution of
 * Instructions Retired (PDIR)": PEBS for it must use IA32_PMC1 (the
 * driver refuses it on another counter, pmu/perfmon/ds/driver.c), and it
 * traps on the instruction that actually caused the counter overflow,
 * not at the next event (the model, pmu/perfmon/model.c); the Haswell
 * and Skylake PEBS sections keep it (Linux
 * intel_{snb,ivb,hsw,bdw,skl}_pebs_event_constraints: 01C0H on counter
 * mask 0x2).
 *
 * Records at the overflow on fixed counter 0 and PMC0
 * (pebs_overflow_record_counters()):
 *   - Ice Lake on: PEBS on IA32_FIXED_CTR0 is precise distribution, its
 *     record for the instruction that made the counter overflow (the
 *     SDM's Ice Lake PEBS text; Linux icl_pebs_event_constraints() and
 *     spr_pebs_event_constraints(): INST_RETIRED.PREC_DIST 01C0H on
 *     fixed counter 0);
 *   - Sapphire Rapids: PEBS on IA32_PMC0 is "PDist", "the PEBS record is
 *     generated for the instruction that caused the overflow", no "wait
 *     for next occurrence" (the SDM's Sapphire Rapids PEBS text, quoted
 *     in KVM commit 974850be0125; Linux spr_get_event_constraints());
 *   - Tremont: reduced-skid PEBS on IA32_PMC0 and IA32_FIXED_CTR0.  The
 *     mechanism is Goldmont's (SDM Vol. 3, 325384-059US, §18.7.1.2
 *     "Reduced Skid PEBS": an early indication of the overflow lets the
 *     machine "precisely trap on the instruction that actually caused
 *     the counter overflow", "a superset of the PDIR mechanism", applying
 *     "to all precise events including INST_RETIRED", on PMC0, Goldmont's
 *     one PEBS counter); Tremont has it on PMC0 and fixed counter 0
 *     (Linux commit 6daeb8737f8a "perf/x86/intel: Add Tremont core PMU
 *     support": "The generic purpose counter 0 and fixed counter 0 have
 *     less skid"; tnt_get_event_constraints() puts a reduced-skid
 *     (precise_ip 3) event on PMC0, and INST_RETIRED.ANY 00C0H on PMC0
 *     or fixed counter 0).  PMC1-3 and fixed counters 1-2 keep the
 *     next-event rule.
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

#define CORE PERFMON_UARCH_CORE
#define NHM PERFMON_UARCH_NEHALEM
#define WSM PERFMON_UARCH_WESTMERE
#define SNB PERFMON_UARCH_SANDY_BRIDGE
#define HSW PERFMON_UARCH_HASWELL
#define SKL PERFMON_UARCH_SKYLAKE
#define ICL PERFMON_UARCH_ICE_LAKE
#define SPR PERFMON_UARCH_SAPPHIRE_RAPIDS
#define TNT PERFMON_UARCH_TREMONT

static const struct pebs_event pebs_events[] = {
	/* format 0: Core 2 */
	{ .event = 0xc0, .umask = 0x00, .uarch_lo = CORE, .uarch_hi = CORE,
	  .name = "INST_RETIRED.ANY_P", .sem = INSTRUCTIONS,
	  .data = PEBS_DATA_NONE, .cite = "SDM Table 18-10; PMC0 only" },
	/* Nehalem/Westmere (format 1) */
	{ .event = 0xc0, .umask = 0x01, .uarch_lo = NHM, .uarch_hi = WSM,
	  .name = "INST_RETIRED.ANY_P", .sem = INSTRUCTIONS,
	  .data = PEBS_DATA_NONE, .cite = "SDM Core i7 PEBS events; NHM json" },
	{ .event = 0xc4, .umask = 0x04, .uarch_lo = NHM, .uarch_hi = WSM,
	  .name = "BR_INST_RETIRED.ALL_BRANCHES", .sem = BRANCHES,
	  .data = PEBS_DATA_NONE, .cite = "SDM Core i7 PEBS events; NHM json" },
	{ .event = 0x0b, .umask = 0x01, .uarch_lo = NHM, .uarch_hi = WSM,
	  .name = "MEM_INST_RETIRED.LOADS", .sem = LOADS,
	  .data = PEBS_DATA_NONE,
	  .cite = "SDM Core i7 PEBS events; no DLA" },
	{ .event = 0x0b, .umask = 0x02, .uarch_lo = NHM, .uarch_hi = WSM,
	  .name = "MEM_INST_RETIRED.STORES", .sem = STORES,
	  .data = PEBS_DATA_NONE, .cite = "SDM Core i7 PEBS events; NHM json" },
	/* Sandy Bridge/Ivy Bridge (format 1) */
	{ .event = 0xc0, .umask = 0x01, .uarch_lo = SNB, .uarch_hi = SNB,
	  .name = "INST_RETIRED.PREC_DIST", .sem = INSTRUCTIONS,
	  .data = PEBS_DATA_NONE, .pdir = 1,
	  .cite = "SDM SNB PEBS events; PMC1 only" },
	{ .event = 0xc4, .umask = 0x04, .uarch_lo = SNB, .uarch_hi = SNB,
	  .name = "BR_INST_RETIRED.ALL_BRANCHES", .sem = BRANCHES,
	  .data = PEBS_DATA_NONE, .cite = "SDM SNB PEBS events" },
	{ .event = 0xd0, .umask = 0x81, .uarch_lo = SNB, .uarch_hi = SNB,
	  .name = "MEM_UOPS_RETIRED.ALL_LOADS", .sem = LOADS,
	  .data = PEBS_DATA_NONE, .cite = "SDM SNB PEBS events; no DLA" },
	{ .event = 0xd0, .umask = 0x82, .uarch_lo = SNB, .uarch_hi = SNB,
	  .name = "MEM_UOPS_RETIRED.ALL_STORES", .sem = STORES,
	  .data = PEBS_DATA_NONE, .cite = "SDM SNB PEBS events; no DLA" },
	/* Haswell to Skylake (formats 2-3) */
	{ .event = 0xc0, .umask = 0x01, .uarch_lo = HSW, .uarch_hi = SKL,
	  .name = "INST_RETIRED.PREC_DIST", .sem = INSTRUCTIONS,
	  .data = PEBS_DATA_NONE, .pdir = 1,
	  .cite = "SDM HSW/SKL PEBS; PMC1 only" },
	{ .event = 0xc4, .umask = 0x04, .uarch_lo = HSW, .uarch_hi = SKL,
	  .name = "BR_INST_RETIRED.ALL_BRANCHES_PEBS", .sem = BRANCHES,
	  .data = PEBS_DATA_NONE, .cite = "SDM HSW/SKL PEBS; json PEBS 2" },
	{ .event = 0xd0, .umask = 0x81, .uarch_lo = HSW, .uarch_hi = HSW,
	  .name = "MEM_UOPS_RETIRED.ALL_LOADS", .sem = LOADS,
	  .data = PEBS_DATA_LOAD, .cite = "SDM HSW PEBS events; Data_LA" },
	{ .event = 0xd0, .umask = 0x82, .uarch_lo = HSW, .uarch_hi = HSW,
	  .name = "MEM_UOPS_RETIRED.ALL_STORES", .sem = STORES,
	  .data = PEBS_DATA_STORE, .cite = "SDM HSW PEBS events; Data_LA" },
	/* Skylake on (format 3 on) */
	{ .event = 0xd0, .umask = 0x81, .uarch_lo = SKL, .uarch_hi = SPR,
	  .name = "MEM_INST_RETIRED.ALL_LOADS", .sem = LOADS,
	  .data = PEBS_DATA_LOAD, .cite = "SDM SKL PEBS events; Data_LA" },
	{ .event = 0xd0, .umask = 0x82, .uarch_lo = SKL, .uarch_hi = SPR,
	  .name = "MEM_INST_RETIRED.ALL_STORES", .sem = STORES,
	  .data = PEBS_DATA_STORE, .cite = "SDM SKL PEBS events; Data_LA" },
	/* Ice Lake on (adaptive PEBS, formats 4-5) */
	{ .event = 0xc0, .umask = 0x00, .uarch_lo = ICL, .uarch_hi = SPR,
	  .name = "INST_RETIRED.ANY_P", .sem = INSTRUCTIONS,
	  .data = PEBS_DATA_NONE, .cite = "SDM adaptive PEBS; ICL json" },
	{ .event = 0xc4, .umask = 0x00, .uarch_lo = ICL, .uarch_hi = SPR,
	  .name = "BR_INST_RETIRED.ALL_BRANCHES", .sem = BRANCHES,
	  .data = PEBS_DATA_NONE, .cite = "SDM adaptive PEBS; ICL json" },
	/* Tremont (format 4): Goldmont's precise events */
	{ .event = 0xc0, .umask = 0x00, .uarch_lo = TNT, .uarch_hi = TNT,
	  .name = "INST_RETIRED.ANY_P", .sem = INSTRUCTIONS,
	  .data = PEBS_DATA_NONE, .cite = "SDM GLM Table 18-19; SNR json" },
	{ .event = 0xc4, .umask = 0x00, .uarch_lo = TNT, .uarch_hi = TNT,
	  .name = "BR_INST_RETIRED.ALL_BRANCHES", .sem = BRANCHES,
	  .data = PEBS_DATA_NONE, .cite = "SDM GLM Table 18-19; SNR json" },
	{ .event = 0xd0, .umask = 0x81, .uarch_lo = TNT, .uarch_hi = TNT,
	  .name = "MEM_UOPS_RETIRED.ALL_LOADS", .sem = LOADS,
	  .data = PEBS_DATA_LOAD, .cite = "SDM GLM Table 18-19; Data_LA" },
	{ .event = 0xd0, .umask = 0x82, .uarch_lo = TNT, .uarch_hi = TNT,
	  .name = "MEM_UOPS_RETIRED.ALL_STORES", .sem = STORES,
	  .data = PEBS_DATA_STORE, .cite = "SDM GLM Table 18-19; Data_LA" },
};

static const unsigned pebs_events_len =
	sizeof(pebs_events) / sizeof(pebs_events[0]);

static int precise_on(const struct pebs_event *e, enum perfmon_uarch u)
{
	return u != PERFMON_UARCH_UNKNOWN && u >= e->uarch_lo &&
	       u <= e->uarch_hi;
}

const struct pebs_event *pebs_event_for(enum perfmon_uarch u, unsigned event,
					unsigned umask)
{
	for (unsigned i = 0; i < pebs_events_len; i++) {
		const struct pebs_event *e = &pebs_events[i];

		if (e->event == event && e->umask == umask &&
		    precise_on(e, u))
			return e;
	}
	return 0;
}

const struct pebs_event *pebs_event_nth(enum perfmon_uarch u, unsigned n)
{
	for (unsigned i = 0; i < pebs_events_len; i++) {
		const struct pebs_event *e = &pebs_events[i];

		if (precise_on(e, u) && !n--)
			return e;
	}
	return 0;
}

enum perfmon_uarch pebs_events_uarch(const struct perfmon_caps *c)
{
	static const enum perfmon_uarch first_of_format[] = {
		CORE, NHM, HSW, SKL, ICL, ICL,
	};
	unsigned fmt;

	if (c->uarch != PERFMON_UARCH_UNKNOWN)
		return c->uarch;
	fmt = perfmon_pebs_format(c);
	return fmt < sizeof(first_of_format) / sizeof(first_of_format[0]) ?
	       first_of_format[fmt] : PERFMON_UARCH_UNKNOWN;
}

uint64_t pebs_event_gp_counters(const struct pebs_event *pe)
{
	return pe && pe->pdir ? 1ull << 1 : ~0ull;
}

uint64_t pebs_overflow_record_counters(enum perfmon_uarch u)
{
	const uint64_t pmc0 = 1ull << 0;
	const uint64_t fixed0 = 1ull << GLOBAL_FIXED_SHIFT;

	switch (u) {
	case ICL:	/* precise distribution on fixed counter 0 */
		return fixed0;
	case SPR:	/* and PDist on PMC0 */
		return fixed0 | pmc0;
	case TNT:	/* reduced skid on both */
		return fixed0 | pmc0;
	default:
		return 0;
	}
}
