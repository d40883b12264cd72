/* pmu/perfmon/referee.c: the architectural events (events.c) and the
 * precise events (pebs/events.c) against libpfm4's Intel x86 PMUs, in
 * its x86_64 library (referee.h; pmu/referee.h).  Host-only: no part of
 * the image.
 *
 * Compared per row: the event select and the unit mask of libpfm4's
 * encoding (PerfEvtSel bits 7:0 and 15:8, SDM Vol. 3B, order no.
 * 253669-060US, §18.2.1.1 Figure 18-1) and that the encoding sets none of
 * EDGE, PC, ANY, INV, CMASK (bits 18, 19, 21, 23, 31:24): the product's
 * rows are plain event/umask pairs.  For the precise events also that
 * libpfm4 marks the unit mask precise (PEBS). */
#include <stdio.h>
#include <string.h>
#include "referee.h"
#include "events.h"
#include "regs.h"
#include "pebs/events.h"
#include "lbr/events.h"

#define EVTSEL_MODIFIERS ((1ull << 18) | (1ull << 19) | (1ull << 21) | \
			  (1ull << 23) | (0xffull << 24))

/* The libpfm4 PMUs with architectural performance monitoring (SDM
 * §18.2): every Intel core PMU of libpfm4 4.13 from Core 2 on.
 * ix86arch is not among them: it is libpfm4's fallback for the running
 * processor (libpfm_intel_x86_arch(3)), its events those the host's CPUID
 * leaf 0AH enumerates - none on a host without it (pfm_get_pmu_info():
 * nevents 0 on the AMD machine this was written on) - so it would say
 * what the machine running make check has, not what a table should. */
static const char *const arch_pmus[] = {
	"core", "atom", "nhm", "wsm", "snb", "ivb", "hsw", "bdw", "skl",
	"skx", "clx", "icl", "icx", "spr", "slm", "glm", "tmt", "knl",
};

/* Which libpfm4 event stands for each architectural event: the first
 * name of the list the PMU encodes.  libpfm4 4.13 names the SDM's
 * Table 18-1 events UNHALTED_CORE_CYCLES, INSTRUCTION_RETIRED, ...
 * (lib/events/intel_x86_arch_events.h, copied into each model's table)
 * and, on models whose table leaves one out, the SDM's model-specific
 * name of the same encoding (SDM Vol. 3B chapter 19, each model's table,
 * e.g. 3CH/01H CPU_CLK_UNHALTED.REF_P on Nehalem, CPU_CLK_THREAD_UNHALTED
 * .REF_XCLK on Haswell, CPU_CLK_UNHALTED.BUS on Core 2 and Atom; 2EH/4FH
 * LONGEST_LAT_CACHE.REFERENCE; C4H/00H BR_INST_RETIRED.ALL_BRANCHES;
 * A4H/01H TOPDOWN.SLOTS_P on Ice Lake).  libpfm4's
 * UNHALTED_REFERENCE_CYCLES is not the GP event 3CH/01H but 0300H, the
 * pseudo-encoding of fixed counter 2 (its description: "Unhalted
 * reference cycles", counter mask of fixed counter 2 only), so the list
 * starts with the 3CH/01H names. */
struct arch_map {
	const char *product;
	const char *names[7];
};

static const struct arch_map arch_map[] = {
	{ "UnHalted Core Cycles", { "UNHALTED_CORE_CYCLES" } },
	{ "Instruction Retired", { "INSTRUCTION_RETIRED" } },
	{ "UnHalted Reference Cycles",
	  { "CPU_CLK_UNHALTED:BUS", "CPU_CLK_UNHALTED:REF_P",
	    "CPU_CLK_THREAD_UNHALTED:REF_P", "CPU_CLK_UNHALTED:REF_XCLK",
	    "CPU_CLK_UNHALTED:REF_TSC_P", "CPU_CLK_UNHALTED:REF" } },
	{ "LLC Reference", { "LLC_REFERENCES", "LONGEST_LAT_CACHE:REFERENCE",
			     "LONGEST_LAT_CACHE:REFERENCES" } },
	{ "LLC Misses", { "LLC_MISSES", "LONGEST_LAT_CACHE:MISS" } },
	{ "Branch Instruction Retired",
	  { "BRANCH_INSTRUCTIONS_RETIRED", "BR_INST_RETIRED:ALL_BRANCHES",
	    "BR_INST_RETIRED:ANY" } },
	{ "Branch Misses Retired",
	  { "MISPREDICTED_BRANCH_RETIRED", "BR_MISP_RETIRED:ALL_BRANCHES",
	    "BR_MISP_RETIRED:ANY" } },
	{ "Topdown Slots", { "TOPDOWN:SLOTS_P" } },
};

/* Where libpfm4 4.13 and a row differ, and why the row stands. */
static struct ref_exception arch_exc[] = {
	{ .pmus = "core atom nhm wsm snb ivb hsw bdw skl skx clx slm glm "
		  "tmt knl",
	  .row = "Topdown Slots", .what = "not in libpfm4's table",
	  .cite = "architectural event 7 (CPUID.0AH:EBX bit 7), A4H/01H, "
		  "first on Ice Lake (SDM Vol. 3B, 253669-060US, "
		  "§18.2.1.2 Table 18-1, §18.2.5): these PMUs do not have "
		  "it" },
	{ .pmus = "nhm", .row = "Branch Misses Retired",
	  .what = "not in libpfm4's table",
	  .cite = "SDM Vol. 3B §18.2.1.2 Table 18-1 gives C5H/00H for "
		  "every architectural PMU; libpfm4's nhm table leaves the "
		  "event out (its BR_MISP_RETIRED has NEAR_CALL only)" },
	{ .pmus = "snb", .row = "Branch Instruction Retired",
	  .what = "unit mask 00H, libpfm4 BRANCH_INSTRUCTIONS_RETIRED 04H",
	  .cite = "SDM Vol. 3B §18.2.1.2 Table 18-1: C4H/00H; libpfm4's "
		  "snb aliases the architectural name to "
		  "BR_INST_RETIRED:ALL_BRANCHES, which it encodes with the "
		  "unit mask 04H of the precise variant" },
	{ .pmus = "snb", .row = "Branch Misses Retired",
	  .what = "unit mask 00H, libpfm4 MISPREDICTED_BRANCH_RETIRED 04H",
	  .cite = "SDM Vol. 3B §18.2.1.2 Table 18-1: C5H/00H; libpfm4's "
		  "snb aliases the architectural name to "
		  "BR_MISP_RETIRED:ALL_BRANCHES with unit mask 04H" },
	{ .pmus = "glm", .row = "UnHalted Reference Cycles",
	  .what = "event select 3CH, libpfm4 CPU_CLK_UNHALTED:REF 00H",
	  .cite = "SDM Vol. 3B §18.2.1.2 Table 18-1: 3CH/01H on a GP "
		  "counter; libpfm4's glm puts all of CPU_CLK_UNHALTED "
		  "under event code 00H, the fixed-counter pseudo-encoding" },
	{ .pmus = "knl", .row = "UnHalted Reference Cycles",
	  .what = "unit mask 01H, libpfm4 CPU_CLK_UNHALTED:BUS 02H",
	  .cite = "SDM Vol. 3B §18.2.1.2 Table 18-1: 3CH/01H; libpfm4's "
		  "knl encodes CPU_CLK_UNHALTED:BUS (and REF_P) with unit "
		  "mask 02H" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct arch_map *arch_map_for(const char *product)
{
	for (unsigned i = 0; i < N(arch_map); i++)
		if (!strcmp(arch_map[i].product, product))
			return &arch_map[i];
	return NULL;
}

/* Compares one PerfEvtSel encoding with a row's event/umask. */
static unsigned cmp_evtsel(const struct pmu_referee *pfm,
			   struct ref_tally *t, struct ref_exception *exc,
			   unsigned n_exc, const char *row, const char *ref,
			   uint64_t sel, unsigned event, unsigned umask,
			   unsigned *unexpl)
{
	unsigned d = 0;

	if ((sel & 0xff) != event) {
		d++;
		*unexpl += pfm->diff(t, exc, n_exc, row,
				     "event select %02XH, libpfm4 %s %02XH",
				     event, ref, (unsigned)(sel & 0xff));
	}
	if (((sel >> 8) & 0xff) != umask) {
		d++;
		*unexpl += pfm->diff(t, exc, n_exc, row,
				     "unit mask %02XH, libpfm4 %s %02XH",
				     umask, ref, (unsigned)((sel >> 8) & 0xff));
	}
	if (sel & EVTSEL_MODIFIERS) {
		d++;
		*unexpl += pfm->diff(t, exc, n_exc, row,
				     "libpfm4 %s sets modifiers %llxH", ref,
				     (unsigned long long)(sel &
							  EVTSEL_MODIFIERS));
	}
	return d;
}

static void arch_row(const struct pmu_referee *pfm, struct ref_tally *t,
		     const struct perfmon_event *ev)
{
	const struct arch_map *m = arch_map_for(ev->name);
	unsigned d = 0, u = 0;
	uint64_t codes[4];

	if (!m) {
		d++;
		u += pfm->diff(t, arch_exc, N(arch_exc), ev->name,
			       "no libpfm4 name in the checker's map");
		pfm->tally_row(t, d, u);
		return;
	}
	for (unsigned i = 0; i < N(m->names) && m->names[i]; i++) {
		int n = 4;

		if (pfm->encode(t->pmu, m->names[i], codes, &n) || n < 1)
			continue;
		d += cmp_evtsel(pfm, t, arch_exc, N(arch_exc), ev->name,
				m->names[i], codes[0], ev->event, ev->umask,
				&u);
		pfm->tally_row(t, d, u);
		return;
	}
	d++;
	u += pfm->diff(t, arch_exc, N(arch_exc), ev->name,
		       "not in libpfm4's table");
	pfm->tally_row(t, d, u);
}

static int check_perfmon(const struct pmu_referee *pfm)
{
	int bad = 0;

	for (unsigned p = 0; p < N(arch_pmus); p++) {
		struct ref_tally t;

		if (!pfm->has_pmu(arch_pmus[p])) {
			pfm->not_ok("libpfm4 has no PMU %s", arch_pmus[p]);
			bad++;
			continue;
		}
		pfm->tally_start(&t, "perfmon", arch_pmus[p], NULL);
		for (unsigned i = 0; i < ARCH_EV_NR; i++)
			arch_row(pfm, &t, &perfmon_arch_events[i]);
		bad += pfm->tally_end(&t);
	}
	return bad + pfm->exceptions_unused("perfmon", arch_exc, N(arch_exc));
}

/* ---- the precise events */

/* The microarchitecture of each libpfm4 PMU (pmu/perfmon/regs.h enum
 * perfmon_uarch; the precise events go by it, not by the record format,
 * pebs/events.c), and its PEBS record format for the notes
 * (IA32_PERF_CAPABILITIES bits 11:8; SDM Vol. 3B, the PEBS sections of
 * chapter 18: 0 Core 2, 1 Nehalem/Westmere and Sandy/Ivy Bridge, 2
 * Haswell/Broadwell, 3 Skylake (and its server parts), 4 Ice Lake and
 * Tremont, 5 Sapphire Rapids).  No row stands for Ivy Bridge (libpfm4's
 * ivb names C4H/04H ALL_BRANCHES_PEBS), so ivb is not refereed here. */
static const struct {
	const char *pmu;
	enum perfmon_uarch uarch;
	unsigned fmt;
} pebs_pmus[] = {
	{ "core", PERFMON_UARCH_CORE, 0 },
	{ "nhm", PERFMON_UARCH_NEHALEM, 1 },
	{ "wsm", PERFMON_UARCH_WESTMERE, 1 },
	{ "snb", PERFMON_UARCH_SANDY_BRIDGE, 1 },
	{ "hsw", PERFMON_UARCH_HASWELL, 2 },
	{ "bdw", PERFMON_UARCH_HASWELL, 2 },
	{ "skl", PERFMON_UARCH_SKYLAKE, 3 },
	{ "skx", PERFMON_UARCH_SKYLAKE, 3 },
	{ "clx", PERFMON_UARCH_SKYLAKE, 3 },
	{ "icl", PERFMON_UARCH_ICE_LAKE, 4 },
	{ "icx", PERFMON_UARCH_ICE_LAKE, 4 },
	{ "spr", PERFMON_UARCH_SAPPHIRE_RAPIDS, 5 },
	{ "tmt", PERFMON_UARCH_TREMONT, 4 },
};

/* Names: the SDM's EVENT.UMASK is libpfm4's EVENT:UMASK (libpfm(3):
 * "event:umask"); no other name differs.  Where libpfm4 4.13 and a row
 * differ, and why the row stands: */
static struct ref_exception pebs_exc[] = {
	{ .pmus = "nhm", .row = "INST_RETIRED.ANY_P",
	  .what = "unit mask 01H, libpfm4 INST_RETIRED:ANY_P 00H",
	  .cite = "SDM Vol. 3B Core i7 (Nehalem) precise events, the PEBS "
		  "section of Table 18-23: C0H/01H INST_RETIRED.ANY_P; "
		  "Linux nehalemep/pipeline.json the same (UMask 0x1, "
		  "PEBS 1); libpfm4's wsm has 01H too" },
	{ .pmus = "nhm wsm", .row = "BR_INST_RETIRED.ALL_BRANCHES",
	  .what = "unit mask 04H, libpfm4 BR_INST_RETIRED:ALL_BRANCHES 00H",
	  .cite = "SDM Vol. 3B Core i7 precise events (the PEBS section of "
		  "Table 18-23): the precise all-branches event is C4H/04H; "
		  "Linux nehalemep/pipeline.json BR_INST_RETIRED."
		  "ALL_BRANCHES UMask 0x4, PEBS 1; libpfm4 gives the "
		  "architectural C4H/00H" },
	{ .pmus = "hsw bdw skl skx clx",
	  .row = "BR_INST_RETIRED.ALL_BRANCHES_PEBS",
	  .what = "not in libpfm4's table",
	  .cite = "SDM Vol. 3B Haswell and Skylake precise-events tables "
		  "(the sections of Tables 18-44, 18-55): C4H/04H "
		  "BR_INST_RETIRED.ALL_BRANCHES_PEBS; Linux haswell and "
		  "skylake pipeline.json the same (\"PEBS\": \"2\"); "
		  "libpfm4 4.13 has no unit mask 04H for BR_INST_RETIRED "
		  "on these PMUs" },
	{ .pmus = "icl icx spr", .row = "INST_RETIRED.ANY_P",
	  .what = "libpfm4 does not mark INST_RETIRED:ANY_P precise",
	  .cite = "SDM Vol. 3B adaptive PEBS (Ice Lake on, PEBS_FMT 4): "
		  "PEBS on every GP counter for every event (with "
		  "PEBS_BASELINE, IA32_PERF_CAPABILITIES bit 14); libpfm4 "
		  "marks precise only the events the model tables list" },
	{ .pmus = "tmt", .row = "INST_RETIRED.ANY_P",
	  .what = "not in libpfm4's table",
	  .cite = "SDM Vol. 3 (325384-059US) Table 18-19, Goldmont's "
		  "precise events, which Tremont keeps: INST_RETIRED.ANY "
		  "C0H/00H; Linux snowridgex/pipeline.json INST_RETIRED.ANY_P "
		  "C0H, PEBS 1; libpfm4 4.13's tmt has C0H only as the "
		  "architectural INSTRUCTION(S)_RETIRED, not marked precise" },
};

static void pebs_row(const struct pmu_referee *pfm, struct ref_tally *t,
		     const struct pebs_event *ev)
{
	char name[128], event[128], *dot;
	unsigned d = 0, u = 0;
	uint64_t codes[4];
	int n = 4, prec;

	snprintf(name, sizeof(name), "%s", ev->name);
	dot = strchr(name, '.');
	if (dot)
		*dot = ':';
	if (pfm->encode(t->pmu, name, codes, &n) || n < 1) {
		d++;
		u += pfm->diff(t, pebs_exc, N(pebs_exc), ev->name,
			       "not in libpfm4's table");
		pfm->tally_row(t, d, u);
		return;
	}
	d += cmp_evtsel(pfm, t, pebs_exc, N(pebs_exc), ev->name, name,
			codes[0], ev->event, ev->umask, &u);
	snprintf(event, sizeof(event), "%s", name);
	dot = strchr(event, ':');
	prec = -1;
	if (dot) {
		*dot = 0;
		prec = pfm->umask_precise(t->pmu, event, dot + 1);
	}
	if (prec != 1) {
		d++;
		u += pfm->diff(t, pebs_exc, N(pebs_exc), ev->name,
			       "libpfm4 does not mark %s precise", name);
	}
	pfm->tally_row(t, d, u);
}

static int check_pebs(const struct pmu_referee *pfm)
{
	const struct pebs_event *ev;
	int bad = 0;

	for (unsigned p = 0; p < N(pebs_pmus); p++) {
		struct ref_tally t;
		char note[32];

		snprintf(note, sizeof(note), "(PEBS format %u)",
			 pebs_pmus[p].fmt);
		pfm->tally_start(&t, "pebs", pebs_pmus[p].pmu, note);
		/* every row precise on the PMU's microarchitecture, in the
		 * table's order */
		for (unsigned i = 0; (ev = pebs_event_nth(pebs_pmus[p].uarch,
							  i)); i++)
			pebs_row(pfm, &t, ev);
		bad += pfm->tally_end(&t);
	}
	return bad + pfm->exceptions_unused("pebs", pebs_exc, N(pebs_exc));
}

/* The event that counts LBR records (lbr/events.c), on each libpfm4 PMU
 * of its row: libpfm4's event:umask of the row (its name differs from
 * the SDM's by the ':' for the '.'), encoded with no modifier. */
static struct ref_exception lbr_exc[1];

static void lbr_row(const struct pmu_referee *pfm, struct ref_tally *t,
		    const struct perfmon_lbr_event *ev)
{
	unsigned d = 0, u = 0;
	uint64_t codes[4];
	int n = 4;

	if (pfm->encode(t->pmu, ev->libpfm, codes, &n) || n < 1) {
		d++;
		u += pfm->diff(t, lbr_exc, 0, ev->name,
			       "not in libpfm4's table as %s", ev->libpfm);
	} else {
		d += cmp_evtsel(pfm, t, lbr_exc, 0, ev->name, ev->libpfm,
				codes[0], ev->event, ev->umask, &u);
	}
	pfm->tally_row(t, d, u);
}

static int check_lbr(const struct pmu_referee *pfm)
{
	const struct perfmon_lbr_event *ev;
	unsigned n;
	int bad = 0;

	ev = perfmon_lbr_events(&n);
	for (unsigned i = 0; i < n; i++) {
		char pmus[64], *save = 0, *pmu;

		snprintf(pmus, sizeof(pmus), "%s", ev[i].pmus);
		for (pmu = strtok_r(pmus, " ", &save); pmu;
		     pmu = strtok_r(0, " ", &save)) {
			struct ref_tally t;

			pfm->tally_start(&t, "lbr", pmu, NULL);
			lbr_row(pfm, &t, &ev[i]);
			bad += pfm->tally_end(&t);
		}
	}
	return bad;
}

/* All of libpfm4's Intel x86 PMUs named above are in its x86_64 build. */
const struct pmu_referee_tables perfmon_referee = {
	.lib = PMU_REFEREE_LIB64,
	.table = {
		{ "perfmon", check_perfmon },
		{ "pebs", check_pebs },
		{ "lbr", check_lbr },
	},
};
