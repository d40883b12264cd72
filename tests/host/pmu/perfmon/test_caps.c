/* Host tests for pmu/perfmon/caps.c, the version rules of
 * pmu/perfmon/regs.c and the capability table (pmu/perfmon/caps_table.c):
 * CPUID.0AH decoded per version, the version rules that follow from it,
 * and every row of the table.  caps.c and caps_table.c are included here,
 * for what they keep static (the table, a row's capabilities).  Every
 * field of every row, word for word, is restated from its dumps and
 * sources in test_caps_rows.c.
 *
 * Every expected value is written here by hand from the SDM (Vol. 2A CPUID
 * leaf 0AH "Architectural Performance Monitoring Leaf"; Vol. 3B §18.2
 * "Architectural Performance Monitoring", order no. 253669-060US and
 * later for version 5):
 *   - EAX[7:0] version, [15:8] GP counters, [23:16] GP width, [31:24] EBX
 *     length; EBX bit i set: architectural event i NOT available, only
 *     for i < EBX length;
 *   - EDX[4:0] fixed counters and [12:5] their width "if Version ID > 1":
 *     a v1 PMU has no fixed counters whatever EDX holds;
 *   - v5: fixed counter i exists when "ECX[i] || (EDX[4:0] > i)" (ECX is
 *     a bitmap that may have holes; before v5 ECX is reserved), and
 *     EDX[15] deprecates AnyThread;
 *   - AnyThread (PerfEvtSel bit 21, FIXED_CTR_CTRL bit 2 + 4n) exists from
 *     v3 (§18.2.3) unless deprecated;
 *   - FIXED_CTR_CTRL has 4 bits per fixed counter n at 4n: bits 1:0
 *     enable (OS 1, USR 2), bit 2 AnyThread, bit 3 PMI (§18.2.2);
 *   - GLOBAL_CTRL / GLOBAL_STATUS: bit n GP counter n, bit 32 + n fixed
 *     counter n; OVF_CTRL (v2, v3) clears those, 62 (DS buffer) and 63
 *     (CondChgd); v4's STATUS_RESET adds 58 (LBR_Frz) and 59 (CTR_Frz);
 *   - IA32_PERF_CAPABILITIES (Vol. 4 Table 2-2): 11:8 PEBS record format,
 *     13 full-width writes; it exists only with CPUID.01H:ECX.PDCM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/perfmon/caps.c"
#include "pmu/perfmon/caps_table.c"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: pmu/perfmon/regs.c pmu/perfmon/ds/regs.c lib/fmt.c */

/* What caps.c's capabilities in force read of the machine: nothing of it
 * is tested here (its decoding and the table are). */
const struct cpu_info *cpu_info(void)
{
	static const struct cpu_info ci;

	return &ci;
}

const struct backend *backend_current(void)
{
	static const struct backend be = { .id = BE_NONE, .name = "none" };

	return &be;
}

const struct pmu_model *model_active(void)
{
	return NULL;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* CPUID.0AH:EAX from its fields. */
static uint32_t eax_of(unsigned version, unsigned gp, unsigned width,
		       unsigned ebx_len)
{
	return version | gp << 8 | width << 16 | (uint32_t)ebx_len << 24;
}

/* CPUID.0AH:EDX from its fields. */
static uint32_t edx_of(unsigned fixed, unsigned width, int any_deprecated)
{
	return fixed | width << 5 | (any_deprecated ? 1u << 15 : 0);
}

static struct perfmon_caps decode(uint32_t eax, uint32_t ebx, uint32_t ecx,
				  uint32_t edx)
{
	struct perfmon_caps c;

	memset(&c, 0x5a, sizeof(c));	/* decode must set every field */
	c.source = "test";
	perfmon_caps_decode(eax, ebx, ecx, edx, &c);
	return c;
}

/* ---- decoding ----------------------------------------------------------- */

static void test_decode_version_zero(void **state)
{
	struct perfmon_caps c = decode(0x07280200, 0x7f, 0xf,
				       edx_of(3, 48, 1));

	(void)state;
	assert_int_equal(c.version, 0);
	assert_int_equal(c.gp, 0);
	assert_int_equal(c.gp_width, 0);
	assert_int_equal(c.ebx_len, 0);
	assert_int_equal(c.events_unavail, 0);
	assert_int_equal(c.fixed, 0);
	assert_int_equal(c.fixed_mask, 0);
	assert_int_equal(c.any_deprecated, 0);
	assert_int_equal(c.has_perf_caps, 0);
	assert_string_equal(c.source, "test");
}

static void test_decode_v1_ignores_edx(void **state)
{
	/* Yonah's EAX with EDX and ECX full of bits: v1 has no fixed
	 * counters and no AnyThread deprecation */
	struct perfmon_caps c = decode(0x07280201, 0x04, 0xf,
				       edx_of(3, 48, 1));

	(void)state;
	assert_int_equal(c.version, 1);
	assert_int_equal(c.gp, 2);
	assert_int_equal(c.gp_width, 40);
	assert_int_equal(c.ebx_len, 7);
	assert_int_equal(c.events_unavail, 0x04);
	assert_int_equal(c.fixed, 0);
	assert_int_equal(c.fixed_width, 0);
	assert_int_equal(c.fixed_mask, 0);
	assert_int_equal(c.any_deprecated, 0);
	assert_false(perfmon_fixed_exists(&c, 0));
	assert_string_equal(c.source, "test");
}

static void test_decode_v2_to_v4_fixed(void **state)
{
	(void)state;
	for (unsigned v = 2; v <= 4; v++) {
		/* ECX and EDX[15] are reserved before v5: ignored */
		struct perfmon_caps c = decode(eax_of(v, 4, 48, 7), 0, 0xf,
					       edx_of(3, 48, 1));

		assert_int_equal(c.version, v);
		assert_int_equal(c.gp, 4);
		assert_int_equal(c.gp_width, 48);
		assert_int_equal(c.fixed, 3);
		assert_int_equal(c.fixed_width, 48);
		assert_int_equal(c.fixed_mask, 0x7);
		assert_int_equal(c.any_deprecated, 0);
		assert_true(perfmon_fixed_exists(&c, 2));
		assert_false(perfmon_fixed_exists(&c, 3));
	}
	/* Conroe B2 (06_0F stepping 6): v2 with EDX = 0, no fixed counter
	 * is enumerated */
	struct perfmon_caps c = decode(0x07280202, 0, 0, 0);

	assert_int_equal(c.version, 2);
	assert_int_equal(c.fixed, 0);
	assert_int_equal(c.fixed_mask, 0);
	/* Core 2 G0: EDX 503H, 3 fixed of 40 bits */
	c = decode(0x07280202, 0, 0, 0x503);
	assert_int_equal(c.fixed, 3);
	assert_int_equal(c.fixed_width, 40);
	assert_int_equal(c.fixed_mask, 0x7);
}

/* The v5 rule as the SDM writes it, for PERFMON_MAX_FIXED counters. */
static uint32_t sdm_v5_mask(uint32_t ecx, uint32_t edx)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < PERFMON_MAX_FIXED; i++)
		if ((ecx >> i & 1) || (edx & 0x1f) > i)
			m |= 1u << i;
	return m;
}

static void test_decode_v5_bitmap(void **state)
{
	/* { ECX, EDX[4:0], the counters that exist } */
	static const struct { uint32_t ecx, n, want; } cases[] = {
		{ 0x0, 0, 0x0 },
		{ 0x0, 3, 0x7 },	/* EDX alone, as before v5 */
		{ 0xf, 4, 0xf },	/* Ice Lake */
		{ 0xf, 0, 0xf },	/* ECX alone */
		{ 0x5, 0, 0x5 },	/* holes: counters 0 and 2 */
		{ 0xa, 0, 0xa },	/* holes: 1 and 3 */
		{ 0x8, 3, 0xf },	/* 0-2 from EDX, 3 from ECX */
		{ 0x4, 1, 0x5 },	/* OR, not AND: 0 from EDX, 2 ECX */
		{ 0x1, 3, 0x7 },
		{ 0x8, 1, 0x9 },
		{ 0xf0, 0, 0x0 },	/* counters past the modelled 4 */
		{ 0x0, 6, 0xf },	/* EDX beyond the modelled 4 */
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		struct perfmon_caps c = decode(eax_of(5, 8, 48, 8), 0,
					       cases[i].ecx,
					       edx_of(cases[i].n, 48, 0));

		if (c.fixed_mask != cases[i].want)
			fail_msg("ECX %#x EDX[4:0] %u: mask %#x, want %#x",
				 cases[i].ecx, cases[i].n, c.fixed_mask,
				 cases[i].want);
		assert_int_equal(c.fixed, cases[i].n);
		for (unsigned n = 0; n < PERFMON_MAX_FIXED + 2; n++)
			assert_int_equal(perfmon_fixed_exists(&c, n),
					 n < PERFMON_MAX_FIXED &&
					 (cases[i].want >> n & 1));
	}
	/* all 256 ECX bitmaps of 8 bits against every count */
	for (uint32_t ecx = 0; ecx < 256; ecx++)
		for (uint32_t n = 0; n < 8; n++) {
			struct perfmon_caps c = decode(eax_of(5, 8, 48, 8),
						       0, ecx,
						       edx_of(n, 48, 1));

			if (c.fixed_mask != sdm_v5_mask(ecx, n))
				fail_msg("ECX %#x EDX[4:0] %u: mask %#x, want "
					 "%#x", ecx, n, c.fixed_mask,
					 sdm_v5_mask(ecx, n));
		}
	/* the same ECX on v4 is reserved: EDX alone counts */
	struct perfmon_caps c = decode(eax_of(4, 4, 48, 7), 0, 0x8,
				       edx_of(1, 48, 0));

	assert_int_equal(c.fixed_mask, 0x1);
}

static void test_decode_any_deprecated(void **state)
{
	(void)state;
	assert_int_equal(decode(eax_of(5, 8, 48, 8), 0, 0xf,
				edx_of(4, 48, 1)).any_deprecated, 1);
	assert_int_equal(decode(eax_of(5, 8, 48, 8), 0, 0xf,
				edx_of(4, 48, 0)).any_deprecated, 0);
	for (unsigned v = 1; v <= 4; v++)
		assert_int_equal(decode(eax_of(v, 4, 48, 7), 0, 0,
					edx_of(3, 48, 1)).any_deprecated, 0);
	/* EDX[15] is a flag, not part of the fixed width (12:5) */
	struct perfmon_caps c = decode(eax_of(5, 8, 48, 8), 0, 0,
				       edx_of(4, 48, 1));

	assert_int_equal(c.fixed_width, 48);
	assert_int_equal(c.fixed, 4);
}

static void test_decode_gp_and_fields(void **state)
{
	(void)state;
	/* more GP counters than the 8 PerfEvtSel MSRs: clamped */
	assert_int_equal(decode(eax_of(3, 16, 48, 7), 0, 0,
				edx_of(3, 48, 0)).gp, PERFMON_MAX_GP);
	assert_int_equal(decode(eax_of(3, 8, 48, 7), 0, 0,
				edx_of(3, 48, 0)).gp, 8);
	/* the fields do not bleed into each other */
	struct perfmon_caps c = decode(0xfedcba03, 0x12345678, 0, 0x1fff);

	assert_int_equal(c.version, 3);
	assert_int_equal(c.gp, PERFMON_MAX_GP);
	assert_int_equal(c.gp_width, 0xdc);
	assert_int_equal(c.ebx_len, 0xfe);
	assert_int_equal(c.events_unavail, 0x12345678);
	assert_int_equal(c.fixed, 0x1f);
	assert_int_equal(c.fixed_width, 0xff);
	assert_int_equal(c.fixed_mask, 0xf);
}

/* ---- the rules -------------------------------------------------------- */

static void test_event_available(void **state)
{
	/* Lynnfield: EBX 44H, length 7 */
	struct perfmon_caps c = decode(0x07300403, 0x44, 0, 0x603);
	static const int lynnfield[ARCH_EV_NR] = {
		[ARCH_EV_CORE_CYCLES] = 1, [ARCH_EV_INSTRUCTIONS] = 1,
		[ARCH_EV_REF_CYCLES] = 0, [ARCH_EV_LLC_REFERENCES] = 1,
		[ARCH_EV_LLC_MISSES] = 1, [ARCH_EV_BRANCHES] = 1,
		[ARCH_EV_BRANCH_MISSES] = 0,
		[ARCH_EV_TOPDOWN_SLOTS] = 0,	/* beyond the length */
	};

	(void)state;
	for (unsigned e = 0; e < ARCH_EV_NR; e++)
		if (perfmon_event_available(&c, e) != lynnfield[e])
			fail_msg("EBX 44H: event %u", e);
	/* Ice Lake: length 8, EBX 0: all eight */
	c = decode(0x08300805, 0, 0xf, 0x8604);
	for (unsigned e = 0; e < ARCH_EV_NR; e++)
		assert_true(perfmon_event_available(&c, e));
	/* a bit beyond the length says nothing: not available either way */
	c = decode(eax_of(2, 2, 40, 3), 0, 0, 0x503);
	for (unsigned e = 0; e < ARCH_EV_NR; e++)
		assert_int_equal(perfmon_event_available(&c, e), e < 3);
	c = decode(eax_of(2, 2, 40, 3), 0xfffffff8, 0, 0x503);
	for (unsigned e = 0; e < ARCH_EV_NR; e++)
		assert_int_equal(perfmon_event_available(&c, e), e < 3);
	/* length 0 or no architectural perfmon: nothing */
	c = decode(eax_of(2, 2, 40, 0), 0, 0, 0x503);
	for (unsigned e = 0; e < ARCH_EV_NR; e++)
		assert_false(perfmon_event_available(&c, e));
	c = decode(0, 0, 0, 0);
	for (unsigned e = 0; e < ARCH_EV_NR; e++)
		assert_false(perfmon_event_available(&c, e));
	/* each bit alone */
	for (unsigned b = 0; b < 8; b++) {
		c = decode(eax_of(5, 8, 48, 8), 1u << b, 0xf, 0x8604);
		for (unsigned e = 0; e < ARCH_EV_NR; e++)
			assert_int_equal(perfmon_event_available(&c, e),
					 e != b);
	}
}

static struct perfmon_caps caps_v(unsigned v, int deprecated)
{
	if (v >= 5)
		return decode(eax_of(v, 8, 48, 8), 0, 0xf,
			      edx_of(4, 48, deprecated));
	return decode(eax_of(v, v == 1 ? 2 : 4, v < 3 ? 40 : 48, 7), 0, 0,
		      v >= 2 ? edx_of(3, v < 3 ? 40 : 48, 0) : 0);
}

static void test_any_allowed_and_evtsel_valid(void **state)
{
	/* { version, EDX[15], AnyThread allowed } */
	static const struct { unsigned v; int dep, any; } cases[] = {
		{ 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 }, { 3, 0, 1 },
		{ 4, 0, 1 }, { 5, 0, 1 }, { 5, 1, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		struct perfmon_caps c = cases[i].v ? caps_v(cases[i].v,
							     cases[i].dep) :
					decode(0, 0, 0, 0);
		uint64_t valid = perfmon_evtsel_valid(&c);

		assert_int_equal(perfmon_any_allowed(&c), cases[i].any);
		/* bits 31:0 of Figure 18-1, bit 21 only with AnyThread;
		 * nothing above bit 31 */
		assert_true(valid == (cases[i].any ? 0xffffffffull :
						     0xffdfffffull));
	}
}

static void test_fixed_ctrl_valid(void **state)
{
	struct perfmon_caps c;

	(void)state;
	c = caps_v(1, 0);
	assert_true(perfmon_fixed_ctrl_valid(&c) == 0);
	c = caps_v(2, 0);	/* OS, USR, PMI: 1011b per counter */
	assert_true(perfmon_fixed_ctrl_valid(&c) == 0xbbb);
	c = caps_v(3, 0);	/* and AnyThread */
	assert_true(perfmon_fixed_ctrl_valid(&c) == 0xfff);
	c = caps_v(4, 0);
	assert_true(perfmon_fixed_ctrl_valid(&c) == 0xfff);
	c = caps_v(5, 0);	/* four counters */
	assert_true(perfmon_fixed_ctrl_valid(&c) == 0xffff);
	c = caps_v(5, 1);	/* AnyThread deprecated */
	assert_true(perfmon_fixed_ctrl_valid(&c) == 0xbbbb);
	/* v5 with holes: only the fields of counters 0 and 2 */
	c = decode(eax_of(5, 8, 48, 8), 0, 0x5, edx_of(0, 48, 1));
	assert_true(perfmon_fixed_ctrl_valid(&c) == 0x0b0b);
	c = decode(eax_of(5, 8, 48, 8), 0, 0x8, edx_of(1, 48, 0));
	assert_true(perfmon_fixed_ctrl_valid(&c) == 0xf00f);
	/* Conroe B2: v2 with no fixed counter enumerated */
	c = decode(0x07280202, 0, 0, 0);
	assert_true(perfmon_fixed_ctrl_valid(&c) == 0);
}

static void test_global_counters(void **state)
{
	struct perfmon_caps c;

	(void)state;
	c = caps_v(1, 0);
	assert_true(perfmon_global_counters(&c) == 0x3);
	c = decode(0x07280202, 0, 0, 0x503);	/* Core 2 */
	assert_true(perfmon_global_counters(&c) == 0x700000003ull);
	c = decode(0x07300403, 0, 0, 0x603);	/* Nehalem to Skylake */
	assert_true(perfmon_global_counters(&c) == 0x70000000full);
	c = decode(0x08300805, 0, 0xf, 0x8604);	/* Ice Lake */
	assert_true(perfmon_global_counters(&c) == 0xf000000ffull);
	c = decode(eax_of(5, 6, 48, 8), 0, 0xa, edx_of(0, 48, 0));
	assert_true(perfmon_global_counters(&c) == 0xa0000003full);
	c = decode(0, 0, 0, 0);
	assert_true(perfmon_global_counters(&c) == 0);
}

static void test_status_bits(void **state)
{
	const uint64_t ovf_buf = 1ull << 62, cond_chgd = 1ull << 63;
	const uint64_t lbr_frz = 1ull << 58, ctr_frz = 1ull << 59;
	struct perfmon_caps c;

	(void)state;
	c = decode(0x07280202, 0, 0, 0x503);	/* v2 */
	assert_true(perfmon_status_bits(&c) ==
		    (0x700000003ull | ovf_buf | cond_chgd));
	c = decode(0x07300403, 0, 0, 0x603);	/* v3 */
	assert_true(perfmon_status_bits(&c) ==
		    (0x70000000full | ovf_buf | cond_chgd));
	c = decode(0x07300404, 0, 0, 0x603);	/* v4: the freeze bits */
	assert_true(perfmon_status_bits(&c) ==
		    (0x70000000full | ovf_buf | cond_chgd | lbr_frz |
		     ctr_frz));
	c = decode(0x08300805, 0, 0xf, 0x8604);	/* v5 */
	assert_true(perfmon_status_bits(&c) ==
		    (0xf000000ffull | ovf_buf | cond_chgd | lbr_frz |
		     ctr_frz));
	c = decode(eax_of(5, 8, 48, 8), 0, 0x5, edx_of(0, 48, 1));
	assert_true(perfmon_status_bits(&c) ==
		    (0x5000000ffull | ovf_buf | cond_chgd | lbr_frz |
		     ctr_frz));
}

static void test_perf_caps(void **state)
{
	/* { has the MSR, its value, PEBS format, PEBS trap, full-width
	 *   writes } */
	static const struct {
		int has;
		uint64_t v;
		unsigned fmt;
		int trap, fw;
	} cases[] = {
		{ 0, 0x33c5, 0, 0, 0 },	/* no PDCM: the value means nothing */
		{ 1, 0x0, 0, 0, 0 },
		{ 1, 0xc1, 0, 1, 0 },	/* Core 2 */
		{ 1, 0x11c3, 1, 1, 0 },	/* Nehalem */
		{ 1, 0x31c3, 1, 1, 1 },	/* Sandy Bridge */
		{ 1, 0x32c4, 2, 1, 1 },	/* Haswell */
		{ 1, 0x33c5, 3, 1, 1 },	/* Skylake */
		{ 1, 0xf4c5, 4, 1, 1 },	/* Ice Lake */
		{ 1, 0xf5ff, 5, 1, 1 },
		{ 1, 0xf00, 15, 0, 0 },
		{ 1, 1ull << 6, 0, 1, 0 },	/* the trap bit alone */
		{ 1, 0xf4bf, 4, 0, 1 },		/* all but the trap bit */
		{ 1, 1ull << 13, 0, 0, 1 },
		{ 1, ~(1ull << 13), 15, 1, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		struct perfmon_caps c = decode(0x07300404, 0, 0, 0x603);

		c.has_perf_caps = cases[i].has;
		c.perf_caps = cases[i].v;
		assert_int_equal(perfmon_pebs_format(&c), cases[i].fmt);
		assert_int_equal(perfmon_pebs_trap(&c), cases[i].trap);
		assert_int_equal(perfmon_full_width(&c), cases[i].fw);
	}
}

/* ---- the table -------------------------------------------------------- */

static void test_table_rows_sane(void **state)
{
	(void)state;
	assert_true(perfmon_caps_table_len > 0);
	for (unsigned i = 0; i < perfmon_caps_table_len; i++) {
		const struct perfmon_caps_row *r = &perfmon_caps_table[i];
		struct perfmon_caps c;
		char want[64];

		memset(&c, 0x5a, sizeof(c));
		perfmon_caps_from_row(r, &c);
		snprintf(want, sizeof(want), "model:%s", r->name);
		if (!r->name || !*r->name || !r->cite || strlen(r->cite) < 20)
			fail_msg("row %u: name or cite missing", i);
		assert_string_equal(c.source, want);
		if (r->family != 6)
			fail_msg("%s: family %u", r->name, r->family);
		if (c.version < 1 || c.version > 5)
			fail_msg("%s: version %u", r->name, c.version);
		if (c.gp < 1 || c.gp > 8)
			fail_msg("%s: %u GP counters", r->name, c.gp);
		if (c.gp_width != 40 && c.gp_width != 48)
			fail_msg("%s: GP width %u", r->name, c.gp_width);
		if (c.ebx_len < 7 || c.ebx_len > ARCH_EV_NR)
			fail_msg("%s: EBX length %u", r->name, c.ebx_len);
		/* only the core-cycle, instruction, reference-cycle, LLC
		 * and branch bits may be set, within the length */
		if (r->ebx >> c.ebx_len)
			fail_msg("%s: EBX %#x past its length", r->name,
				 r->ebx);
		if (c.version < 2 && (c.fixed_mask || r->edx || r->ecx))
			fail_msg("%s: fixed counters before v2", r->name);
		if (c.version >= 2) {
			if (!c.fixed_mask)
				fail_msg("%s: v%u without fixed counters",
					 r->name, c.version);
			if (c.fixed_width != 40 && c.fixed_width != 48)
				fail_msg("%s: fixed width %u", r->name,
					 c.fixed_width);
			if (c.fixed_width != c.gp_width)
				fail_msg("%s: fixed width %u, GP %u", r->name,
					 c.fixed_width, c.gp_width);
		}
		/* EDX[14:13] are reserved, and the Bonnell dumps have bit
		 * 13 set (2501H): only ECX and EDX[15] are v5's */
		if (c.version < 5 && (r->ecx ||
				      (r->edx & CPUID0A_EDX_ANY_DEPRECATED)))
			fail_msg("%s: v5 fields on v%u", r->name, c.version);
		/* PERF_CAPABILITIES only with PDCM; the formats known */
		if (!r->has_perf_caps && r->perf_caps)
			fail_msg("%s: PERF_CAPABILITIES without PDCM",
				 r->name);
		assert_int_equal(c.has_perf_caps, r->has_perf_caps);
		assert_true(c.perf_caps == r->perf_caps);
		if (perfmon_pebs_format(&c) > 5)
			fail_msg("%s: PEBS format %u", r->name,
				 perfmon_pebs_format(&c));
		/* adaptive PEBS and perf metrics are v5 (Ice Lake) things */
		if (c.version < 5 && (r->perf_caps &
				      (PERF_CAP_PEBS_BASELINE |
				       PERF_CAP_PERF_METRICS)))
			fail_msg("%s: baseline/metrics before v5", r->name);
		/* perf metrics need fixed counter 3 (SLOTS) */
		if ((r->perf_caps & PERF_CAP_PERF_METRICS) &&
		    !perfmon_fixed_exists(&c, 3))
			fail_msg("%s: perf metrics without SLOTS", r->name);
		assert_ptr_equal(perfmon_caps_row_for(r->family, r->model),
				 r);
	}
}

static void test_table_unique(void **state)
{
	(void)state;
	for (unsigned i = 0; i < perfmon_caps_table_len; i++)
		for (unsigned j = i + 1; j < perfmon_caps_table_len; j++) {
			const struct perfmon_caps_row *a =
				&perfmon_caps_table[i];
			const struct perfmon_caps_row *b =
				&perfmon_caps_table[j];

			if (a->family == b->family && a->model == b->model)
				fail_msg("%s and %s: both %u/%#x", a->name,
					 b->name, a->family, a->model);
			if (!strcmp(a->name, b->name))
				fail_msg("two rows named %s", a->name);
		}
}

static void test_table_lookup(void **state)
{
	/* the family/model pairs the table must cover */
	static const unsigned models[] = {
		0x0e, 0x0f, 0x17, 0x1a, 0x1e, 0x2c, 0x25, 0x2a, 0x3c, 0x5e,
		0x4e, 0x55, 0x7e, 0x6a, 0x8f,
		0x3a, 0x3d,	/* QEMU's IvyBridge, Broadwell (issue 30) */
		/* QEMU's n270, Denverton, KnightsMill, and Snowridge (QEMU
		 * 7.2's Icelake-Server too reports 06_86H, a Tremont
		 * signature) */
		0x1c, 0x5f, 0x85, 0x86,
	};

	(void)state;
	for (unsigned i = 0; i < N(models); i++)
		if (!perfmon_caps_row_for(6, models[i]))
			fail_msg("no row for 06_%02XH", models[i]);
	assert_null(perfmon_caps_row_for(15, 0x0f));
	assert_null(perfmon_caps_row_for(6, 0x09));	/* Pentium M */
	/* Tremont's Jasper Lake (06_9CH) and Silvermont (06_37H) have no
	 * row: no QEMU model reports them */
	assert_null(perfmon_caps_row_for(6, 0x9c));
	assert_null(perfmon_caps_row_for(6, 0x37));
	assert_null(perfmon_caps_row_for(5, 0x0e));
}

/* Each row's microarchitecture, restated from the signatures the SDM
 * gives (Vol. 4, order no. 335592-060US, Table 2-1 "CPUID Signature
 * Values of DisplayFamily_DisplayModel"; Ice Lake server and Sapphire
 * Rapids from later editions of that table), and carried into the
 * decoded capabilities: which PEBS_ENABLE bits exist follows it. */
static void test_table_uarch(void **state)
{
	static const struct {
		unsigned model;
		enum perfmon_uarch uarch;
	} sig[] = {
		{ 0x0e, PERFMON_UARCH_YONAH },		/* Core Duo/Solo */
		{ 0x0f, PERFMON_UARCH_CORE },		/* Core 2 */
		{ 0x17, PERFMON_UARCH_CORE },		/* Enhanced Core */
		{ 0x1a, PERFMON_UARCH_NEHALEM },
		{ 0x1e, PERFMON_UARCH_NEHALEM },
		{ 0x25, PERFMON_UARCH_WESTMERE },
		{ 0x2c, PERFMON_UARCH_WESTMERE },
		{ 0x2a, PERFMON_UARCH_SANDY_BRIDGE },
		{ 0x3a, PERFMON_UARCH_SANDY_BRIDGE },	/* Ivy Bridge */
		{ 0x3c, PERFMON_UARCH_HASWELL },
		{ 0x3d, PERFMON_UARCH_HASWELL },	/* Broadwell */
		{ 0x4e, PERFMON_UARCH_SKYLAKE },
		{ 0x5e, PERFMON_UARCH_SKYLAKE },
		{ 0x55, PERFMON_UARCH_SKYLAKE },	/* Skylake-SP/CLX */
		{ 0x7e, PERFMON_UARCH_ICE_LAKE },
		{ 0x6a, PERFMON_UARCH_ICE_LAKE },
		{ 0x8f, PERFMON_UARCH_SAPPHIRE_RAPIDS },
		/* Vol. 4 Table 2-1: 06_1CH Intel Atom (45 nm), 06_5FH Atom
		 * C3000 (Goldmont), 06_86H Snow Ridge (Tremont), 06_85H Xeon
		 * Phi 7215/7285/7295 (Knights Mill) */
		{ 0x1c, PERFMON_UARCH_BONNELL },
		{ 0x5f, PERFMON_UARCH_GOLDMONT },
		{ 0x86, PERFMON_UARCH_TREMONT },
		{ 0x85, PERFMON_UARCH_KNIGHTS },
	};

	(void)state;
	for (unsigned i = 0; i < N(sig); i++) {
		const struct perfmon_caps_row *r =
			perfmon_caps_row_for(6, sig[i].model);
		struct perfmon_caps c;

		assert_non_null(r);
		perfmon_caps_from_row(r, &c);
		if (r->uarch != sig[i].uarch || c.uarch != sig[i].uarch)
			fail_msg("06_%02XH (%s): microarchitecture %d/%d, want "
				 "%d", sig[i].model, r->name, r->uarch,
				 c.uarch, sig[i].uarch);
	}
}

/* CPUID.01H:EDX.DS (bit 21) and ECX.DS-CPL (bit 4) of the rows' parts,
 * from the dumps their comments cite (Vol. 2A, CPUID leaf 01H feature
 * flags): DS on all; DS-CPL clear on Yonah (01H:ECX 0000C1A9: bits 0, 3,
 * 5, 7, 8, 14, 15), set on Core 2 (06_0FH, 01H:ECX 0000E3BD) and every
 * row after it. */
static void test_table_ds_bits(void **state)
{
	static const struct {
		unsigned model;
		int ds, ds_cpl;
	} want[] = {
		{ 0x0e, 1, 0 }, { 0x0f, 1, 1 }, { 0x17, 1, 1 }, { 0x1a, 1, 1 },
		{ 0x2a, 1, 1 }, { 0x3c, 1, 1 }, { 0x5e, 1, 1 }, { 0x6a, 1, 1 },
		{ 0x8f, 1, 1 },
		/* i3-3220 01H: ECX 3D9AE3BF, EDX BFEBFBFF (bit 21 set) */
		{ 0x3a, 1, 1 },
		/* Bochs broadwell_ult 01H: DS_CPL and DEBUG_STORE listed */
		{ 0x3d, 1, 1 },
		/* 01H ECX / EDX: n270 0040C39D / BFE9FBFF, C3958 4FF8EBBF /
		 * BFEBFBFF, J6412 and N5100 4FF8EBBF / BFEBFBFF, Knights
		 * Landing 7FF8F39F / BFEBFBFF: bit 4 and bit 21 set in all */
		{ 0x1c, 1, 1 }, { 0x5f, 1, 1 }, { 0x86, 1, 1 }, { 0x85, 1, 1 },
	};

	(void)state;
	for (unsigned i = 0; i < N(want); i++) {
		const struct perfmon_caps_row *r =
			perfmon_caps_row_for(6, want[i].model);
		struct perfmon_caps c;

		assert_non_null(r);
		perfmon_caps_from_row(r, &c);
		if (c.ds != want[i].ds || c.ds_cpl != want[i].ds_cpl)
			fail_msg("06_%02XH (%s): DS %d DS-CPL %d, want %d %d",
				 want[i].model, r->name, c.ds, c.ds_cpl,
				 want[i].ds, want[i].ds_cpl);
	}
}

/* IA32_PERF_CAPABILITIES bit 17 (PEBS timing information; Linux
 * PERF_CAP_PEBS_TIMING_INFO) promises the retire latency in the adaptive
 * record's format_size[47:32] (SDM Vol. 3B, the adaptive PEBS basic-info
 * group, in the editions that describe the bit).  The model writes 0
 * there (pmu/perfmon/pebs/model.c), so no row may advertise the bit:
 * none of the rows' parts (up to Sapphire Rapids) has it. */
static void test_table_no_retire_latency(void **state)
{
	static const unsigned models[] = { 0x0e, 0x0f, 0x17, 0x1a, 0x1e,
		0x25, 0x2c, 0x2a, 0x3c, 0x4e, 0x5e, 0x55, 0x7e, 0x6a, 0x8f,
		0x3a, 0x3d, 0x1c, 0x5f, 0x86, 0x85 };

	(void)state;
	for (unsigned i = 0; i < N(models); i++) {
		const struct perfmon_caps_row *r =
			perfmon_caps_row_for(6, models[i]);

		assert_non_null(r);
		if (r->perf_caps >> 17 & 1)
			fail_msg("06_%02XH (%s): PERF_CAPABILITIES 0x%llx "
				 "advertises bit 17 (retire latency), which "
				 "the model does not write", models[i],
				 r->name, (unsigned long long)r->perf_caps);
	}
}

/* A few rows as the dumps read, decoded: these catch a slipped digit. */
static void test_table_known_rows(void **state)
{
	static const struct {
		unsigned model, version, gp, width, fixed_mask;
		uint32_t unavail;
		int any, pdcm;
		unsigned pebs;
	} rows[] = {
		{ 0x0e, 1, 2, 40, 0x0, 0x00, 0, 1, 0 },	/* Yonah */
		{ 0x0f, 2, 2, 40, 0x7, 0x00, 0, 1, 0 },	/* Conroe */
		{ 0x17, 2, 2, 40, 0x7, 0x00, 0, 1, 0 },	/* Penryn */
		{ 0x1a, 3, 4, 48, 0x7, 0x40, 1, 1, 1 },	/* Nehalem */
		{ 0x1e, 3, 4, 48, 0x7, 0x44, 1, 1, 1 },
		{ 0x2c, 3, 4, 48, 0x7, 0x04, 1, 1, 1 },	/* Westmere */
		{ 0x25, 3, 4, 48, 0x7, 0x04, 1, 1, 1 },
		{ 0x2a, 3, 4, 48, 0x7, 0x00, 1, 1, 1 },	/* Sandy Bridge */
		{ 0x3c, 3, 4, 48, 0x7, 0x00, 1, 1, 2 },	/* Haswell */
		/* libcpuid ivy-bridge-i3: 0AH 07300403 0 0 603; PEBS fmt 1
		 * (the Sandy Bridge section) */
		{ 0x3a, 3, 4, 48, 0x7, 0x00, 1, 1, 1 },	/* Ivy Bridge */
		/* Bochs broadwell_ult: 0AH 07300403 0 0 603; PEBS fmt 2 (the
		 * Haswell section) */
		{ 0x3d, 3, 4, 48, 0x7, 0x00, 1, 1, 2 },	/* Broadwell */
		{ 0x5e, 4, 4, 48, 0x7, 0x00, 1, 1, 3 },	/* Skylake */
		{ 0x4e, 4, 4, 48, 0x7, 0x00, 1, 1, 3 },
		{ 0x55, 4, 4, 48, 0x7, 0x00, 1, 1, 3 },	/* Cascade Lake */
		{ 0x7e, 5, 8, 48, 0xf, 0x00, 0, 1, 4 },	/* Ice Lake */
		{ 0x6a, 5, 8, 48, 0xf, 0x00, 0, 1, 4 },
		{ 0x8f, 5, 8, 48, 0xf, 0x00, 0, 1, 4 },	/* SPR: fmt 4, not 5 */
		/* Tremont: the N5105's "PEBS fmt4+-baseline" */
		{ 0x86, 5, 4, 48, 0x7, 0x00, 0, 1, 4 },
	};

	(void)state;
	for (unsigned i = 0; i < N(rows); i++) {
		const struct perfmon_caps_row *r =
			perfmon_caps_row_for(6, rows[i].model);
		struct perfmon_caps c;

		assert_non_null(r);
		perfmon_caps_from_row(r, &c);
		if (c.version != rows[i].version || c.gp != rows[i].gp ||
		    c.gp_width != rows[i].width ||
		    c.fixed_mask != rows[i].fixed_mask ||
		    c.events_unavail != rows[i].unavail ||
		    perfmon_any_allowed(&c) != rows[i].any ||
		    c.has_perf_caps != rows[i].pdcm ||
		    perfmon_pebs_format(&c) != rows[i].pebs)
			fail_msg("06_%02XH (%s) decodes to v%u gp %u x %u "
				 "fixed %#x unavail %#x any %d pdcm %d pebs "
				 "%u", rows[i].model, r->name, c.version, c.gp,
				 c.gp_width, c.fixed_mask, c.events_unavail,
				 perfmon_any_allowed(&c), c.has_perf_caps,
				 perfmon_pebs_format(&c));
	}
}

/* The Atom and Xeon Phi rows: CPUID.0AH word for word as the public
 * dumps read (each named; the row must not drift from its source), the
 * decoding of those words by hand (Vol. 2A CPUID leaf 0AH: EAX[7:0]
 * version, [15:8] GP counters, [23:16] width; EDX[4:0] fixed counters,
 * [12:5] their width; v5 ECX bitmap, EDX[15]), and their PEBS: none
 * where the model has no PEBS rule of the microarchitecture (Bonnell,
 * Goldmont, Knights: docs/pebs.md), so neither the row's PEBS fields nor
 * perfmon_caps_pebs() may claim it; Tremont's as its part reports it
 * (a Celeron N5105 Linux boot: "PEBS fmt4+-baseline": format 4, trap,
 * baseline; the arch-regs bit as the adaptive GPR group gives it), but
 * PEBS output to Intel PT (bit 16), which the model does not have. */
static void test_table_atom_phi_rows(void **state)
{
	static const struct {
		unsigned model;
		uint32_t eax, ebx, ecx, edx;	/* CPUID.0AH of the dump */
		unsigned version, gp, width, fixed_mask, fixed_width;
		int any_deprecated;
		const char *dump;
		uint64_t pebs;		/* the row's PEBS fields */
	} rows[] = {
		{ 0x1c, 0x07280203, 0, 0, 0x00002501, 3, 2, 40, 0x1, 40, 0,
		  "libcpuid x86-atom/bonnell/intel-atom-cpu-n270 (106C2); "
		  "InstLatx64 GenuineIntel00106C2_Diamondville" },
		{ 0x5f, 0x07300404, 0, 0, 0x00000603, 4, 4, 48, 0x7, 48, 0,
		  "libcpuid x86-atom/goldmont/intel-atom-cpu-c3958 (506F1); "
		  "InstLatx64 GenuineIntel00506F1_Denverton" },
		{ 0x86, 0x07300405, 0, 0x7, 0x00008603, 5, 4, 48, 0x7, 48, 1,
		  "libcpuid x86-atom/tremont/intel-celeron-j6412 (90661), "
		  "intel-celeron-n5100 (906C0)",
		  0x1ull << 6 | 0x1ull << 7 | 0x4ull << 8 | 0x1ull << 14 },
		{ 0x85, 0x07280203, 0, 0, 0x00000503, 3, 2, 40, 0x7, 40, 0,
		  "InstLatx64 GenuineIntel0050670_KnightsLanding, "
		  "GenuineIntel0050671_KnightsLanding" },
	};
	/* IA32_PERF_CAPABILITIES PEBS fields: trap (6), arch regs (7),
	 * format (11:8), baseline (14), output to PT (16); Vol. 4 Table 2-2 */
	const uint64_t pebs_fields = 0x1ull << 6 | 0x1ull << 7 | 0xfull << 8 |
				     0x1ull << 14 | 0x1ull << 16;

	(void)state;
	for (unsigned i = 0; i < N(rows); i++) {
		const struct perfmon_caps_row *r =
			perfmon_caps_row_for(6, rows[i].model);
		struct perfmon_caps c;

		assert_non_null(r);
		if (r->eax != rows[i].eax || r->ebx != rows[i].ebx ||
		    r->ecx != rows[i].ecx || r->edx != rows[i].edx)
			fail_msg("06_%02XH (%s): 0AH %08x %x %x %x, the dump "
				 "(%s) reads %08x %x %x %x", rows[i].model,
				 r->name, r->eax, r->ebx, r->ecx, r->edx,
				 rows[i].dump, rows[i].eax, rows[i].ebx,
				 rows[i].ecx, rows[i].edx);
		perfmon_caps_from_row(r, &c);
		if (c.version != rows[i].version || c.gp != rows[i].gp ||
		    c.gp_width != rows[i].width ||
		    c.fixed_mask != rows[i].fixed_mask ||
		    c.fixed_width != rows[i].fixed_width ||
		    c.any_deprecated != rows[i].any_deprecated ||
		    c.events_unavail != 0 || !c.has_perf_caps)
			fail_msg("06_%02XH (%s) decodes to v%u gp %u x %u "
				 "fixed %#x x %u", rows[i].model, r->name,
				 c.version, c.gp, c.gp_width, c.fixed_mask,
				 c.fixed_width);
		if ((r->perf_caps & pebs_fields) != rows[i].pebs)
			fail_msg("06_%02XH (%s): PERF_CAPABILITIES 0x%llx has "
				 "PEBS fields 0x%llx, want 0x%llx",
				 rows[i].model, r->name,
				 (unsigned long long)r->perf_caps,
				 (unsigned long long)(r->perf_caps &
						      pebs_fields),
				 (unsigned long long)rows[i].pebs);
		if (perfmon_caps_pebs(&c) != !!rows[i].pebs)
			fail_msg("06_%02XH (%s): PEBS %s", rows[i].model,
				 r->name, rows[i].pebs ? "not claimed" :
				 "claimed");
	}
}

/* Which microarchitectures' PEBS the model has: every big-core row's
 * (Core 2 to Sapphire Rapids, docs/pebs.md) and Tremont's (adaptive
 * PEBS with reduced skid on PMC0 and fixed counter 0), and no other
 * Atom's or Xeon Phi's; a CPU without a row goes by its record
 * format. */
static void test_uarch_pebs_modelled(void **state)
{
	static const struct {
		enum perfmon_uarch u;
		int modelled;
	} cases[] = {
		{ PERFMON_UARCH_UNKNOWN, 1 }, { PERFMON_UARCH_CORE, 1 },
		{ PERFMON_UARCH_NEHALEM, 1 }, { PERFMON_UARCH_SKYLAKE, 1 },
		{ PERFMON_UARCH_SAPPHIRE_RAPIDS, 1 },
		{ PERFMON_UARCH_BONNELL, 0 }, { PERFMON_UARCH_GOLDMONT, 0 },
		{ PERFMON_UARCH_TREMONT, 1 }, { PERFMON_UARCH_KNIGHTS, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		/* a v4 PMU with PERF_CAPABILITIES, PEBS format 3 */
		struct perfmon_caps c = decode(0x07300404, 0, 0, 0x603);

		c.has_perf_caps = 1;
		c.perf_caps = 0x33c5;
		c.uarch = cases[i].u;
		assert_int_equal(perfmon_uarch_pebs_modelled(cases[i].u),
				 cases[i].modelled);
		assert_int_equal(perfmon_caps_pebs(&c), cases[i].modelled);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_version_zero),
		cmocka_unit_test(test_decode_v1_ignores_edx),
		cmocka_unit_test(test_decode_v2_to_v4_fixed),
		cmocka_unit_test(test_decode_v5_bitmap),
		cmocka_unit_test(test_decode_any_deprecated),
		cmocka_unit_test(test_decode_gp_and_fields),
		cmocka_unit_test(test_event_available),
		cmocka_unit_test(test_any_allowed_and_evtsel_valid),
		cmocka_unit_test(test_fixed_ctrl_valid),
		cmocka_unit_test(test_global_counters),
		cmocka_unit_test(test_status_bits),
		cmocka_unit_test(test_perf_caps),
		cmocka_unit_test(test_table_rows_sane),
		cmocka_unit_test(test_table_unique),
		cmocka_unit_test(test_table_lookup),
		cmocka_unit_test(test_table_known_rows),
		cmocka_unit_test(test_table_uarch),
		cmocka_unit_test(test_table_ds_bits),
		cmocka_unit_test(test_table_no_retire_latency),
		cmocka_unit_test(test_table_atom_phi_rows),
		cmocka_unit_test(test_uarch_pebs_modelled),
	};

	return cmocka_run_group_tests_name("perfmon_caps", tests, NULL, NULL);
}
