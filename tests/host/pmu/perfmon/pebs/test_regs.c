/* Host tests for pmu/perfmon/pebs/regs.c and the precise-event table
 * (pmu/perfmon/pebs/events.c, included here for its static table).
 *
 * Every expected value is typed here from the sources, not computed with
 * the module's helpers:
 *   - the Core 2 record (Intel SDM Vol. 3B, order no. 253669-060US,
 *     §18.6.2.4): 00H RFLAGS, 08H RIP, 10H RAX, 18H RBX, 20H RCX, 28H RDX,
 *     30H RSI, 38H RDI, 40H RBP, 48H RSP, 50H-88H R8-R15 (144 bytes);
 *   - Table 18-23 "PEBS Record Format for Intel Core i7 Processor Family"
 *     adds 90H IA32_PERF_GLOBAL_STATUS, 98H Data Linear Address, A0H Data
 *     Source Encoding, A8H Latency value (176 bytes);
 *   - Table 18-44 (Haswell) adds B0H EventingIP, B8H TX Abort Information
 *     (192 bytes); Table 18-55 (Skylake) adds C0H TSC (200 bytes);
 *   - the 32-bit record (§17.4.9, the 40-byte "PEBS Record Format"
 *     figure of the 32-bit DS format): 00H EFLAGS, 04H linear IP, 08H EAX,
 *     0CH EBX, 10H ECX, 14H EDX, 18H ESI, 1CH EDI, 20H EBP, 24H ESP;
 *   - formats 4-5 (adaptive PEBS): the record size is kvm-unit-tests'
 *     x86/pmu_pebs.c arithmetic, basic 32 + meminfo 32 + GPRs 144 + XMMs
 *     256 + LBRs 24 * (DATA_CFG[31:24] + 1), the groups in that order;
 *   - PEBS counters: Core 2 PMC0, Nehalem-Skylake PMC0-3 (with LL_EN
 *     35:32 and PS_EN 63 in IA32_PEBS_ENABLE), Ice Lake on every counter
 *     with PERF_CAPABILITIES.PEBS_BASELINE (SDM Vol. 3B §18.6.2.4 Core 2,
 *     §18.8.1.1 Nehalem, Table 18-54 Skylake "No PEBS on PMC4-PMC7";
 *     Linux arch/x86/events/intel/ds.c constraint tables);
 *   - the precise events: Linux tools/perf/pmu-events JSON ("PEBS"
 *     fields) of nehalemep, haswell, skylake and icelake, and the Core 2
 *     constraint table of Linux arch/x86/events/intel/ds.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/perfmon/pebs/regs.h"
#include "pmu/perfmon/pebs/events.c"
#include "pmu/sem.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: pmu/perfmon/pebs/regs.c pmu/perfmon/regs.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct row {
	enum pebs_field f;
	int offset;
};

/* Core 2 (format 0), in the SDM's order. */
static const struct row core2[] = {
	{ PEBS_F_FLAGS, 0x00 }, { PEBS_F_IP, 0x08 },
	{ PEBS_F_AX, 0x10 }, { PEBS_F_BX, 0x18 },
	{ PEBS_F_CX, 0x20 }, { PEBS_F_DX, 0x28 },
	{ PEBS_F_SI, 0x30 }, { PEBS_F_DI, 0x38 },
	{ PEBS_F_BP, 0x40 }, { PEBS_F_SP, 0x48 },
	{ PEBS_F_R8, 0x50 }, { PEBS_F_R9, 0x58 },
	{ PEBS_F_R10, 0x60 }, { PEBS_F_R11, 0x68 },
	{ PEBS_F_R12, 0x70 }, { PEBS_F_R13, 0x78 },
	{ PEBS_F_R14, 0x80 }, { PEBS_F_R15, 0x88 },
};
/* Table 18-23: what format 1 adds. */
static const struct row nhm_adds[] = {
	{ PEBS_F_STATUS, 0x90 }, { PEBS_F_DLA, 0x98 },
	{ PEBS_F_DSE, 0xa0 }, { PEBS_F_LAT, 0xa8 },
};
/* Table 18-44: format 2. */
static const struct row hsw_adds[] = {
	{ PEBS_F_EVENTING_IP, 0xb0 }, { PEBS_F_TSX, 0xb8 },
};
/* Table 18-55: format 3. */
static const struct row skl_adds[] = {
	{ PEBS_F_TSC, 0xc0 },
};

/* expected[fmt][f]: the offset, -1 where the format lacks the field. */
static void expected_offsets(int expected[4][PEBS_F_NR])
{
	const struct {
		const struct row *rows;
		unsigned n, since;
	} tables[] = {
		{ core2, N(core2), 0 }, { nhm_adds, N(nhm_adds), 1 },
		{ hsw_adds, N(hsw_adds), 2 }, { skl_adds, N(skl_adds), 3 },
	};

	for (unsigned fmt = 0; fmt < 4; fmt++)
		for (unsigned f = 0; f < PEBS_F_NR; f++)
			expected[fmt][f] = -1;
	for (unsigned t = 0; t < N(tables); t++)
		for (unsigned fmt = tables[t].since; fmt < 4; fmt++)
			for (unsigned i = 0; i < tables[t].n; i++)
				expected[fmt][tables[t].rows[i].f] =
					tables[t].rows[i].offset;
}

static void test_field_offsets(void **state)
{
	int expected[4][PEBS_F_NR];

	(void)state;
	expected_offsets(expected);
	for (unsigned fmt = 0; fmt < 4; fmt++)
		for (unsigned f = 0; f < PEBS_F_NR; f++)
			if (pebs_field_offset(fmt, f) != expected[fmt][f])
				fail_msg("format %u field %u: offset %d, SDM "
					 "%d", fmt, f,
					 pebs_field_offset(fmt, f),
					 expected[fmt][f]);
	/* every field of format 0 is there, the rest are not */
	assert_int_equal(pebs_field_offset(0, PEBS_F_R15), 0x88);
	assert_int_equal(pebs_field_offset(0, PEBS_F_STATUS), -1);
	assert_int_equal(pebs_field_offset(1, PEBS_F_LAT), 0xa8);
	assert_int_equal(pebs_field_offset(1, PEBS_F_EVENTING_IP), -1);
	assert_int_equal(pebs_field_offset(2, PEBS_F_TSX), 0xb8);
	assert_int_equal(pebs_field_offset(2, PEBS_F_TSC), -1);
	assert_int_equal(pebs_field_offset(3, PEBS_F_TSC), 0xc0);
}

static void test_field_offsets_adaptive_and_bad(void **state)
{
	(void)state;
	/* formats 4 on are adaptive: no fixed offsets */
	for (unsigned fmt = 4; fmt <= 7; fmt++)
		for (unsigned f = 0; f < PEBS_F_NR; f++)
			assert_int_equal(pebs_field_offset(fmt, f), -1);
	for (unsigned fmt = 0; fmt < 4; fmt++)
		assert_int_equal(pebs_field_offset(fmt, PEBS_F_NR), -1);
}

/* §17.4.9: the 40-byte record, typed from the figure. */
static void test_record32(void **state)
{
	static const struct {
		enum pebs_field f;
		int off;
		const char *name;
	} sdm[] = {
		{ PEBS_F_FLAGS, 0x00, "EFLAGS" }, { PEBS_F_IP, 0x04, "EIP" },
		{ PEBS_F_AX, 0x08, "EAX" }, { PEBS_F_BX, 0x0c, "EBX" },
		{ PEBS_F_CX, 0x10, "ECX" }, { PEBS_F_DX, 0x14, "EDX" },
		{ PEBS_F_SI, 0x18, "ESI" }, { PEBS_F_DI, 0x1c, "EDI" },
		{ PEBS_F_BP, 0x20, "EBP" }, { PEBS_F_SP, 0x24, "ESP" },
	};
	int last_end = 0;

	(void)state;
	assert_int_equal(PEBS_RECORD32_SIZE, 40);
	for (unsigned i = 0; i < N(sdm); i++) {
		if (pebs32_field_offset(sdm[i].f) != sdm[i].off)
			fail_msg("%s: offset %d, SDM %d", sdm[i].name,
				 pebs32_field_offset(sdm[i].f), sdm[i].off);
		/* the GPR fields name the same registers as the 64-bit ones */
		if (sdm[i].off + 4 > last_end)
			last_end = sdm[i].off + 4;
	}
	assert_int_equal(last_end, 40);
	for (int f = PEBS_F_R8; f < PEBS_F_NR; f++)
		assert_int_equal(pebs32_field_offset((enum pebs_field)f), -1);
	assert_int_equal(pebs32_field_offset(PEBS_F_NR), -1);
	assert_int_equal(pebs32_field_offset((enum pebs_field)-1), -1);
}

static void test_fixed_sizes(void **state)
{
	(void)state;
	assert_int_equal(pebs_fixed_record_size(0), 144);
	assert_int_equal(pebs_fixed_record_size(1), 176);
	assert_int_equal(pebs_fixed_record_size(2), 192);
	assert_int_equal(pebs_fixed_record_size(3), 200);
	assert_int_equal(pebs_fixed_record_size(4), 0);
	assert_int_equal(pebs_fixed_record_size(5), 0);
	assert_int_equal(pebs_fixed_record_size(6), 0);
	/* each record ends 8 bytes after its last field */
	assert_int_equal(pebs_field_offset(0, PEBS_F_R15) + 8, 144);
	assert_int_equal(pebs_field_offset(1, PEBS_F_LAT) + 8, 176);
	assert_int_equal(pebs_field_offset(2, PEBS_F_TSX) + 8, 192);
	assert_int_equal(pebs_field_offset(3, PEBS_F_TSC) + 8, 200);
	/* formats 0-3 ignore DATA_CFG */
	assert_int_equal(pebs_record_size(0, 0xff00000full, 1), 144);
	assert_int_equal(pebs_record_size(1, 0xf, 1), 176);
	assert_int_equal(pebs_record_size(2, 0, 0), 192);
	assert_int_equal(pebs_record_size(3, 0xf, 0), 200);
	assert_int_equal(pebs_record_size(6, 0xf, 1), 0);
}

static void test_gprs(void **state)
{
	static const struct {
		enum pebs_field f;
		int gpr;
		const char *name;
	} gprs[] = {
		{ PEBS_F_AX, 0, "RAX" }, { PEBS_F_CX, 1, "RCX" },
		{ PEBS_F_DX, 2, "RDX" }, { PEBS_F_BX, 3, "RBX" },
		{ PEBS_F_SP, 4, "RSP" }, { PEBS_F_BP, 5, "RBP" },
		{ PEBS_F_SI, 6, "RSI" }, { PEBS_F_DI, 7, "RDI" },
		{ PEBS_F_R8, 8, "R8" }, { PEBS_F_R9, 9, "R9" },
		{ PEBS_F_R10, 10, "R10" }, { PEBS_F_R11, 11, "R11" },
		{ PEBS_F_R12, 12, "R12" }, { PEBS_F_R13, 13, "R13" },
		{ PEBS_F_R14, 14, "R14" }, { PEBS_F_R15, 15, "R15" },
	};
	unsigned seen = 0;

	(void)state;
	for (unsigned i = 0; i < N(gprs); i++)
		if (pebs_field_gpr(gprs[i].f) != gprs[i].gpr)
			fail_msg("%s: encoding %d, SDM %d", gprs[i].name,
				 pebs_field_gpr(gprs[i].f), gprs[i].gpr);
	for (unsigned f = 0; f < PEBS_F_NR; f++) {
		int g = pebs_field_gpr(f);

		assert_true(g >= -1 && g < 16);
		if (g >= 0)
			seen |= 1u << g;
	}
	assert_int_equal(seen, 0xffff);	/* each GPR once */
	assert_int_equal(pebs_field_gpr(PEBS_F_FLAGS), -1);
	assert_int_equal(pebs_field_gpr(PEBS_F_IP), -1);
	assert_int_equal(pebs_field_gpr(PEBS_F_STATUS), -1);
	assert_int_equal(pebs_field_gpr(PEBS_F_NR), -1);
}

/* kvm-unit-tests' size: basic 32 + meminfo 32 + GPRs 144 + XMMs 256 +
 * 24 per LBR entry. */
static unsigned kut_size(unsigned cfg_low, unsigned n_lbr)
{
	return 32 + (cfg_low & 1 ? 32 : 0) + (cfg_low & 2 ? 144 : 0) +
	       (cfg_low & 4 ? 256 : 0) + (cfg_low & 8 ? 24 * n_lbr : 0);
}

static void test_adaptive_sizes(void **state)
{
	static const unsigned lbr_counts[] = { 1, 2, 8, 16, 32, 256 };

	(void)state;
	for (unsigned k = 0; k < N(lbr_counts); k++) {
		unsigned n = lbr_counts[k];

		for (unsigned low = 0; low < 16; low++) {
			uint64_t cfg = low | (uint64_t)(n - 1) << 24;

			for (unsigned fmt = 4; fmt <= 5; fmt++) {
				if (pebs_record_size(fmt, cfg, 1) !=
				    kut_size(low, n))
					fail_msg("fmt %u cfg %#llx: %u, "
						 "expected %u", fmt,
						 (unsigned long long)cfg,
						 pebs_record_size(fmt, cfg,
								  1),
						 kut_size(low, n));
				/* without Adaptive_Record: basic only */
				assert_int_equal(
					pebs_record_size(fmt, cfg, 0), 32);
			}
		}
	}
	/* a few by hand */
	assert_int_equal(pebs_record_size(4, 0x0, 1), 32);
	assert_int_equal(pebs_record_size(4, 0x1, 1), 64);
	assert_int_equal(pebs_record_size(4, 0x2, 1), 176);
	assert_int_equal(pebs_record_size(4, 0x4, 1), 288);
	assert_int_equal(pebs_record_size(4, 0x8, 1), 56);
	assert_int_equal(pebs_record_size(4, 0xf, 1), 488);
	assert_int_equal(pebs_record_size(5, 0x1f00000full, 1), 1232);
	/* LBR count bits without the LBR group: no LBRs */
	assert_int_equal(pebs_record_size(4, 0x1f000007ull, 1), 464);
}

static void test_adaptive_offsets(void **state)
{
	struct pebs_adaptive a;

	(void)state;
	for (unsigned low = 0; low < 16; low++) {
		unsigned at = 32;

		pebs_adaptive_layout(low | 3ull << 24, 1, &a);
		assert_int_equal(a.meminfo, low & 1 ? at : 0);
		at += low & 1 ? 32 : 0;
		assert_int_equal(a.gprs, low & 2 ? at : 0);
		at += low & 2 ? 144 : 0;
		assert_int_equal(a.xmms, low & 4 ? at : 0);
		at += low & 4 ? 256 : 0;
		assert_int_equal(a.lbrs, low & 8 ? at : 0);
		assert_int_equal(a.n_lbr, low & 8 ? 4 : 0);
		assert_int_equal(a.size, kut_size(low, 4));
		/* the adaptive bit clear: cfg ignored */
		memset(&a, 0x5a, sizeof(a));
		pebs_adaptive_layout(low | 3ull << 24, 0, &a);
		assert_int_equal(a.meminfo, 0);
		assert_int_equal(a.gprs, 0);
		assert_int_equal(a.xmms, 0);
		assert_int_equal(a.lbrs, 0);
		assert_int_equal(a.n_lbr, 0);
		assert_int_equal(a.size, 32);
	}
	/* all groups: 32 | 64 | 208 | 464 */
	pebs_adaptive_layout(0xf, 1, &a);
	assert_int_equal(a.meminfo, 32);
	assert_int_equal(a.gprs, 64);
	assert_int_equal(a.xmms, 208);
	assert_int_equal(a.lbrs, 464);
	assert_int_equal(a.n_lbr, 1);
	assert_int_equal(a.size, 488);
}

static void test_capable_counters(void **state)
{
	(void)state;
	/* format 0: PMC0 only */
	assert_int_equal(pebs_capable_counters(0, 2, 0x7, 1), 0x1);
	assert_int_equal(pebs_capable_counters(0, 0, 0x7, 1), 0x0);
	/* formats 1-3: PMC0-3, never fixed */
	for (unsigned fmt = 1; fmt <= 3; fmt++) {
		assert_int_equal(pebs_capable_counters(fmt, 4, 0x7, 1), 0xf);
		assert_int_equal(pebs_capable_counters(fmt, 8, 0x7, 1), 0xf);
		assert_int_equal(pebs_capable_counters(fmt, 2, 0x7, 0), 0x3);
		assert_int_equal(pebs_capable_counters(fmt, 0, 0x7, 0), 0x0);
	}
	/* formats 4-5: every GP, fixed with baseline */
	assert_int_equal(pebs_capable_counters(4, 8, 0x7, 1),
			 0x00000007000000ffull);
	assert_int_equal(pebs_capable_counters(4, 8, 0x7, 0), 0xffull);
	assert_int_equal(pebs_capable_counters(5, 8, 0xf, 1),
			 0x0000000f000000ffull);
	assert_int_equal(pebs_capable_counters(5, 4, 0x5, 1),
			 0x000000050000000full);
	assert_int_equal(pebs_capable_counters(5, 32, 0, 1), 0xffffffffull);
	/* unknown formats: none */
	assert_int_equal(pebs_capable_counters(6, 8, 0x7, 1), 0);
}

static void test_enable_valid(void **state)
{
	(void)state;
	assert_int_equal(pebs_enable_valid(0, 2, 0x7, 0, 0), 0x1);
	for (unsigned fmt = 1; fmt <= 3; fmt++) {
		/* PMC0-3, LL_EN_PMC0-3 (35:32); 63:36 reserved (Nehalem,
		 * §18.8.1.1) */
		assert_int_equal(pebs_enable_valid(fmt, 4, 0x7, 0, 0),
				 0x0000000f0000000full);
		assert_int_equal(pebs_enable_valid(fmt, 8, 0x7, 1, 0),
				 0x0000000f0000000full);
		assert_int_equal(pebs_enable_valid(fmt, 2, 0x7, 0, 0),
				 0x0000000300000003ull);
		/* and PS_EN (63) where it exists (Sandy Bridge, §18.9.4) */
		assert_int_equal(pebs_enable_valid(fmt, 4, 0x7, 0, 1),
				 0x8000000f0000000full);
	}
	assert_int_equal(pebs_enable_valid(4, 8, 0x7, 1, 0),
			 0x00000007000000ffull);
	assert_int_equal(pebs_enable_valid(4, 8, 0x7, 0, 0), 0xffull);
	assert_int_equal(pebs_enable_valid(5, 8, 0xf, 1, 0),
			 0x0000000f000000ffull);
}

/* ---- precise events ------------------------------------------------- */

static void test_events_sane(void **state)
{
	(void)state;
	assert_true(pebs_events_len > 0);
	for (unsigned i = 0; i < pebs_events_len; i++) {
		const struct pebs_event *e = &pebs_events[i];

		assert_non_null(e->name);
		assert_non_null(e->cite);
		assert_true(e->uarch_lo != PERFMON_UARCH_UNKNOWN);
		assert_true(e->uarch_lo <= e->uarch_hi);
		assert_true(e->sem != 0);
		assert_true(strlen(e->cite) <= 48);
		/* no other row answers the same (uarch, event, umask) */
		for (unsigned j = i + 1; j < pebs_events_len; j++) {
			const struct pebs_event *o = &pebs_events[j];

			assert_false(o->event == e->event &&
				     o->umask == e->umask &&
				     o->uarch_lo <= e->uarch_hi &&
				     e->uarch_lo <= o->uarch_hi);
		}
	}
}

#define INSNS SEM_BIT(SEM_INSTRUCTIONS)
#define BRS (SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR))
#define LDS SEM_BIT(SEM_LOADS)
#define STS SEM_BIT(SEM_STORES)

#define CORE PERFMON_UARCH_CORE
#define NHM PERFMON_UARCH_NEHALEM
#define WSM PERFMON_UARCH_WESTMERE
#define SNB PERFMON_UARCH_SANDY_BRIDGE
#define HSW PERFMON_UARCH_HASWELL
#define SKL PERFMON_UARCH_SKYLAKE
#define ICL PERFMON_UARCH_ICE_LAKE
#define SPR PERFMON_UARCH_SAPPHIRE_RAPIDS
#define TNT PERFMON_UARCH_TREMONT

/* Precise on microarchitectures lo..hi (SDM Vol. 3B, 253669-060US, each
 * one's PEBS events table; Tremont: below). */
static const struct {
	enum perfmon_uarch lo, hi;
	unsigned event, umask;
	const char *name;
	uint32_t sem;
	enum pebs_data data;
} hits[] = {
	/* Core 2: INST_RETIRED.ANY_P 00C0H on PMC0 (§18.6.2.4) */
	{ CORE, CORE, 0xc0, 0x00, "INST_RETIRED.ANY_P", INSNS,
	  PEBS_DATA_NONE },
	/* Nehalem, Westmere: C0H/01H, C4H/04H, 0BH/01H, 0BH/02H (§18.8.1.1;
	 * "PEBS": "1") */
	{ NHM, WSM, 0xc0, 0x01, "INST_RETIRED.ANY_P", INSNS, PEBS_DATA_NONE },
	{ NHM, WSM, 0xc4, 0x04, "BR_INST_RETIRED.ALL_BRANCHES", BRS,
	  PEBS_DATA_NONE },
	{ NHM, WSM, 0x0b, 0x01, "MEM_INST_RETIRED.LOADS", LDS,
	  PEBS_DATA_NONE },
	{ NHM, WSM, 0x0b, 0x02, "MEM_INST_RETIRED.STORES", STS,
	  PEBS_DATA_NONE },
	/* Sandy Bridge/Ivy Bridge (§18.9.4.2): C0H/01H is PREC_DIST
	 * (§18.9.4.4), memory events D0H MEM_UOPS_RETIRED, their data
	 * address only for load latency / precise store (§18.9.4.1) */
	{ SNB, SNB, 0xc0, 0x01, "INST_RETIRED.PREC_DIST", INSNS,
	  PEBS_DATA_NONE },
	{ SNB, SNB, 0xc4, 0x04, "BR_INST_RETIRED.ALL_BRANCHES", BRS,
	  PEBS_DATA_NONE },
	{ SNB, SNB, 0xd0, 0x81, "MEM_UOPS_RETIRED.ALL_LOADS", LDS,
	  PEBS_DATA_NONE },
	{ SNB, SNB, 0xd0, 0x82, "MEM_UOPS_RETIRED.ALL_STORES", STS,
	  PEBS_DATA_NONE },
	/* Haswell, Skylake: PREC_DIST C0H/01H, ALL_BRANCHES_PEBS C4H/04H
	 * ("PEBS": "2"); Haswell D0H/81H, D0H/82H MEM_UOPS_RETIRED */
	{ HSW, SKL, 0xc0, 0x01, "INST_RETIRED.PREC_DIST", INSNS,
	  PEBS_DATA_NONE },
	{ HSW, SKL, 0xc4, 0x04, "BR_INST_RETIRED.ALL_BRANCHES_PEBS", BRS,
	  PEBS_DATA_NONE },
	{ HSW, HSW, 0xd0, 0x81, "MEM_UOPS_RETIRED.ALL_LOADS", LDS,
	  PEBS_DATA_LOAD },
	{ HSW, HSW, 0xd0, 0x82, "MEM_UOPS_RETIRED.ALL_STORES", STS,
	  PEBS_DATA_STORE },
	/* Skylake on: MEM_INST_RETIRED D0H/81H, D0H/82H (Data_LA) */
	{ SKL, SPR, 0xd0, 0x81, "MEM_INST_RETIRED.ALL_LOADS", LDS,
	  PEBS_DATA_LOAD },
	{ SKL, SPR, 0xd0, 0x82, "MEM_INST_RETIRED.ALL_STORES", STS,
	  PEBS_DATA_STORE },
	/* Ice Lake on: C0H/00H and C4H/00H "PEBS": "1" */
	{ ICL, SPR, 0xc0, 0x00, "INST_RETIRED.ANY_P", INSNS, PEBS_DATA_NONE },
	{ ICL, SPR, 0xc4, 0x00, "BR_INST_RETIRED.ALL_BRANCHES", BRS,
	  PEBS_DATA_NONE },
	/* Tremont: Goldmont's precise events (SDM Vol. 3, 325384-059US,
	 * Table 18-19 "Precise Events Supported by the Goldmont
	 * Microarchitecture": INST_RETIRED ANY 00H, BR_INST_RETIRED
	 * ALL_BRANCHES 00H, MEM_UOPS_RETIRED D0H ALL_LOADS 81H, ALL_STORES
	 * 82H); Linux snowridgex pipeline.json and cache.json: the same
	 * with "PEBS": "1", the memory ones "Data_LA": "1" */
	{ TNT, TNT, 0xc0, 0x00, "INST_RETIRED.ANY_P", INSNS, PEBS_DATA_NONE },
	{ TNT, TNT, 0xc4, 0x00, "BR_INST_RETIRED.ALL_BRANCHES", BRS,
	  PEBS_DATA_NONE },
	{ TNT, TNT, 0xd0, 0x81, "MEM_UOPS_RETIRED.ALL_LOADS", LDS,
	  PEBS_DATA_LOAD },
	{ TNT, TNT, 0xd0, 0x82, "MEM_UOPS_RETIRED.ALL_STORES", STS,
	  PEBS_DATA_STORE },
};

/* Not precise on that microarchitecture. */
static const struct {
	enum perfmon_uarch u;
	unsigned event, umask;
} misses[] = {
	{ CORE, 0xc4, 0x00 }, { CORE, 0xc0, 0x01 },
	{ NHM, 0xc0, 0x00 }, { NHM, 0xc4, 0x00 }, { NHM, 0xd0, 0x81 },
	{ WSM, 0xd0, 0x82 },
	/* Sandy Bridge: Nehalem's 0BH events are not in its table */
	{ SNB, 0x0b, 0x01 }, { SNB, 0x0b, 0x02 }, { SNB, 0xc0, 0x00 },
	{ HSW, 0x0b, 0x01 }, { HSW, 0xc0, 0x00 },
	{ SKL, 0xc4, 0x00 },	/* Skylake: no "PEBS" field */
	{ ICL, 0xc4, 0x04 }, { ICL, 0xc0, 0x01 }, { SPR, 0x0b, 0x01 },
	/* Tremont: no PREC_DIST C0H/01H, no C4H/04H in Goldmont's table;
	 * the other Atom cores have no rows (no PEBS modelled) */
	{ TNT, 0xc0, 0x01 }, { TNT, 0xc4, 0x04 }, { TNT, 0x0b, 0x01 },
	{ PERFMON_UARCH_GOLDMONT, 0xc0, 0x00 },
	{ PERFMON_UARCH_BONNELL, 0xc0, 0x00 },
	/* Yonah has no PEBS; a CPU without a row names no uarch */
	{ PERFMON_UARCH_YONAH, 0xc0, 0x00 },
	{ PERFMON_UARCH_UNKNOWN, 0xc0, 0x00 },
};

static void test_event_hits(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(hits); i++)
		for (unsigned u = hits[i].lo; u <= hits[i].hi; u++) {
			const struct pebs_event *e =
				pebs_event_for((enum perfmon_uarch)u,
					       hits[i].event, hits[i].umask);

			if (!e)
				fail_msg("uarch %u %02XH/%02XH: not found "
					 "(%s)", u, hits[i].event,
					 hits[i].umask, hits[i].name);
			assert_string_equal(e->name, hits[i].name);
			assert_int_equal(e->event, hits[i].event);
			assert_int_equal(e->umask, hits[i].umask);
			assert_int_equal(e->sem, hits[i].sem);
			assert_int_equal(e->data, hits[i].data);
		}
}

static void test_event_misses(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(misses); i++) {
		const struct pebs_event *e =
			pebs_event_for(misses[i].u, misses[i].event,
				       misses[i].umask);

		if (e)
			fail_msg("uarch %u %02XH/%02XH: %s, expected no "
				 "precise event", misses[i].u,
				 misses[i].event, misses[i].umask, e->name);
	}
}

/* A CPU the capability table does not know (CPUID-decoded, uarch
 * unknown) takes the events of the first microarchitecture of its PEBS
 * format (PERF_CAPABILITIES bits 11:8): 0 Core, 1 Nehalem, 2 Haswell, 3
 * Skylake, 4-5 Ice Lake; a known one its own. */
static void test_events_uarch(void **state)
{
	static const enum perfmon_uarch by_fmt[] = { CORE, NHM, HSW, SKL,
						     ICL, ICL };
	struct perfmon_caps c = { .version = 3, .has_perf_caps = 1 };

	(void)state;
	for (unsigned f = 0; f < N(by_fmt); f++) {
		c.perf_caps = (uint64_t)f << 8;
		c.uarch = PERFMON_UARCH_UNKNOWN;
		assert_int_equal(pebs_events_uarch(&c), by_fmt[f]);
		c.uarch = SNB;
		assert_int_equal(pebs_events_uarch(&c), SNB);
	}
}

/* The counters on which a precise event's record is for the instruction
 * that caused the overflow, whatever the event (GLOBAL numbering: PMCn
 * bit n, fixed counter i bit 32 + i):
 *   - Ice Lake: fixed counter 0, where precise distribution moved (the
 *     SDM's Ice Lake PEBS text; Linux icl_pebs_event_constraints():
 *     INST_RETIRED.PREC_DIST 01C0H on fixed counter 0 alone);
 *   - Sapphire Rapids: fixed counter 0 and PMC0, "PDist", "no 'wait for
 *     next occurrence'" (the SDM text KVM commit 974850be0125 quotes);
 *   - Tremont: PMC0 and fixed counter 0, reduced-skid PEBS (the
 *     mechanism: SDM Vol. 3, 325384-059US, §18.7.1.2 "Reduced Skid
 *     PEBS", "precisely trap on the instruction that actually caused the
 *     counter overflow"; where Tremont has it: Linux commit 6daeb8737f8a
 *     "The generic purpose counter 0 and fixed counter 0 have less
 *     skid");
 *   - none on the others: Core 2 to Skylake have the next-event rule
 *     (§18.8.1.1), PDIR being an event's (PMC1, .pdir), not a
 *     counter's. */
static void test_overflow_record_counters(void **state)
{
	static const struct {
		enum perfmon_uarch u;
		uint64_t mask;
	} want[] = {
		{ CORE, 0 }, { NHM, 0 }, { WSM, 0 }, { SNB, 0 }, { HSW, 0 },
		{ SKL, 0 }, { ICL, 1ull << 32 }, { SPR, 1ull << 32 | 1 },
		{ TNT, 1ull << 32 | 1 }, { PERFMON_UARCH_UNKNOWN, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < N(want); i++)
		if (pebs_overflow_record_counters(want[i].u) != want[i].mask)
			fail_msg("uarch %d: %#llx, want %#llx", want[i].u,
				 (unsigned long long)
				 pebs_overflow_record_counters(want[i].u),
				 (unsigned long long)want[i].mask);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_offsets),
		cmocka_unit_test(test_field_offsets_adaptive_and_bad),
		cmocka_unit_test(test_record32),
		cmocka_unit_test(test_fixed_sizes),
		cmocka_unit_test(test_gprs),
		cmocka_unit_test(test_adaptive_sizes),
		cmocka_unit_test(test_adaptive_offsets),
		cmocka_unit_test(test_capable_counters),
		cmocka_unit_test(test_enable_valid),
		cmocka_unit_test(test_events_sane),
		cmocka_unit_test(test_event_hits),
		cmocka_unit_test(test_event_misses),
		cmocka_unit_test(test_events_uarch),
		cmocka_unit_test(test_overflow_record_counters),
	};

	return cmocka_run_group_tests_name("pebs_layout", tests, NULL, NULL);
}
