/* Host test: every field of every row of the capability table
 * (pmu/perfmon/caps_table.c) restated from a source other than the table
 * (docs/testing.md, "The rule").  test_caps.c holds the decoding and a
 * few fields of each row; this file holds all of them, so that changing
 * any bit of any row fails here.  caps_table.c is included for its
 * static table; nothing else of the product is read for an expectation.
 *
 * CPUID.0AH EAX, EBX, ECX, EDX and CPUID.01H:ECX.PDCM[15] (whether
 * IA32_PERF_CAPABILITIES exists, Vol. 2A CPUID leaf 01H): literals read
 * from real CPUID dumps of the public InstLatx64 collection
 * (github.com/InstLatx64/InstLatx64, GenuineIntel/<file>, at commit
 * 087af2c7d72c), AIDA64/EVEREST dumps of logical CPU #0, where
 *   "CPUID 00000001: EAX-EBX-ECX-EDX"  EAX is the signature, ECX the
 *                                      feature flags (bit 15 PDCM);
 *   "CPUID 0000000A: EAX-EBX-ECX-EDX"  the row's four words;
 *   "CPUID 0000000B: EAX-EBX-ECX-EDX"  (the first, sub-leaf 0, the SMT
 *                                      level) EBX[15:0] the logical
 *                                      processors per core: 2 with
 *                                      Hyper-Threading on, 1 off (Vol.
 *                                      2A CPUID leaf 0BH).
 * Each dump is of the row's DisplayFamily_DisplayModel (Vol. 2A CPUID
 * leaf 01H: the extended model joins the model for family 6) at a
 * stepping the row's comment names, unless its rule below says why not.
 *
 * IA32_PERF_CAPABILITIES (MSR 345H): no public dump of this MSR exists
 * for any row (InstLatx64 lists some MSRs, never 345H), so each field is
 * restated on its own, with where it comes from:
 *   - the fields (Vol. 4 Table 2-2 IA32_PERF_CAPABILITIES; Linux
 *     arch/x86/events/perf_event.h union perf_capabilities has the same
 *     layout): [5:0] LBR_FMT, [6] PEBS_TRAP, [7] PEBS_ARCH_REG (PEBS saves
 *     the architectural registers), [11:8] PEBS_REC_FMT, [12] SMM_FREEZE
 *     (IA32_DEBUGCTL.FREEZE_WHILE_SMM may be set), [13] FW_WRITE
 *     (full-width writes through IA32_A_PMCx, Vol. 3B §18.2.6), [14]
 *     PEBS_BASELINE, [15] PERF_METRICS, [16] PEBS output to Intel PT;
 *     no row sets bit 17 or above;
 *   - LBR_FMT encodings (Vol. 3B §17.4.8.1 "LBR Stack and Intel 64
 *     Processors"; Linux lbr.c LBR_FORMAT_*): 000000B 32-bit, 000001B
 *     64-bit LIP, 000010B 64-bit EIP, 000011B EIP with flags (MISPRED in
 *     the FROM MSR's bit 63), 000100B and the TSX flags (IN_TX, ABORT),
 *     000101B and the LBR_INFO MSRs; 111111B architectural LBRs (Vol. 3B,
 *     "Architectural Last Branch Records", CPUID.07H:EDX[19]);
 *   - what Linux prints at boot ("Performance Events: ..."): ds.c
 *     intel_ds_init() prints "PEBS fmt%d%c" with the format and '+' when
 *     PEBS_TRAP is set, then "-baseline" when PEBS_BASELINE is, then
 *     "PEBS-via-PT" when bit 16 is; core.c intel_pmu_init() prints
 *     "full-width counters" when FW_WRITE is.  A boot log of a part
 *     settles those fields.  The logs cited for FW_WRITE 0 print the CPU
 *     line in the hex form "(family: 0x6, model: 0x1a, ...)", which Linux took
 *     up after its "(fam: 06, model: 3a, ...)" form, which already
 *     printed "full-width counters" on parts that have it (Linux 3.11
 *     added the message): so a hex-form log without it means FW_WRITE 0.
 * A field no source settles is "assumed" or "derived" here as in the
 * row's comment, and says so.
 *
 * Rows that differ from a dump by a stated rule (below, RULE_*) are held
 * to the dump's value adjusted by that rule, never to the row's value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/perfmon/caps_table.c"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: pmu/perfmon/regs.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The rows of the table, one restatement each below: a new row fails
 * test_rows_counted until it has one. */
#define ROWS_IN_TABLE 21

/* ---- CPUID.0AH and PDCM from the dumps ------------------------------ */

/* How a row relates to a dump. */
enum dump_rule {
	/* The row reads as the dump does. */
	RULE_NONE,
	/* Hyper-Threading off in the dump (0BH SMT level: 1 logical
	 * processor per core).  Sandy Bridge to Cascade Lake have 8 GP
	 * counters per core, 4 per logical processor when HT is on (Vol. 3B
	 * §18.9, "Performance Monitoring for Processors Based on Intel
	 * Microarchitecture Code Name Sandy Bridge": IA32_PMC4-7 exist only
	 * with HT off; the Haswell and Skylake sections keep it); the table
	 * states counters per logical processor with HT on (its header):
	 * the dump's EAX[15:8] = 8 becomes 4, nothing else changes. */
	RULE_HT_OFF,
	/* A Core 2 of an early stepping (B2/B3/L2, 6F2-6F7): v2 with EDX 0,
	 * no fixed counter enumerated.  The row follows the later steppings
	 * (G0/M0, 6FA-6FD, and Penryn), whose EDX enumerates the 3 fixed
	 * counters of the Core microarchitecture (Vol. 3B §18.6.2.1, "Fixed-
	 * function Performance Counters": IA32_FIXED_CTR0-2) as wide as its
	 * GP counters (EAX[23:16], 40 bits): EDX = 3 | 40 << 5 = 503H. */
	RULE_CORE2_EARLY_EDX,
	/* No dump of the row's family/model was found (InstLatx64 has none
	 * of 06_86H or 06_85H; the rows' comments found none in libcpuid or
	 * Bochs either).  The row's cite takes the
	 * same microarchitecture's other model, which Linux sets up in the
	 * same case of intel_pmu_init() (core.c: "Tremont events" for 06_86H,
	 * 06_96H and 06_9CH; "Knights Landing/Mill events" for 06_57H and
	 * 06_85H): the row reads as that dump does; test_rows_without_dump
	 * restates those rows from the SDM as well. */
	RULE_SIBLING,
};

/* One CPUID dump, as it reads. */
struct dump_rs {
	unsigned model;			/* the row it restates (06_xxH) */
	const char *file;		/* InstLatx64 GenuineIntel/<file> */
	uint32_t sig;			/* CPUID.01H:EAX */
	uint32_t ecx1;			/* CPUID.01H:ECX (PDCM: bit 15) */
	uint32_t eax, ebx, ecx, edx;	/* CPUID.0AH */
	unsigned smt;			/* 0BH.0 EBX[15:0]; 0: no leaf 0BH */
	enum dump_rule rule;
};

static const struct dump_rs dumps[] = {
	/* Yonah: Celeron 215 (6E8; the row names 6E8 and 6EC) */
	{ .model = 0x0e, .file = "GenuineIntel00006E8_PM_Yonah_CPUID.txt",
	  .sig = 0x000006e8, .ecx1 = 0x0000c109,
	  .eax = 0x07280201, .ebx = 0, .ecx = 0, .edx = 0 },
	/* Conroe: Core 2 Duo E6750 (6FB, G0: the row's later steppings) */
	{ .model = 0x0f, .file = "GenuineIntel00006FB_Conroe_CPUID.txt",
	  .sig = 0x000006fb, .ecx1 = 0x0000e3fd,
	  .eax = 0x07280202, .ebx = 0, .ecx = 0, .edx = 0x00000503 },
	/* Conroe: Core 2 Extreme X6800 (6F6, B2), EDX 0 */
	{ .model = 0x0f, .file = "GenuineIntel00006F6_Conroe_CPUID.txt",
	  .sig = 0x000006f6, .ecx1 = 0x0000e3bd,
	  .eax = 0x07280202, .ebx = 0, .ecx = 0, .edx = 0,
	  .rule = RULE_CORE2_EARLY_EDX },
	/* Penryn: Core 2 Duo P8400 (10676) and the 1067A dump */
	{ .model = 0x17, .file = "GenuineIntel0010676_Penryn_CPUID.txt",
	  .sig = 0x00010676, .ecx1 = 0x0008e3fd,
	  .eax = 0x07280202, .ebx = 0, .ecx = 0, .edx = 0x00000503 },
	{ .model = 0x17, .file = "GenuineIntel001067A_Penryn_CPUID.txt",
	  .sig = 0x0001067a, .ecx1 = 0x0400e39d,
	  .eax = 0x07280202, .ebx = 0, .ecx = 0, .edx = 0x00000503 },
	/* Nehalem 06_1AH: Core i7 965 (106A4, the row's stepping; HT on).
	 * EBX bit 6 set: branch mispredicts unavailable (Linux
	 * intel_nehalem_quirk(), erratum AAJ80).  The 106A1/106A2 dumps of
	 * engineering samples report EBX 0; the row follows 106A4. */
	{ .model = 0x1a, .file = "GenuineIntel00106A4_Bloomfield_CPUID.txt",
	  .sig = 0x000106a4, .ecx1 = 0x0098e3bd,
	  .eax = 0x07300403, .ebx = 0x40, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	/* Lynnfield: Core i7 860 (106E5, HT on) */
	{ .model = 0x1e, .file = "GenuineIntel00106E5_Lynnfield_CPUID.txt",
	  .sig = 0x000106e5, .ecx1 = 0x0098e3fd,
	  .eax = 0x07300403, .ebx = 0x44, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	/* Westmere-EP/Gulftown: Core i7 990X (206C2), Xeon X5667 (206C1) */
	{ .model = 0x2c, .file = "GenuineIntel00206C2_Gulftown_CPUID.txt",
	  .sig = 0x000206c2, .ecx1 = 0x029ae3bf,
	  .eax = 0x07300403, .ebx = 0x04, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	{ .model = 0x2c, .file = "GenuineIntel00206C1_Gulftown_CPUID.txt",
	  .sig = 0x000206c1, .ecx1 = 0x029ee3ff,
	  .eax = 0x07300403, .ebx = 0x04, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	/* Westmere client: Core i5 650 (20652) */
	{ .model = 0x25, .file = "GenuineIntel0020652_Clarkdale_CPUID.txt",
	  .sig = 0x00020652, .ecx1 = 0x0298e3ff,
	  .eax = 0x07300403, .ebx = 0x04, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	/* Sandy Bridge: Core i7-2600 (206A7, HT on) */
	{ .model = 0x2a, .file = "GenuineIntel00206A7_SandyBridge2_CPUID.txt",
	  .sig = 0x000206a7, .ecx1 = 0x1fbae3ff,
	  .eax = 0x07300403, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	/* Sandy Bridge: Core i5-2400 (206A7, no HT): 8 GP */
	{ .model = 0x2a, .file = "GenuineIntel00206A7_SandyBridge_CPUID.txt",
	  .sig = 0x000206a7, .ecx1 = 0x1fbae3ff,
	  .eax = 0x07300803, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 1, .rule = RULE_HT_OFF },
	/* Ivy Bridge: Core i7-3770K (306A9, HT on) */
	{ .model = 0x3a, .file = "GenuineIntel00306A9_IvyBridge_CPUID.txt",
	  .sig = 0x000306a9, .ecx1 = 0x7f9ae3bf,
	  .eax = 0x07300403, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	/* Ivy Bridge (306A9, HT off): 8 GP */
	{ .model = 0x3a, .file = "GenuineIntel00306A9_IvyBridge_CPUID2.txt",
	  .sig = 0x000306a9, .ecx1 = 0x0d9ae3bf,
	  .eax = 0x07300803, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 1, .rule = RULE_HT_OFF },
	/* Haswell: Core i7-4770 (306C3, HT on) */
	{ .model = 0x3c, .file = "GenuineIntel00306C3_Haswell_CPUID.txt",
	  .sig = 0x000306c3, .ecx1 = 0x7ffafbff,
	  .eax = 0x07300403, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	/* Broadwell: Core M-5Y70 (306D4, HT on; the part Bochs's
	 * broadwell_ult is) */
	{ .model = 0x3d, .file = "GenuineIntel00306D4_Broadwell_CPUID.txt",
	  .sig = 0x000306d4, .ecx1 = 0x7ffafbff,
	  .eax = 0x07300403, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	/* Skylake client: Core i7-6700K (506E3, HT on) */
	{ .model = 0x5e, .file = "GenuineIntel00506E3_SkyLake_01_CPUID.txt",
	  .sig = 0x000506e3, .ecx1 = 0x7ffafbbf,
	  .eax = 0x07300404, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	/* Skylake client: Core i5-6400T (506E3, no HT): 8 GP */
	{ .model = 0x5e, .file = "GenuineIntel00506E3_Skylake_CPUID.txt",
	  .sig = 0x000506e3, .ecx1 = 0x7ffafbff,
	  .eax = 0x07300804, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 1, .rule = RULE_HT_OFF },
	/* Skylake mobile (406E3, HT on) */
	{ .model = 0x4e, .file = "GenuineIntel00406E3_Skylake_CPUID.txt",
	  .sig = 0x000406e3, .ecx1 = 0x7ffafbbf,
	  .eax = 0x07300404, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	/* Cascade Lake-X (50657) and Skylake-X (50654), HT on */
	{ .model = 0x55, .file = "GenuineIntel0050657_CascadeLakeX_CPUID1.txt",
	  .sig = 0x00050657, .ecx1 = 0x7ffefbbf,
	  .eax = 0x07300404, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	{ .model = 0x55, .file = "GenuineIntel0050654_SkylakeX_CPUID.txt",
	  .sig = 0x00050654, .ecx1 = 0x7ffefbbf,
	  .eax = 0x07300404, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 2 },
	/* a Skylake-SP Xeon (50654) with HT off: 8 GP */
	{ .model = 0x55, .file = "GenuineIntel0050654_SkylakeXeon_CPUID9.txt",
	  .sig = 0x00050654, .ecx1 = 0x7ffefbff,
	  .eax = 0x07300804, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 1, .rule = RULE_HT_OFF },
	/* Ice Lake client: Core i7-1065G7 (706E5); 8 GP either way */
	{ .model = 0x7e, .file = "GenuineIntel00706E5_IceLakeY_CPUID.txt",
	  .sig = 0x000706e5, .ecx1 = 0x7ffafbbf,
	  .eax = 0x08300805, .ebx = 0, .ecx = 0x0f, .edx = 0x00008604,
	  .smt = 2 },
	/* Ice Lake server (606A6, the stepping the row names) */
	{ .model = 0x6a, .file = "GenuineIntel00606A6_ICX_CPUID3.txt",
	  .sig = 0x000606a6, .ecx1 = 0x7ffefbff,
	  .eax = 0x08300805, .ebx = 0, .ecx = 0x0f, .edx = 0x00008604,
	  .smt = 2 },
	/* Sapphire Rapids (806F8) */
	{ .model = 0x8f,
	  .file = "GenuineIntel00806F8_SapphireRapids_05_CPUID.txt",
	  .sig = 0x000806f8, .ecx1 = 0x7ffefbff,
	  .eax = 0x08300805, .ebx = 0, .ecx = 0x0f, .edx = 0x00008604,
	  .smt = 2 },
	/* Bonnell: Atom 230 (106C2, the n270's signature) */
	{ .model = 0x1c, .file = "GenuineIntel00106C2_Diamondville_CPUID.txt",
	  .sig = 0x000106c2, .ecx1 = 0x0040e31d,
	  .eax = 0x07280203, .ebx = 0, .ecx = 0, .edx = 0x00002501 },
	/* Goldmont: Atom C3958 (506F1, no HT) */
	{ .model = 0x5f, .file = "GenuineIntel00506F1_Denverton_CPUID.txt",
	  .sig = 0x000506f1, .ecx1 = 0x4ff8ebbf,
	  .eax = 0x07300404, .ebx = 0, .ecx = 0, .edx = 0x00000603,
	  .smt = 1 },
	/* Tremont 06_86H: no dump; Elkhart Lake (90661) and Jasper Lake
	 * (906C0), as the row's cite says (libcpuid's dumps of the same
	 * parts read the same) */
	{ .model = 0x86, .file = "GenuineIntel0090661_ElkhartLake_CPUID01.txt",
	  .sig = 0x00090661, .ecx1 = 0x4ff8ebbf,
	  .eax = 0x07300405, .ebx = 0, .ecx = 0x07, .edx = 0x00008603,
	  .smt = 1, .rule = RULE_SIBLING },
	{ .model = 0x86, .file = "GenuineIntel00906C0_JasperLake_CPUID01.txt",
	  .sig = 0x000906c0, .ecx1 = 0x4ff8ebbf,
	  .eax = 0x07300405, .ebx = 0, .ecx = 0x07, .edx = 0x00008603,
	  .smt = 1, .rule = RULE_SIBLING },
	/* Knights Mill 06_85H: no dump; Knights Landing (50671, 50670) as
	 * the row's cite says (4 threads per core: 2 GP each either way) */
	{ .model = 0x85,
	  .file = "GenuineIntel0050671_KnightsLanding_CPUID.txt",
	  .sig = 0x00050671, .ecx1 = 0x7ff8f39f,
	  .eax = 0x07280203, .ebx = 0, .ecx = 0, .edx = 0x00000503,
	  .smt = 4, .rule = RULE_SIBLING },
	{ .model = 0x85,
	  .file = "GenuineIntel0050670_KnightsLanding_CPUID.txt",
	  .sig = 0x00050670, .ecx1 = 0x7ff8f3bf,
	  .eax = 0x07280203, .ebx = 0, .ecx = 0, .edx = 0x00000503,
	  .smt = 4, .rule = RULE_SIBLING },
};

/* The models Linux's intel_pmu_init() sets up in one case (core.c), for
 * RULE_SIBLING. */
static const unsigned sibling_groups[][3] = {
	{ 0x86, 0x96, 0x9c },		/* "Tremont events" */
	{ 0x85, 0x57, 0x57 },		/* "Knights Landing/Mill events" */
};

/* DisplayModel of a family-6 signature (Vol. 2A CPUID leaf 01H). */
static unsigned sig_family(uint32_t sig)
{
	return sig >> 8 & 0xf;
}

static unsigned sig_model(uint32_t sig)
{
	return (sig >> 4 & 0xf) | (sig >> 16 & 0xf) << 4;
}

static int siblings(unsigned a, unsigned b)
{
	for (unsigned g = 0; g < N(sibling_groups); g++) {
		int ina = 0, inb = 0;

		for (unsigned i = 0; i < N(sibling_groups[g]); i++) {
			ina |= sibling_groups[g][i] == a;
			inb |= sibling_groups[g][i] == b;
		}
		if (ina && inb)
			return 1;
	}
	return 0;
}

/* The CPUID.0AH words the row must hold: the dump's, adjusted by its
 * rule; 0 when the rule's premise does not hold of the dump. */
static int dump_expect(const struct dump_rs *d, uint32_t w[4])
{
	w[0] = d->eax;
	w[1] = d->ebx;
	w[2] = d->ecx;
	w[3] = d->edx;
	switch (d->rule) {
	case RULE_NONE:
	case RULE_SIBLING:
		return 1;
	case RULE_HT_OFF:
		if (d->smt != 1 || (d->eax >> 8 & 0xff) != 8)
			return 0;
		w[0] = (d->eax & ~0xff00u) | 4u << 8;
		return 1;
	case RULE_CORE2_EARLY_EDX:
		if ((d->eax & 0xff) != 2 || d->edx != 0)
			return 0;
		w[3] = 3 | (d->eax >> 16 & 0xff) << 5;
		return 1;
	}
	return 0;
}

/* The dump is of the row's family/model, or of a sibling by its rule. */
static void check_dump_signature(const struct dump_rs *d)
{
	unsigned m = sig_model(d->sig);

	if (sig_family(d->sig) != 6)
		fail_msg("%s: family %u", d->file, sig_family(d->sig));
	if (d->rule == RULE_SIBLING) {
		if (m == d->model || !siblings(m, d->model))
			fail_msg("%s: 06_%02XH is not a sibling of 06_%02XH",
				 d->file, m, d->model);
		return;
	}
	if (m != d->model)
		fail_msg("%s: 06_%02XH restates the row of 06_%02XH", d->file,
			 m, d->model);
}

static void check_dump(const struct dump_rs *d)
{
	const struct perfmon_caps_row *r = perfmon_caps_row_for(6, d->model);
	uint32_t w[4];
	int pdcm = d->ecx1 >> 15 & 1;

	if (!r)
		fail_msg("%s: no row of 06_%02XH", d->file, d->model);
	check_dump_signature(d);
	if (!dump_expect(d, w))
		fail_msg("%s: its rule's premise does not hold", d->file);
	if (r->eax != w[0] || r->ebx != w[1] || r->ecx != w[2] ||
	    r->edx != w[3])
		fail_msg("06_%02XH (%s): CPUID.0AH %08x %08x %08x %08x, the "
			 "dump %s (rule %d) gives %08x %08x %08x %08x",
			 d->model, r->name, r->eax, r->ebx, r->ecx, r->edx,
			 d->file, d->rule, w[0], w[1], w[2], w[3]);
	if (r->has_perf_caps != pdcm)
		fail_msg("06_%02XH (%s): has_perf_caps %d, the dump %s has "
			 "CPUID.01H:ECX %08x (PDCM %d)", d->model, r->name,
			 r->has_perf_caps, d->file, d->ecx1, pdcm);
}

static void test_rows_cpuid_restated(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(dumps); i++)
		check_dump(&dumps[i]);
}

/* CPUID.0AH:EAX and EDX from their fields (Vol. 2A CPUID leaf 0AH:
 * EAX[7:0] version, [15:8] GP counters, [23:16] their width, [31:24] the
 * EBX length; EDX[4:0] fixed counters, [12:5] their width, [15] AnyThread
 * deprecated). */
static uint32_t eax_of(unsigned v, unsigned gp, unsigned width, unsigned len)
{
	return v | gp << 8 | width << 16 | (uint32_t)len << 24;
}

static uint32_t edx_of(unsigned fixed, unsigned width, int any_deprecated)
{
	return fixed | width << 5 | (any_deprecated ? 1u << 15 : 0);
}

/* The two rows without a dump of their own model, restated from the SDM
 * sections their comments name as well as from the siblings' dumps:
 *   - Snowridge 06_86H, Tremont (Vol. 3B, the Tremont microarchitecture
 *     section of the performance monitoring chapter, and §18.2.5
 *     "Architectural Performance Monitoring Version 5"): version 5, 4 GP
 *     and 3 fixed counters of 48 bits, the fixed counters enumerated by
 *     the ECX bitmap too (7: counters 0-2), AnyThread deprecated
 *     (EDX[15]), the 7 events of Table 18-1 all available (EBX 0, no
 *     Topdown Slots: length 7);
 *   - KnightsMill 06_85H, Knights Landing/Mill (Vol. 3B, the Knights
 *     Landing section, which covers Knights Mill): version 3, 2 GP and 3
 *     fixed counters of 40 bits, EBX length 7, all 7 available. */
static void test_rows_without_dump(void **state)
{
	static const struct {
		unsigned model, version, gp, width, len;
		unsigned fixed, fixed_width, any_deprecated;
		uint32_t ebx, ecx;
	} sdm[] = {
		{ .model = 0x86, .version = 5, .gp = 4, .width = 48, .len = 7,
		  .fixed = 3, .fixed_width = 48, .any_deprecated = 1,
		  .ebx = 0, .ecx = 0x7 },
		{ .model = 0x85, .version = 3, .gp = 2, .width = 40, .len = 7,
		  .fixed = 3, .fixed_width = 40, .any_deprecated = 0,
		  .ebx = 0, .ecx = 0 },
	};

	(void)state;
	for (unsigned i = 0; i < N(sdm); i++) {
		const struct perfmon_caps_row *r =
			perfmon_caps_row_for(6, sdm[i].model);
		uint32_t eax = eax_of(sdm[i].version, sdm[i].gp, sdm[i].width,
				      sdm[i].len);
		uint32_t edx = edx_of(sdm[i].fixed, sdm[i].fixed_width,
				      sdm[i].any_deprecated);

		assert_non_null(r);
		if (r->eax != eax || r->ebx != sdm[i].ebx ||
		    r->ecx != sdm[i].ecx || r->edx != edx)
			fail_msg("06_%02XH (%s): CPUID.0AH %08x %x %x %x, the "
				 "SDM restatement %08x %x %x %x", sdm[i].model,
				 r->name, r->eax, r->ebx, r->ecx, r->edx, eax,
				 sdm[i].ebx, sdm[i].ecx, edx);
	}
}

/* ---- IA32_PERF_CAPABILITIES, field by field -------------------------- */

/* One row's IA32_PERF_CAPABILITIES, each field as its source says (the
 * part's value where a rule then changes it). */
struct caps_rs {
	unsigned model;
	unsigned lbr_fmt;		/* [5:0] */
	unsigned pebs_trap;		/* [6] */
	unsigned pebs_arch_reg;		/* [7] */
	unsigned pebs_fmt;		/* [11:8] */
	unsigned smm_freeze;		/* [12] */
	unsigned fw_write;		/* [13] */
	unsigned pebs_baseline;		/* [14] */
	unsigned perf_metrics;		/* [15] */
	unsigned pebs_pt;		/* [16] */
	/* The rule of the Atom and Xeon Phi rows but Tremont: the model has
	 * none of their PEBS rules, so they advertise no PEBS and their PEBS
	 * fields (6, 7, 11:8, 14, 16) are written 0 whatever the part
	 * reports (docs/pebs.md, "The DS save area"; docs/perfmon.md). */
	int no_pebs;
	/* The rule of PEBS output to Intel PT (bit 16): the model writes
	 * PEBS records to the DS area only, so a row whose part reports the
	 * bit (Tremont) writes it 0. */
	int no_pebs_pt;
};

/* Linux boot logs (the "Performance Events:" line; see the header for
 * what it shows) are named by the part, its signature and the line. */
static const struct caps_rs caps[] = {
	/* Yonah, Celeron 215 / Core Duo.  LBR_FMT 0: the part has no Intel
	 * 64 (the dump's CPUID.80000001H:EDX.LM[29] clear) and its LBRs hold
	 * 32-bit from and to addresses in one MSR (Vol. 3B, the Core Solo and
	 * Core Duo LBR section, "LBR Branch Record Layout for the Intel Core
	 * Solo and Intel Core Duo Processor"; §17.4.8.2 "LBR Stack and IA-32
	 * Processors").  No PEBS: the SDM's Core Solo/Duo performance
	 * monitoring section (architectural v1 and its model-specific
	 * events) has none; PEBS returns with the Core microarchitecture
	 * (§18.6.2.4).  SMM_FREEZE 0: its IA32_DEBUGCTL (Vol. 3B, "IA32_
	 * DEBUGCTL MSR for Intel Core Solo and Intel Core Duo Processors")
	 * has no FREEZE_WHILE_SMM.  FW_WRITE 0: assumed (no boot log; no
	 * part before Sandy Bridge prints "full-width counters").  Bits
	 * 14-16 are Ice Lake's and Tremont's. */
	{ .model = 0x0e },
	/* Conroe.  LBR_FMT 1: assumed (64-bit LBRs with no flag bits, Vol.
	 * 3B, the Core microarchitecture LBR section, "64-bit Address Layout
	 * of LBR MSR"; of 000001B and 000010B the row takes LIP).  PEBS:
	 * Core 2 Duo E4300 (6FD): "PEBS fmt0+, Core2 events, 4-deep LBR,
	 * Intel PMU driver." and Core 2 Quad Q6600 (6FB): "PEBS fmt0+":
	 * format 0, trap.  PEBS_ARCH_REG 1: the format-0 record is RFLAGS,
	 * RIP, RAX-R15 (§18.6.2.4; Linux ds.c struct pebs_record_core).
	 * SMM_FREEZE 0: IA32_DEBUGCTL of the Core microarchitecture
	 * (Figure 17-3) has no bit 14; FREEZE_WHILE_SMM comes with Nehalem.
	 * FW_WRITE 0: the E4300 log (hex form) has no "full-width
	 * counters". */
	{ .model = 0x0f, .lbr_fmt = 1, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 0 },
	/* Penryn: as Conroe.  Core 2 Duo E8400 (1067A), Linux 5.11: "PEBS
	 * fmt0+, Core2 events, 4-deep LBR, Intel PMU driver.": format 0,
	 * trap, no full-width.  LBR_FMT 1 assumed as Conroe. */
	{ .model = 0x17, .lbr_fmt = 1, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 0 },
	/* Nehalem 06_1AH.  LBR_FMT 3: the FROM MSRs carry MISPRED in bit 63
	 * (Vol. 3B, the Nehalem LBR section, Table "IA32_LASTBRANCH_x_
	 * FROM_IP": 47:0 address, 62:48 sign extension, 63 MISPRED) =
	 * 000011B; Linux intel_pmu_lbr_init_nhm().  Core i7-920 (106A4):
	 * "PEBS fmt1+, Nehalem events, 16-deep LBR, Intel PMU driver.":
	 * format 1, trap, no full-width.  PEBS_ARCH_REG 1: the format-1
	 * record ("PEBS Record Format for Intel Core i7 Processor Family")
	 * starts with RFLAGS, RIP, RAX-R15 (Linux struct pebs_record_nhm).
	 * SMM_FREEZE 1: derived, Nehalem's IA32_DEBUGCTL has
	 * FREEZE_WHILE_SMM_EN (bit 14; Vol. 3B Figure 17-11), which Vol. 4
	 * gives "if IA32_PERF_CAPABILITIES.FREEZE_WHILE_SMM[12]". */
	{ .model = 0x1a, .lbr_fmt = 3, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 1, .smm_freeze = 1 },
	/* Lynnfield: as 06_1AH.  Core i7 860 (106E5): "PEBS fmt1+, Nehalem
	 * events, 16-deep LBR, Intel PMU driver." (and "CPUID marked event:
	 * 'bus cycles' unavailable", EBX bit 2). */
	{ .model = 0x1e, .lbr_fmt = 3, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 1, .smm_freeze = 1 },
	/* Westmere-EP: the Westmere section is Nehalem's.  Xeon X5650
	 * (206C2; a kernel with MDS mitigations): "PEBS fmt1+, Westmere
	 * events, 16-deep LBR, Intel PMU driver.": format 1, trap, no
	 * full-width. */
	{ .model = 0x2c, .lbr_fmt = 3, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 1, .smm_freeze = 1 },
	/* Westmere client.  Core i3 M330 (20652): "PEBS fmt1+, 16-deep
	 * LBR, Westmere events, Intel PMU driver.". */
	{ .model = 0x25, .lbr_fmt = 3, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 1, .smm_freeze = 1 },
	/* Sandy Bridge.  LBR_FMT 3: the Nehalem LBR MSRs and FROM layout
	 * (Linux intel_pmu_lbr_init_snb(): MSR_LBR_NHM_FROM).  Pentium G640
	 * and Core i7-2620M (206A7): "PEBS fmt1+, 16-deep LBR, SandyBridge
	 * events, full-width counters, Intel PMU driver.": format 1, trap,
	 * full-width.  PEBS_ARCH_REG 1: format 1, as Nehalem.  SMM_FREEZE 1
	 * derived as Nehalem. */
	{ .model = 0x2a, .lbr_fmt = 3, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 1, .smm_freeze = 1, .fw_write = 1 },
	/* Ivy Bridge (the Sandy Bridge section).  Core i5-3210M and Core
	 * i7-3770 (306A9): "PEBS fmt1+, 16-deep LBR, IvyBridge events,
	 * full-width counters, Intel PMU driver.". */
	{ .model = 0x3a, .lbr_fmt = 3, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 1, .smm_freeze = 1, .fw_write = 1 },
	/* Haswell.  LBR_FMT 4: the FROM MSRs add IN_TX (61) and TSX_ABORT
	 * (62) to MISPRED (Vol. 3B, the Haswell LBR section) = 000100B;
	 * Linux intel_pmu_lbr_init() takes LBR_FORMAT_EIP_FLAGS2 as "has
	 * TSX".  Core i7-4770 (306C3): "PEBS fmt2+, 16-deep LBR, Haswell
	 * events, full-width counters, Intel PMU driver.".  PEBS_ARCH_REG
	 * 1: format 2 is format 1 plus the eventing IP and TSX tuning
	 * (Linux struct pebs_record_hsw).  SMM_FREEZE 1 derived. */
	{ .model = 0x3c, .lbr_fmt = 4, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 2, .smm_freeze = 1, .fw_write = 1 },
	/* Broadwell (the Haswell section).  Core i7-5557U (306D4): "PEBS
	 * fmt2+, 16-deep LBR, Broadwell events, full-width counters, Intel
	 * PMU driver.": format 2, TRAP SET, full-width.  LBR_FMT 4 as
	 * Haswell (Linux's Broadwell case uses intel_pmu_lbr_init_hsw()). */
	{ .model = 0x3d, .lbr_fmt = 4, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 2, .smm_freeze = 1, .fw_write = 1 },
	/* Skylake client.  LBR_FMT 5: 32 entries with MSR_LBR_INFO_x (cycle
	 * count, MISPRED, TSX; Vol. 3B, the Skylake LBR section) = 000101B;
	 * Linux intel_pmu_lbr_init_skl() (lbr_info = MSR_LBR_INFO_0).  Core
	 * i7-6700HQ and Core i3-6100 (506E3): "PEBS fmt3+, 32-deep LBR,
	 * Skylake events, full-width counters, Intel PMU driver.".
	 * PEBS_ARCH_REG 1: format 3 is format 2 plus the TSC (Linux struct
	 * pebs_record_skl).  SMM_FREEZE 1 derived. */
	{ .model = 0x5e, .lbr_fmt = 5, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 3, .smm_freeze = 1, .fw_write = 1 },
	/* Skylake mobile.  Core i7-6500U and i5-6200U (406E3): "PEBS
	 * fmt3+, 32-deep LBR, Skylake events, full-width counters, Intel
	 * PMU driver.". */
	{ .model = 0x4e, .lbr_fmt = 5, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 3, .smm_freeze = 1, .fw_write = 1 },
	/* Skylake-SP / Cascade Lake.  Xeon Gold 5215 (50657): "PEBS fmt3+,
	 * Skylake events, 32-deep LBR, full-width counters, Intel PMU
	 * driver.". */
	{ .model = 0x55, .lbr_fmt = 5, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 3, .smm_freeze = 1, .fw_write = 1 },
	/* Ice Lake client.  Core i5-1035G7 (706E5): "PEBS fmt4+-baseline,
	 * AnyThread deprecated, Icelake events, 32-deep LBR, full-width
	 * counters, Intel PMU driver.": format 4, trap, baseline, full-
	 * width, and no "PEBS-via-PT" (bit 16 clear; Linux printed that one
	 * before it printed "AnyThread deprecated").  LBR_FMT 5: legacy
	 * LBRs with LBR_INFO (Linux's Ice Lake case calls
	 * intel_pmu_lbr_init_skl(); "32-deep LBR").  PERF_METRICS 1: Vol.
	 * 3B, the Ice Lake section's PERF_METRICS MSR, which exists when
	 * IA32_PERF_CAPABILITIES[15] is set; Linux's Ice Lake case reads the
	 * topdown events from it (num_topdown_events = 4).
	 * PEBS_ARCH_REG 1 and SMM_FREEZE 1 derived (the adaptive record's
	 * GPR group saves the registers). */
	{ .model = 0x7e, .lbr_fmt = 5, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 4, .smm_freeze = 1, .fw_write = 1, .pebs_baseline = 1,
	  .perf_metrics = 1 },
	/* Ice Lake server (Sunny Cove, as 06_7EH; Linux's Ice Lake case
	 * takes both).  Xeon Silver 4314 (606A6; version 5): "PEBS
	 * fmt4+-baseline, Icelake events, 32-deep LBR, full-width counters,
	 * Intel PMU driver.": format 4, trap, baseline, full-width; that
	 * kernel predates "AnyThread deprecated", so bit 16 is not settled
	 * by it: assumed clear as 06_7EH. */
	{ .model = 0x6a, .lbr_fmt = 5, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 4, .smm_freeze = 1, .fw_write = 1, .pebs_baseline = 1,
	  .perf_metrics = 1 },
	/* Sapphire Rapids.  A Linux 6.10 KVM guest on a Xeon Gold 6438Y+
	 * (806F8): "PEBS fmt4+-baseline" (KVM passes the host's PEBS bits):
	 * trap, baseline; format 4 derived as the row's comment says (6.10
	 * printed "fmt4" for 5 too; SPR's 8 GP + 4 fixed counters fit the
	 * format-4 reset area, and Linux enables format-5 features for SPR
	 * by model).  LBR_FMT 3FH: architectural LBRs (CPUID.07H:EDX[19];
	 * Linux intel_pmu_arch_lbr_init(), "Architectural LBR"), as the
	 * row derives it.  PERF_METRICS 1 (Linux's SPR case: 8 topdown
	 * events).  PEBS_ARCH_REG, SMM_FREEZE, FW_WRITE 1 derived; bit 16
	 * assumed clear. */
	{ .model = 0x8f, .lbr_fmt = 0x3f, .pebs_trap = 1,
	  .pebs_arch_reg = 1, .pebs_fmt = 4, .smm_freeze = 1, .fw_write = 1,
	  .pebs_baseline = 1, .perf_metrics = 1 },
	/* Bonnell (n270 / Atom 230).  The part: Atom N450 and N550 (06_1CH
	 * stepping A): "PEBS fmt0+, Atom events, Intel PMU driver.":
	 * format 0, trap; cleared by the rule.  LBR_FMT 0: assumed (the
	 * row's: the N270 has no Intel 64).  SMM_FREEZE 0, FW_WRITE 0:
	 * assumed (those logs are of kernels that may not print
	 * "full-width counters"). */
	{ .model = 0x1c, .pebs_trap = 1, .pebs_fmt = 0, .no_pebs = 1 },
	/* Goldmont (Atom C3958).  The part's PEBS (reduced skid, PMC0 only:
	 * Linux intel_glm_pebs_event_constraints) is cleared by the rule;
	 * no boot log of it was found.  LBR_FMT 6: the SDM's Goldmont
	 * section (Vol. 3B §17.6 of order no. 325384-059US): "Supports new
	 * LBR format encoding 00110b" (Linux LBR_FORMAT_TIME).
	 * SMM_FREEZE 1 assumed.  FW_WRITE 1 assumed: seen on Goldmont Plus
	 * (06_7AH, Celeron N4120 and Pentium Silver N5000: "full-width
	 * counters"). */
	{ .model = 0x5f, .lbr_fmt = 6, .smm_freeze = 1, .fw_write = 1,
	  .no_pebs = 1 },
	/* Tremont (Snowridge).  The part: Celeron N5105 (06_9CH, a sibling
	 * by RULE_SIBLING): "PEBS fmt4+-baseline, PEBS-via-PT, AnyThread
	 * deprecated, Tremont events, 32-deep LBR, full-width counters,
	 * Intel PMU driver.": format 4, trap, baseline, full-width, and PEBS
	 * via PT (cleared by its rule).  PEBS_ARCH_REG 1 derived as on Ice
	 * Lake (the adaptive record's GPR group saves the registers).
	 * LBR_FMT 5 assumed ("32-deep LBR": Linux's Tremont case calls
	 * intel_pmu_lbr_init_skl()).  SMM_FREEZE 1 assumed. */
	{ .model = 0x86, .lbr_fmt = 5, .pebs_trap = 1, .pebs_arch_reg = 1,
	  .pebs_fmt = 4, .smm_freeze = 1, .fw_write = 1, .pebs_baseline = 1,
	  .pebs_pt = 1, .no_pebs_pt = 1 },
	/* Knights Mill (the Knights Landing section).  LBR_FMT 1: derived,
	 * Linux intel_pmu_lbr_init_knl() turns a reported LBR_FORMAT_LIP (1)
	 * into EIP_FLAGS ("Knights Landing does have MISPREDICT bit"): the
	 * parts report 1.  The part's PEBS (PMC0 only, Linux
	 * intel_slm_pebs_event_constraints) is cleared by the rule; no boot
	 * log of it was found.  SMM_FREEZE 0, FW_WRITE 0 assumed. */
	{ .model = 0x85, .lbr_fmt = 1, .no_pebs = 1 },
};

/* IA32_PERF_CAPABILITIES bits (Vol. 4 Table 2-2). */
#define PC_PEBS_TRAP		(1ull << 6)
#define PC_PEBS_ARCH_REG	(1ull << 7)
#define PC_PEBS_FMT(f)		((uint64_t)(f) << 8)
#define PC_SMM_FREEZE		(1ull << 12)
#define PC_FW_WRITE		(1ull << 13)
#define PC_PEBS_BASELINE	(1ull << 14)
#define PC_PERF_METRICS		(1ull << 15)
#define PC_PEBS_PT		(1ull << 16)

static int caps_rs_sane(const struct caps_rs *c)
{
	return c->lbr_fmt <= 0x3f && c->pebs_fmt <= 0xf &&
	       c->pebs_trap <= 1 && c->pebs_arch_reg <= 1 &&
	       c->smm_freeze <= 1 && c->fw_write <= 1 &&
	       c->pebs_baseline <= 1 && c->perf_metrics <= 1 &&
	       c->pebs_pt <= 1;
}

/* The value the restated fields make. */
static uint64_t caps_assemble(const struct caps_rs *c)
{
	uint64_t pebs = (c->pebs_trap ? PC_PEBS_TRAP : 0) |
			(c->pebs_arch_reg ? PC_PEBS_ARCH_REG : 0) |
			PC_PEBS_FMT(c->pebs_fmt) |
			(c->pebs_baseline ? PC_PEBS_BASELINE : 0) |
			(c->pebs_pt && !c->no_pebs_pt ? PC_PEBS_PT : 0);
	uint64_t rest = c->lbr_fmt |
			(c->smm_freeze ? PC_SMM_FREEZE : 0) |
			(c->fw_write ? PC_FW_WRITE : 0) |
			(c->perf_metrics ? PC_PERF_METRICS : 0);

	return rest | (c->no_pebs ? 0 : pebs);
}

/* The names of the bits two values differ in, for the message. */
static void caps_diff(uint64_t a, uint64_t b, char *out, size_t n)
{
	static const struct { uint64_t mask; const char *name; } f[] = {
		{ 0x3f, "LBR_FMT[5:0]" }, { PC_PEBS_TRAP, "PEBS_TRAP[6]" },
		{ PC_PEBS_ARCH_REG, "PEBS_ARCH_REG[7]" },
		{ PC_PEBS_FMT(0xf), "PEBS_REC_FMT[11:8]" },
		{ PC_SMM_FREEZE, "SMM_FREEZE[12]" },
		{ PC_FW_WRITE, "FW_WRITE[13]" },
		{ PC_PEBS_BASELINE, "PEBS_BASELINE[14]" },
		{ PC_PERF_METRICS, "PERF_METRICS[15]" },
		{ PC_PEBS_PT, "PEBS_OUTPUT_PT[16]" },
		{ ~0x1ffffull, "bits 63:17" },
	};
	size_t at = 0;

	out[0] = 0;
	for (unsigned i = 0; i < N(f) && at < n; i++)
		if ((a ^ b) & f[i].mask)
			at += (size_t)snprintf(out + at, n - at, " %s",
					       f[i].name);
}

static void test_rows_perf_caps_restated(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(caps); i++) {
		const struct perfmon_caps_row *r =
			perfmon_caps_row_for(6, caps[i].model);
		uint64_t want = caps_assemble(&caps[i]);
		char diff[160];

		if (!r)
			fail_msg("no row of 06_%02XH", caps[i].model);
		if (!caps_rs_sane(&caps[i]))
			fail_msg("06_%02XH: a restated field is out of its "
				 "range", caps[i].model);
		if (r->perf_caps == want)
			continue;
		caps_diff(r->perf_caps, want, diff, sizeof(diff));
		fail_msg("06_%02XH (%s): IA32_PERF_CAPABILITIES 0x%llx, "
			 "restated 0x%llx; differ in%s", caps[i].model,
			 r->name, (unsigned long long)r->perf_caps,
			 (unsigned long long)want, diff);
	}
}

/* ---- every row restated, and only the rows ----------------------------- */

static unsigned dumps_of(unsigned model, int own)
{
	unsigned n = 0;

	for (unsigned i = 0; i < N(dumps); i++)
		n += dumps[i].model == model &&
		     (!own || dumps[i].rule != RULE_SIBLING);
	return n;
}

static unsigned caps_of(unsigned model)
{
	unsigned n = 0;

	for (unsigned i = 0; i < N(caps); i++)
		n += caps[i].model == model;
	return n;
}

static void test_rows_counted(void **state)
{
	(void)state;
	assert_int_equal(perfmon_caps_table_len, ROWS_IN_TABLE);
	assert_int_equal(N(caps), ROWS_IN_TABLE);
	for (unsigned i = 0; i < perfmon_caps_table_len; i++) {
		const struct perfmon_caps_row *r = &perfmon_caps_table[i];

		if (r->family != 6)
			fail_msg("%s: family %u", r->name, r->family);
		if (caps_of(r->model) != 1)
			fail_msg("06_%02XH (%s): %u IA32_PERF_CAPABILITIES "
				 "restatements", r->model, r->name,
				 caps_of(r->model));
		if (!dumps_of(r->model, 0))
			fail_msg("06_%02XH (%s): no CPUID dump restated",
				 r->model, r->name);
	}
	/* only 06_86H and 06_85H lack a dump of their own (and have the
	 * SDM restatement of test_rows_without_dump) */
	for (unsigned i = 0; i < perfmon_caps_table_len; i++) {
		unsigned m = perfmon_caps_table[i].model;

		if (!dumps_of(m, 1) && m != 0x86 && m != 0x85)
			fail_msg("06_%02XH: only a sibling's dump", m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_counted),
		cmocka_unit_test(test_rows_cpuid_restated),
		cmocka_unit_test(test_rows_without_dump),
		cmocka_unit_test(test_rows_perf_caps_restated),
	};

	return cmocka_run_group_tests_name("perfmon_caps_rows", tests, NULL,
					   NULL);
}
