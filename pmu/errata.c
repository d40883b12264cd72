/* errata: the table of known PMU errata and its lookups (errata.h).
 *
 * Sources: Linux arch/x86/events/intel/core.c, the quirks intel_pmu_init()
 * adds per model (x86_add_quirk) and the period limits it sets
 * (x86_pmu.limit_period), and arch/x86/events/intel/p6.c; the erratum
 * ids are the ones those functions' comments and messages give from the
 * Intel specification updates.  Models are DisplayModel (SDM Vol. 2A
 * CPUID), as Linux's INTEL_* names in asm/intel-family.h stand for them.
 * Not an erratum, so not here: intel_arch_events_quirk(), which honours
 * CPUID.0AH:EBX's unavailable events, as the harness does itself
 * (pmu/perfmon/events.c). */
#include "errata.h"
#include "../lib/string.h"

/* Every stepping of family 6 model m (no microcode fixes it). */
#define ALL6(m) { 6, m, 0, 15, ERRATUM_NO_FIX }
/* Family 6 model m, stepping s, fixed from microcode revision rev. */
#define FIX6(m, s, rev) { 6, m, s, s, rev }

static const struct pmu_erratum table[] = {
	{
		.id = "HSW11",
		.what = "INST_RETIRED.PREC_DIST (C0H/01H) with a period "
			"below 128 is unreliable: Linux raises it to 128",
		.source = "Linux arch/x86/events/intel/core.c "
			  "hsw_limit_period() (Haswell specification update "
			  "HSW11)",
		.tests = "pebs/arming-pdir*",
		/* Haswell 3CH, -X 3FH, -L 45H, -G 46H */
		.cpus = { ALL6(0x3c), ALL6(0x3f), ALL6(0x45), ALL6(0x46) },
	},
	{
		.id = "BDM11/BDM55",
		.what = "INST_RETIRED.PREC_DIST (C0H/01H): a period below 100 "
			"(BDM11) or with bits 5:0 set (BDM55) is unreliable: "
			"Linux uses 128 and up, bits 5:0 clear",
		.source = "Linux arch/x86/events/intel/core.c "
			  "bdw_limit_period() (Broadwell specification update "
			  "BDM11, BDM55)",
		.tests = "pebs/arming-pdir*",
		/* Broadwell 3DH, -G 47H, -X 4FH, -D 56H */
		.cpus = { ALL6(0x3d), ALL6(0x47), ALL6(0x4f), ALL6(0x56) },
	},
	{
		.id = "PPro-26",
		.what = "RDPMC at CPL 3 is unreliable below stepping 9: Linux "
			"disables user-mode RDPMC there",
		.source = "Pentium Pro Processor Specification Update, "
			  "erratum 26; Linux arch/x86/events/intel/p6.c "
			  "p6_pmu_rdpmc_quirk()",
		.tests = "p6/rdpmc-cpl3-pce-*",
		.cpus = { { 6, 0x01, 0, 8, ERRATUM_NO_FIX } },
	},
	{
		.id = "AJ67/AJ68/AJ69/AJ106",
		.what = "PEBS on Core 2 (65 nm): CPL leaks (AJ67), the PMI one "
			"event late (AJ68), GLOBAL_STATUS[62] only with "
			"DEBUGCTL[12] (AJ69), FREEZE_LBRS_ON_PMI with PEBS "
			"(AJ106): Linux disables PEBS",
		.source = "Linux arch/x86/events/intel/core.c "
			  "intel_clovertown_quirk() (\"PEBS disabled due to CPU "
			  "errata\"; the ids from its comment)",
		.tests = "pebs/*",
		/* INTEL_CORE2_MEROM: Merom, Conroe, Kentsfield, Clovertown */
		.cpus = { ALL6(0x0f) },
	},
	{
		.id = "AAJ80",
		.what = "the architectural Branch Misses Retired event "
			"(C5H/00H) is bogus: Linux counts BR_MISP_EXEC.ANY "
			"instead",
		.source = "Linux arch/x86/events/intel/core.c "
			  "intel_nehalem_quirk() (\"CPU erratum AAJ80 worked "
			  "around\")",
		.no_test = "no test judges branch misses (the single-step "
			   "trace cannot see mispredictions: not modelled), "
			   "and the CPU marks the event unavailable in "
			   "CPUID.0AH:EBX[6]",
		/* Nehalem 1AH, 1EH, 1FH, -EX 2EH */
		.cpus = { ALL6(0x1a), ALL6(0x1e), ALL6(0x1f), ALL6(0x2e) },
	},
	{
		.id = "NHM-period-32",
		.what = "a sampling period below 32 can flood the machine "
			"with PMIs and hang it: Linux raises every period "
			"to 32",
		.source = "Linux arch/x86/events/intel/core.c "
			  "nhm_limit_period() (x86_pmu.limit_period of the "
			  "Nehalem cases)",
		.tests = "pebs/*,perfmon/pmi-*,perfmon/freeze-on-pmi",
		/* INTEL_NEHALEM 1EH, _EP 1AH, _EX 2EH */
		.cpus = { ALL6(0x1e), ALL6(0x1a), ALL6(0x2e) },
	},
	{
		.id = "SPR-PDist-period",
		.what = "PDist (PEBS on PMC0) with a period below 128: Linux "
			"raises it to 128",
		.source = "Linux arch/x86/events/intel/core.c "
			  "spr_limit_period() (glc_limit_period() since)",
		.tests = "pebs/arming-pdist-pmc0*",
		/* Sapphire Rapids 8FH, Emerald Rapids CFH */
		.cpus = { ALL6(0x8f), ALL6(0xcf) },
	},
	{
		.id = "SNB-PEBS-microcode",
		.what = "PEBS is broken before a microcode update: Linux "
			"disables it (\"please upgrade microcode\")",
		.source = "Linux arch/x86/events/intel/core.c "
			  "intel_sandybridge_quirk(), intel_snb_pebs_broken()",
		.tests = "pebs/*",
		/* Sandy Bridge 2AH from 0x28; -E/EP 2DH stepping 6 from
		 * 0x618, 7 from 0x70c, any other never */
		.cpus = { { 6, 0x2a, 0, 15, 0x28 }, FIX6(0x2d, 6, 0x618),
			  FIX6(0x2d, 7, 0x70c), ALL6(0x2d) },
	},
	{
		.id = "BJ122/BV98/HSD29",
		.what = "with Hyper-Threading on, MEM_* events (D0H-D3H) "
			"counted on both threads of a core corrupt each "
			"other's counters: Linux makes such counters "
			"exclusive per core",
		.source = "Linux arch/x86/events/intel/core.c intel_ht_bug() "
			  "and fixup_ht_bug() (\"PMU erratum BJ122, BV98, "
			  "HSD29 worked around\": Sandy Bridge, Ivy Bridge, "
			  "Haswell)",
		.no_test = "no test counts D0H-D3H on both threads of a core "
			   "(pebs/records-loads and -stores count on one "
			   "logical processor; the smp and ht tests count "
			   "instructions and branches)",
		/* Sandy Bridge 2AH, 2DH; Ivy Bridge 3AH, 3EH; Haswell 3CH,
		 * 3FH, 45H, 46H */
		.cpus = { ALL6(0x2a), ALL6(0x2d), ALL6(0x3a), ALL6(0x3e),
			  ALL6(0x3c), ALL6(0x3f), ALL6(0x45), ALL6(0x46) },
	},
	{
		.id = "GLM-counter-freezing",
		.what = "Freeze_PerfMon_on_PMI is broken before a microcode "
			"update: Linux does not use counter freezing (\"PMU "
			"counter freezing disabled due to CPU errata\")",
		.source = "Linux arch/x86/events/intel/core.c "
			  "intel_counter_freezing_quirk(), "
			  "counter_freezing_ucodes[]",
		.tests = "perfmon/freeze-on-pmi*",
		/* Goldmont 5CH steppings 2, 9, 10 from 0x0e, 0x2e, 0x08;
		 * Goldmont X (Denverton) 5FH stepping 1 from 0x28; Goldmont
		 * Plus 7AH stepping 1 from 0x28, 8 from 0x06; a stepping
		 * the list does not name: never */
		.cpus = { FIX6(0x5c, 2, 0x0e), FIX6(0x5c, 9, 0x2e),
			  FIX6(0x5c, 10, 0x08), ALL6(0x5c),
			  FIX6(0x5f, 1, 0x28), ALL6(0x5f),
			  FIX6(0x7a, 1, 0x28), FIX6(0x7a, 8, 0x06),
			  ALL6(0x7a) },
	},
	{
		.id = "PEBS-isolation",
		.what = "without the microcode's PEBS isolation, a PEBS "
			"counter disturbs the counts of others: Linux sets "
			"PEBS_ENABLE only while PEBS events count",
		.source = "Linux arch/x86/events/intel/core.c "
			  "intel_pebs_isolation(), isolation_ucodes[]",
		.tests = "pebs/*",
		/* isolation_ucodes[]: the stepping's first revision with
		 * isolation; a stepping it does not list has none.  Haswell
		 * 3CH, -L 45H, -G 46H, -X 3FH; Broadwell 3DH, -G 47H, -D
		 * 56H, -X 4FH */
		.cpus = {
			FIX6(0x3c, 3, 0x1f), ALL6(0x3c),
			FIX6(0x45, 1, 0x1e), ALL6(0x45),
			FIX6(0x46, 1, 0x15), ALL6(0x46),
			FIX6(0x3f, 2, 0x37), FIX6(0x3f, 4, 0x0a), ALL6(0x3f),
			FIX6(0x3d, 4, 0x23), ALL6(0x3d),
			FIX6(0x47, 1, 0x14), ALL6(0x47),
			FIX6(0x56, 2, 0x10), FIX6(0x56, 3, 0x07000009),
			FIX6(0x56, 4, 0x0f000009), FIX6(0x56, 5, 0x0e000002),
			ALL6(0x56),
			FIX6(0x4f, 1, 0x0b000014), ALL6(0x4f),
			/* Skylake-X 55H: stepping 3 from 0x21, 4-7 always;
			 * Skylake 4EH, 5EH stepping 3 from 0x7c; Kaby Lake
			 * 8EH steppings 9-12, 9EH steppings 9-13 from
			 * 0x4e */
			FIX6(0x55, 3, 0x21), { 6, 0x55, 4, 7, 0 },
			ALL6(0x55),
			FIX6(0x4e, 3, 0x7c), ALL6(0x4e),
			FIX6(0x5e, 3, 0x7c), ALL6(0x5e),
			{ 6, 0x8e, 9, 12, 0x4e }, ALL6(0x8e),
			{ 6, 0x9e, 9, 13, 0x4e }, ALL6(0x9e),
		},
	},
};

const struct pmu_erratum *pmu_errata(unsigned *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

int pmu_erratum_affects(const struct pmu_erratum *e,
			const struct cpu_info *ci)
{
	if (ci->vendor != VENDOR_INTEL)
		return 0;
	for (unsigned i = 0; i < ERRATUM_CPUS && e->cpus[i].family; i++) {
		const struct pmu_erratum_cpu *c = &e->cpus[i];

		if (c->family != ci->sig.family || c->model != ci->sig.model ||
		    ci->sig.stepping < c->stepping_lo ||
		    ci->sig.stepping > c->stepping_hi)
			continue;
		return c->fixed_from == ERRATUM_NO_FIX ||
		       !ci->microcode_valid || ci->microcode < c->fixed_from;
	}
	return 0;
}

/* Does a glob of the comma-separated list match name? */
static int listed(const char *globs, const char *name)
{
	char pat[64];

	while (str_list_next(&globs, pat, sizeof(pat)))
		if (pat[0] && str_glob(pat, name))
			return 1;
	return 0;
}

const struct pmu_erratum *pmu_erratum_for(const struct cpu_info *ci,
					  const char *name)
{
	unsigned n;
	const struct pmu_erratum *e = pmu_errata(&n);

	for (unsigned i = 0; i < n; i++)
		if (e[i].tests && listed(e[i].tests, name) &&
		    pmu_erratum_affects(&e[i], ci))
			return &e[i];
	return NULL;
}
