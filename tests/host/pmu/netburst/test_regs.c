/* host-sources: pmu/netburst/regs.c pmu/netburst/events.c pmu/sem.c lib/fmt.c lib/string.c */
/* Host tests for the NetBurst (Pentium 4) PMU rules (pmu/netburst/regs.c)
 * and event table (pmu/netburst/events.c).
 *
 * Every expected value is written here from the SDM, not taken from the
 * code under test: SDM Vol. 3B, order no. 253669-060US, Figure 18-47
 * (ESCR: T1_USR 0, T1_OS 1, T0_USR 2, T0_OS 3, tag enable 4, tag value 8:5,
 * event mask 24:9, event select 30:25), Figure 18-48 (CCCR: enable 12,
 * ESCR select 15:13, active thread 17:16, compare 18, complement 19,
 * threshold 23:20, edge 24, FORCE_OVF 25, OVF_PMI_T0 26, OVF_PMI_T1 27,
 * cascade 30, OVF 31; bit 11 extended cascade, §18.15.5.7), Table 18-63
 * "Performance Counter MSRs and Associated CCCR and ESCR MSRs" (written
 * out below per counter), §18.15.5.6 (cascading), §18.15.3/§18.15.6.2
 * (compare, complement, threshold, edge), §18.16.1 (the ESCR's thread
 * bits) and the Chapter 19 NetBurst event tables ("Performance Monitoring
 * Events For Intel NetBurst Microarchitecture for Non-Retirement
 * Counting" and "... for At-Retirement Counting"). */
#include <stdio.h>
#include <string.h>

#include "pmu/netburst/regs.h"
#include "pmu/netburst/events.h"
#include "pmu/sem.h"
#include "arch/x86/trace.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/host/arch/x86/dec_flags.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static struct cpu_sig sig_of(unsigned family, unsigned model,
			     unsigned stepping)
{
	struct cpu_sig s = { .family = family, .model = model,
			     .stepping = stepping };

	return s;
}

/* ---- ESCR / CCCR encoding --------------------------------------------- */

struct field {
	const char *name;
	size_t off;		/* offset of its unsigned in the struct */
	unsigned shift, width;	/* where the SDM's figure puts it */
};

#define EF(f, sh, w) { #f, offsetof(struct nb_escr_fields, f), sh, w }
static const struct field escr_fields[] = {
	EF(t1_usr, 0, 1), EF(t1_os, 1, 1), EF(t0_usr, 2, 1),
	EF(t0_os, 3, 1), EF(tag_enable, 4, 1), EF(tag_value, 5, 4),
	EF(emask, 9, 16), EF(event, 25, 6),
};
#undef EF

#define CF(f, sh, w) { #f, offsetof(struct nb_cccr_fields, f), sh, w }
static const struct field cccr_fields[] = {
	CF(ext_cascade, 11, 1), CF(enable, 12, 1), CF(escr_sel, 13, 3),
	CF(active, 16, 2), CF(compare, 18, 1), CF(complement, 19, 1),
	CF(threshold, 20, 4), CF(edge, 24, 1), CF(force_ovf, 25, 1),
	CF(ovf_pmi_t0, 26, 1), CF(ovf_pmi_t1, 27, 1), CF(cascade, 30, 1),
	CF(ovf, 31, 1),
};
#undef CF

static unsigned *fld(void *s, const struct field *f)
{
	return (unsigned *)((char *)s + f->off);
}

/* The values each field is tried with: 0, its maximum, and each single
 * bit. */
static unsigned field_values(const struct field *f, unsigned *v)
{
	unsigned n = 0;

	v[n++] = 0;
	v[n++] = (unsigned)((1ull << f->width) - 1);
	for (unsigned b = 0; b < f->width; b++)
		v[n++] = 1u << b;
	return n;
}

typedef uint64_t (*encode_fn)(const void *f);
typedef void (*decode_fn)(uint64_t v, void *f);

static uint64_t escr_enc(const void *f)
{
	return nb_escr_encode(f);
}

static void escr_dec(uint64_t v, void *f)
{
	nb_escr_decode(v, f);
}

static uint64_t cccr_enc(const void *f)
{
	return nb_cccr_encode(f);
}

static void cccr_dec(uint64_t v, void *f)
{
	nb_cccr_decode(v, f);
}

/* Field i alone at value v: encode puts it where the figure says and
 * nowhere else, decode gives back the same fields. */
static void field_round_trip(const struct field *fs, unsigned nf,
			     unsigned i, unsigned v, size_t size,
			     encode_fn enc, decode_fn dec)
{
	uint64_t want = (uint64_t)v << fs[i].shift, got;
	unsigned in[16], out[16];

	assert_true(size <= sizeof(in));
	memset(in, 0, size);
	*fld(in, &fs[i]) = v;
	got = enc(in);
	if (got != want)
		fail_msg("%s = 0x%x: encoded 0x%llx, want 0x%llx", fs[i].name,
			 v, (unsigned long long)got, (unsigned long long)want);
	memset(out, 0xa5, size);
	dec(got, out);
	for (unsigned j = 0; j < nf; j++)
		if (*fld(out, &fs[j]) != *fld(in, &fs[j]))
			fail_msg("%s = 0x%x: decoded %s = 0x%x", fs[i].name, v,
				 fs[j].name, *fld(out, &fs[j]));
}

static void field_round_trips(const struct field *fs, unsigned nf,
			      size_t size, encode_fn enc, decode_fn dec)
{
	unsigned vals[40];

	for (unsigned i = 0; i < nf; i++) {
		unsigned nv = field_values(&fs[i], vals);

		for (unsigned k = 0; k < nv; k++)
			field_round_trip(fs, nf, i, vals[k], size, enc, dec);
	}
}

/* The bits the figure defines: every field's bits. */
static uint64_t defined_bits(const struct field *fs, unsigned nf)
{
	uint64_t m = 0;

	for (unsigned i = 0; i < nf; i++)
		m |= ((1ull << fs[i].width) - 1) << fs[i].shift;
	return m;
}

/* encode(decode(v)) == v for register values without reserved bits: each
 * single defined bit, all of them, and pseudo-random mixes. */
static void value_round_trips(const struct field *fs, unsigned nf,
			      encode_fn enc, decode_fn dec)
{
	uint64_t defined = defined_bits(fs, nf), x = 0x9e3779b97f4a7c15ull;
	unsigned f[16];

	for (unsigned b = 0; b < 64; b++) {
		uint64_t v = 1ull << b;

		if (!(v & defined))
			continue;
		dec(v, f);
		assert_int_equal(enc(f), v);
	}
	dec(defined, f);
	assert_int_equal(enc(f), defined);
	for (unsigned i = 0; i < 1000; i++) {
		uint64_t v;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v = x & defined;
		dec(v, f);
		if (enc(f) != v)
			fail_msg("0x%llx: round trip gave 0x%llx",
				 (unsigned long long)v,
				 (unsigned long long)enc(f));
	}
}

static void test_escr_encoding(void **state)
{
	(void)state;
	field_round_trips(escr_fields, N(escr_fields),
			  sizeof(struct nb_escr_fields), escr_enc, escr_dec);
	value_round_trips(escr_fields, N(escr_fields), escr_enc, escr_dec);
	/* Figure 18-47: bit 31 and 63:32 are reserved */
	assert_int_equal(defined_bits(escr_fields, N(escr_fields)),
			 0x7fffffffull);
	assert_int_equal(NB_ESCR_RESERVED, ~0x7fffffffull);
}

static void test_cccr_encoding(void **state)
{
	(void)state;
	field_round_trips(cccr_fields, N(cccr_fields),
			  sizeof(struct nb_cccr_fields), cccr_enc, cccr_dec);
	value_round_trips(cccr_fields, N(cccr_fields), cccr_enc, cccr_dec);
	/* Figure 18-48: 10:0, 29:28 and 63:32 reserved (bit 11 where
	 * extended cascading is not implemented) */
	assert_int_equal(~defined_bits(cccr_fields, N(cccr_fields)),
			 0x300007ffull | ~0xffffffffull);
	assert_int_equal(NB_CCCR_RESERVED, 0x300007ffull | ~0xffffffffull);
}

/* ---- Table 18-63 -------------------------------------------------------- */

/* ESCR MSR addresses, from Table 18-63. */
enum {
	BSU0 = 0x3a0, BSU1 = 0x3a1, FSB0 = 0x3a2, FSB1 = 0x3a3,
	FIRM0 = 0x3a4, FIRM1 = 0x3a5, FLAME0 = 0x3a6, FLAME1 = 0x3a7,
	DAC0 = 0x3a8, DAC1 = 0x3a9, MOB0 = 0x3aa, MOB1 = 0x3ab,
	PMH0 = 0x3ac, PMH1 = 0x3ad, SAAT0 = 0x3ae, SAAT1 = 0x3af,
	U2L0 = 0x3b0, U2L1 = 0x3b1, BPU0 = 0x3b2, BPU1 = 0x3b3,
	IS0 = 0x3b4, IS1 = 0x3b5, ITLB0 = 0x3b6, ITLB1 = 0x3b7,
	CRU0 = 0x3b8, CRU1 = 0x3b9, IQ0 = 0x3ba, IQ1 = 0x3bb,
	RAT0 = 0x3bc, RAT1 = 0x3bd, SSU0 = 0x3be,
	MS0 = 0x3c0, MS1 = 0x3c1, TBPU0 = 0x3c2, TBPU1 = 0x3c3,
	TC0 = 0x3c4, TC1 = 0x3c5, IX0 = 0x3c8, IX1 = 0x3c9,
	ALF0 = 0x3ca, ALF1 = 0x3cb, CRU2 = 0x3cc, CRU3 = 0x3cd,
	CRU4 = 0x3e0, CRU5 = 0x3e1,
};

/* Table 18-63, one row per counter: the ESCR each CCCR ESCR-select value
 * (index 0-7) names, 0 for none; IQ_ESCR0/1 (select 0 of the IQ block) as
 * on models 0-2.  The select 2/3 entries of CCCRs 12, 13 and 16 are RAT 2,
 * SSU 3: editions of the manual before order no. 245472-007 had them
 * swapped (the erratum the later editions corrected). */
static const uint32_t table_18_63[NB_COUNTERS][8] = {
	/* BPU block: counters 0, 1 on the ESCR0s, 2, 3 on the ESCR1s */
	[0] = { BPU0, IS0, MOB0, ITLB0, PMH0, IX0, FSB0, BSU0 },
	[1] = { BPU0, IS0, MOB0, ITLB0, PMH0, IX0, FSB0, BSU0 },
	[2] = { BPU1, IS1, MOB1, ITLB1, PMH1, IX1, FSB1, BSU1 },
	[3] = { BPU1, IS1, MOB1, ITLB1, PMH1, IX1, FSB1, BSU1 },
	/* MS block */
	[4] = { MS0, TC0, TBPU0 },
	[5] = { MS0, TC0, TBPU0 },
	[6] = { MS1, TC1, TBPU1 },
	[7] = { MS1, TC1, TBPU1 },
	/* FLAME block: select 4 names nothing */
	[8] = { FLAME0, FIRM0, SAAT0, U2L0, 0, DAC0 },
	[9] = { FLAME0, FIRM0, SAAT0, U2L0, 0, DAC0 },
	[10] = { FLAME1, FIRM1, SAAT1, U2L1, 0, DAC1 },
	[11] = { FLAME1, FIRM1, SAAT1, U2L1, 0, DAC1 },
	/* IQ block: SSU has only ESCR0 (there is no 0x3BF) */
	[12] = { IQ0, ALF0, RAT0, SSU0, CRU0, CRU2, CRU4 },
	[13] = { IQ0, ALF0, RAT0, SSU0, CRU0, CRU2, CRU4 },
	[14] = { IQ1, ALF1, RAT1, 0, CRU1, CRU3, CRU5 },
	[15] = { IQ1, ALF1, RAT1, 0, CRU1, CRU3, CRU5 },
	[16] = { IQ0, ALF0, RAT0, SSU0, CRU0, CRU2, CRU4 },
	[17] = { IQ1, ALF1, RAT1, 0, CRU1, CRU3, CRU5 },
};

/* The table above for a model: IQ_ESCR0/1 exist on models 0-2 only. */
static uint32_t expected_escr(unsigned ctr, unsigned sel, unsigned model)
{
	uint32_t msr = table_18_63[ctr][sel];

	if ((msr == IQ0 || msr == IQ1) && model > 2)
		return 0;
	return msr;
}

static void check_escr_select(unsigned model)
{
	struct cpu_sig s = sig_of(15, model, 1);

	for (unsigned c = 0; c < NB_COUNTERS; c++)
		for (unsigned sel = 0; sel < 8; sel++) {
			const struct nb_escr *x = nb_escr_for(c, sel, &s);
			uint32_t want = expected_escr(c, sel, model);
			uint32_t got = x ? x->msr : 0;

			if (got != want)
				fail_msg("model %u counter %u select %u: "
					 "0x%x, want 0x%x", model, c, sel,
					 got, want);
		}
	/* no counter beyond 17 */
	assert_null(nb_escr_for(NB_COUNTERS, 4, &s));
}

/* How many distinct ESCRs the table names on a model. */
static unsigned distinct_escrs(unsigned model)
{
	uint32_t seen[64];
	unsigned n = 0;

	for (unsigned c = 0; c < NB_COUNTERS; c++)
		for (unsigned sel = 0; sel < 8; sel++) {
			uint32_t m = expected_escr(c, sel, model);
			unsigned k = 0;

			while (k < n && seen[k] != m)
				k++;
			if (m && k == n)
				seen[n++] = m;
		}
	return n;
}

static void test_escr_select_model2(void **state)
{
	struct cpu_sig s = sig_of(15, 2, 7);

	(void)state;
	check_escr_select(2);
	assert_int_equal(distinct_escrs(2), 45);
	assert_int_equal(nb_escr_count(&s), 45);
	assert_int_equal(nb_escr_for(12, 0, &s)->msr, IQ0);
	assert_int_equal(nb_escr_for(17, 0, &s)->msr, IQ1);
}

static void test_escr_select_model3(void **state)
{
	struct cpu_sig s = sig_of(15, 3, 4);

	(void)state;
	check_escr_select(3);
	assert_int_equal(distinct_escrs(3), 43);
	assert_int_equal(nb_escr_count(&s), 43);
	for (unsigned c = 12; c < NB_COUNTERS; c++)
		assert_null(nb_escr_for(c, 0, &s));
	/* the table still knows the IQ pair, as not existing here */
	assert_non_null(nb_escr_at(IQ0));
	assert_false(nb_escr_exists(nb_escr_at(IQ0), &s));
	assert_false(nb_escr_exists(nb_escr_at(IQ1), &s));
}

/* The 245472-007 correction: select 2 of CCCRs 12, 13, 16 is RAT_ESCR0,
 * select 3 SSU_ESCR0; on 14, 15, 17 select 3 names nothing. */
static void test_rat_ssu_erratum(void **state)
{
	static const unsigned lo[] = { 12, 13, 16 }, hi[] = { 14, 15, 17 };
	struct cpu_sig s = sig_of(15, 2, 9);

	(void)state;
	for (unsigned i = 0; i < N(lo); i++) {
		assert_int_equal(nb_escr_for(lo[i], 2, &s)->msr, RAT0);
		assert_string_equal(nb_escr_for(lo[i], 2, &s)->name,
				    "RAT_ESCR0");
		assert_int_equal(nb_escr_for(lo[i], 3, &s)->msr, SSU0);
		assert_string_equal(nb_escr_for(lo[i], 3, &s)->name,
				    "SSU_ESCR0");
		assert_int_equal(nb_escr_for(hi[i], 2, &s)->msr, RAT1);
		assert_null(nb_escr_for(hi[i], 3, &s));
	}
}

/* There is no SSU_ESCR1 at 0x3BF; every ESCR of the table is one of the
 * 45 above, within 0x3A0-0x3E1, once. */
static void test_escr_table(void **state)
{
	uint32_t listed[NB_ESCRS];
	unsigned n = 0;

	(void)state;
	assert_null(nb_escr_at(0x3bf));
	for (unsigned c = 0; c < NB_COUNTERS; c++)
		for (unsigned sel = 0; sel < 8; sel++) {
			uint32_t m = table_18_63[c][sel];
			unsigned k = 0;

			while (k < n && listed[k] != m)
				k++;
			if (m && k == n)
				listed[n++] = m;
		}
	assert_int_equal(n, NB_ESCRS);
	for (unsigned i = 0; i < NB_ESCRS; i++) {
		const struct nb_escr *x = &nb_escrs[i];
		unsigned k = 0;

		while (k < n && listed[k] != x->msr)
			k++;
		if (k == n)
			fail_msg("%s 0x%x is not in Table 18-63", x->name,
				 x->msr);
		assert_ptr_equal(nb_escr_at(x->msr), x);
		assert_true(x->msr >= NB_ESCR_FIRST && x->msr <= NB_ESCR_LAST);
		for (unsigned j = 0; j < i; j++)
			assert_int_not_equal(nb_escrs[j].msr, x->msr);
	}
	for (uint32_t m = NB_ESCR_FIRST; m <= NB_ESCR_LAST; m++) {
		unsigned k = 0;

		while (k < n && listed[k] != m)
			k++;
		if ((k < n) != (nb_escr_at(m) != NULL))
			fail_msg("0x%x: nb_escr_at disagrees", m);
	}
}

/* ---- cascading (§18.15.5.6) ------------------------------------------- */

/* The pairs the section allows, from -> to: 0/2, 1/3 and the like in
 * either order within each block, 14 -> 16 and 15 -> 17 only. */
static const unsigned cascade_pairs[][2] = {
	{ 0, 2 }, { 2, 0 }, { 1, 3 }, { 3, 1 },
	{ 4, 6 }, { 6, 4 }, { 5, 7 }, { 7, 5 },
	{ 8, 10 }, { 10, 8 }, { 9, 11 }, { 11, 9 },
	{ 12, 14 }, { 14, 12 }, { 13, 15 }, { 15, 13 },
	{ 14, 16 }, { 15, 17 },
};

static int rule_allows(unsigned from, unsigned to)
{
	for (unsigned i = 0; i < N(cascade_pairs); i++)
		if (cascade_pairs[i][0] == from && cascade_pairs[i][1] == to)
			return 1;
	return 0;
}

static void test_cascade_pairs(void **state)
{
	(void)state;
	for (unsigned from = 0; from < NB_COUNTERS; from++)
		for (unsigned to = 0; to < NB_COUNTERS; to++)
			if (nb_cascade_legal(from, to) != rule_allows(from, to))
				fail_msg("%u -> %u: %d", from, to,
					 nb_cascade_legal(from, to));
	/* each counter has exactly one alternate that can start it */
	for (unsigned to = 0; to < NB_COUNTERS; to++) {
		int from = nb_cascade_from(to);

		assert_true(from >= 0);
		assert_true(rule_allows((unsigned)from, to));
	}
	assert_int_equal(nb_cascade_from(NB_COUNTERS), -1);
	assert_false(nb_cascade_legal(16, NB_COUNTERS));
	/* the section's named refusals */
	assert_false(nb_cascade_legal(12, 16));
	assert_false(nb_cascade_legal(16, 14));
	assert_false(nb_cascade_legal(13, 17));
	assert_false(nb_cascade_legal(17, 15));
}

/* ---- the CCCR threshold filter ----------------------------------------- */

/* The ESCR's count per clock, one synthetic stream. */
static const uint64_t stream[] = { 0, 1, 2, 3, 0, 5, 5, 1, 0, 4 };

#define THR(t) ((uint64_t)(t) << 20)
#define COMPARE (1ull << 18)
#define COMPLEMENT (1ull << 19)
#define EDGE (1ull << 24)

static uint64_t run_filter(uint64_t cccr)
{
	struct nb_edge st = { 0 };
	uint64_t total = 0;

	for (unsigned i = 0; i < N(stream); i++)
		total += nb_cccr_filter(cccr, &st, stream[i]);
	return total;
}

static void test_cccr_filter(void **state)
{
	static const struct {
		const char *what;
		uint64_t cccr, want;
	} cases[] = {
		/* compare off: the counts go through, 0+1+2+3+0+5+5+1+0+4 */
		{ "compare off", 0, 21 },
		{ "compare off, threshold and edge ignored",
		  THR(3) | EDGE | COMPLEMENT, 21 },
		/* greater than: clocks 1, 2, 3, 5, 6, 7, 9 */
		{ "> 0", COMPARE | THR(0), 7 },
		/* clocks with 3, 5, 5, 4 */
		{ "> 2", COMPARE | THR(2), 4 },
		/* the two fives */
		{ "> 4", COMPARE | THR(4), 2 },
		{ "> 5", COMPARE | THR(5), 0 },
		{ "> 15", COMPARE | THR(15), 0 },
		/* complement, less or equal: clocks 0, 4, 8 */
		{ "<= 0", COMPARE | COMPLEMENT | THR(0), 3 },
		/* 0, 1, 2, 0, 1, 0 */
		{ "<= 2", COMPARE | COMPLEMENT | THR(2), 6 },
		{ "<= 15", COMPARE | COMPLEMENT | THR(15), 10 },
		/* edge: > 0 is 0111011101, rising at clocks 1, 5, 9 */
		{ "> 0 edge", COMPARE | EDGE | THR(0), 3 },
		/* > 2 is 0001011001, rising at 3, 5, 9 */
		{ "> 2 edge", COMPARE | EDGE | THR(2), 3 },
		/* > 4 is 0000011000: one rise */
		{ "> 4 edge", COMPARE | EDGE | THR(4), 1 },
		/* <= 0 is 1000100010; the comparison starts out false, so
		 * clock 0 is a rise: 0, 4, 8 */
		{ "<= 0 edge", COMPARE | COMPLEMENT | EDGE | THR(0), 3 },
		/* <= 2 is 1110100110: rises at 0, 4, 7 */
		{ "<= 2 edge", COMPARE | COMPLEMENT | EDGE | THR(2), 3 },
		/* <= 15 always true: one rise */
		{ "<= 15 edge", COMPARE | COMPLEMENT | EDGE | THR(15), 1 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		uint64_t got = run_filter(cases[i].cccr);

		if (got != cases[i].want)
			fail_msg("%s: %llu, want %llu", cases[i].what,
				 (unsigned long long)got,
				 (unsigned long long)cases[i].want);
	}
}

/* Edge state carries across calls: a comparison that stays true counts
 * once, however long. */
static void test_cccr_filter_edge_state(void **state)
{
	struct nb_edge st = { 0 };
	uint64_t cccr = COMPARE | EDGE | THR(0);

	(void)state;
	assert_int_equal(nb_cccr_filter(cccr, &st, 1), 1);
	for (unsigned i = 0; i < 100; i++)
		assert_int_equal(nb_cccr_filter(cccr, &st, 7), 0);
	assert_int_equal(nb_cccr_filter(cccr, &st, 0), 0);
	assert_int_equal(nb_cccr_filter(cccr, &st, 2), 1);
	/* without edge a large count is 1 per clock with compare */
	assert_int_equal(nb_cccr_filter(COMPARE, &st, 1000), 1);
	assert_int_equal(nb_cccr_filter(0, &st, 1000), 1000);
}

/* ---- threads, errata, extended cascading ------------------------------ */

#define T1_USR 1u
#define T1_OS 2u
#define T0_USR 4u
#define T0_OS 8u

static void test_escr_counts_at(void **state)
{
	(void)state;
	for (unsigned escr = 0; escr < 16; escr++)
		for (unsigned cpl = 0; cpl < 4; cpl++)
			for (unsigned t = 0; t < 2; t++) {
				/* §18.16.1: T0_* for logical processor 0,
				 * T1_* for 1; OS is CPL 0, USR CPL 1-3.
				 * Without HT bits 3/2 are OS/USR of the one
				 * processor and bits 1:0 count nothing. */
				unsigned os = t ? T1_OS : T0_OS;
				unsigned usr = t ? T1_USR : T0_USR;
				int ht_want = !!(escr & (cpl ? usr : os));
				int noht_want = t ? 0 : ht_want;
				int ht = nb_escr_counts_at(escr, t, cpl, 1);
				int noht = nb_escr_counts_at(escr, t, cpl, 0);

				if (ht != ht_want || noht != noht_want)
					fail_msg("escr 0x%x thread %u cpl %u: "
						 "%d/%d", escr, t, cpl, ht,
						 noht);
			}
	/* spot checks */
	assert_true(nb_escr_counts_at(T0_OS, 0, 0, 0));
	assert_false(nb_escr_counts_at(T0_OS, 0, 3, 0));
	assert_true(nb_escr_counts_at(T0_USR, 0, 1, 1));
	assert_false(nb_escr_counts_at(T1_USR | T1_OS, 0, 3, 1));
	assert_true(nb_escr_counts_at(T1_USR, 1, 3, 1));
	assert_false(nb_escr_counts_at(T1_USR | T1_OS | T0_USR | T0_OS, 1,
				       0, 0));
}

static void test_cascade_pmi_erratum(void **state)
{
	static const struct {
		unsigned family, model, stepping;
		int want;
	} cases[] = {
		/* 0F_00 / 0F_01 with stepping above 09H, and 0F_02 */
		{ 15, 0, 9, 0 }, { 15, 0, 10, 1 }, { 15, 0, 0xf, 1 },
		{ 15, 1, 9, 0 }, { 15, 1, 0xa, 1 },
		{ 15, 2, 0, 1 }, { 15, 2, 9, 1 }, { 15, 2, 0xf, 1 },
		{ 15, 3, 0xa, 0 }, { 15, 4, 1, 0 }, { 15, 6, 5, 0 },
		{ 6, 2, 0xa, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		struct cpu_sig s = sig_of(cases[i].family, cases[i].model,
					  cases[i].stepping);

		if (nb_cascade_pmi_erratum(&s) != cases[i].want)
			fail_msg("%02X_%02X stepping %u: %d, want %d",
				 cases[i].family, cases[i].model,
				 cases[i].stepping,
				 nb_cascade_pmi_erratum(&s), cases[i].want);
	}
}

static void test_ext_cascade_exists(void **state)
{
	(void)state;
	/* §18.15.5.7: models 2, 3, 4, 6; IQ CCCRs 12, 15, 16, 17 */
	for (unsigned model = 0; model < 8; model++) {
		struct cpu_sig s = sig_of(15, model, 1);
		int on_model = model == 2 || model == 3 || model == 4 ||
			       model == 6;

		for (unsigned c = 0; c < NB_COUNTERS; c++) {
			int want = on_model && (c == 12 || c == 15 ||
						c == 16 || c == 17);

			if (nb_ext_cascade_exists(c, &s) != want)
				fail_msg("model %u counter %u: %d", model, c,
					 nb_ext_cascade_exists(c, &s));
		}
	}
	struct cpu_sig p6 = sig_of(6, 2, 1);

	assert_false(nb_ext_cascade_exists(12, &p6));
}

/* Real NetBurst parts, their CPUID as the InstLatx64 collection dumped it
 * (github.com/InstLatx64/InstLatx64, GenuineIntel/<file>, logical CPU #0):
 * CPUID.01H EBX and EDX, and the cores per package worked out by hand
 * from CPUID.04H subleaf 0 EAX[31:26] + 1 (1 where the maximum leaf is
 * below 4).  Threads per core = EBX[23:16] / cores when EDX.HTT (bit 28)
 * is set (SDM Vol. 2A CPUID, Vol. 3A §8.6.2; Linux detect_ht()). */
struct ht_part {
	const char *file;
	uint32_t ebx, edx;
	unsigned cores;
	unsigned threads;	/* per core */
};

static const struct ht_part ht_parts[] = {
	/* Pentium D 820: 2 logical, leaf 4 EAX 04000121h: 2 cores; no HT */
	{ "GenuineIntel0000F44_P4_Smithfield_CPUID.txt", 0x00020800,
	  0xbfebfbff, 2, 1 },
	/* Pentium 4 640 (Prescott, HT): 2 logical, EAX 00004121h: 1 core */
	{ "GenuineIntel0000F43_P4_Prescott_CPUID.txt", 0x00020800,
	  0xbfebfbff, 1, 2 },
	/* Pentium Extreme Edition 955 (Presler, HT): 4 logical, EAX
	 * 04004121h: 2 cores, 2 threads each */
	{ "GenuineIntel0000F62_P4_Presler_CPUID.txt", 0x00040800,
	  0xbfebfbff, 2, 2 },
	/* Pentium 4 2.8 (Northwood, HT): 2 logical, maximum leaf 2 */
	{ "GenuineIntel0000F29_P4_Northwood_CPUID.txt", 0x00020809,
	  0xbfebfbff, 1, 2 },
	/* Pentium 4 1.6 (Northwood): EDX 3FEBFBFFh, HTT clear */
	{ "GenuineIntel0000F24_P4_Northwood_CPUID.txt", 0x00010809,
	  0x3febfbff, 1, 1 },
};

static void test_hyperthreading(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sizeof(ht_parts) / sizeof(ht_parts[0]);
	     i++) {
		const struct ht_part *p = &ht_parts[i];
		struct cpu_info ci;

		memset(&ci, 0, sizeof(ci));
		ci.f1_ebx = p->ebx;
		ci.f1_edx = p->edx;
		ci.cores_per_package = p->cores;
		if (nb_threads(&ci) != p->threads ||
		    nb_has_ht(&ci) != (p->threads >= 2))
			fail_msg("%s: %u threads per core (ht %d), the dump "
				 "gives %u", p->file, nb_threads(&ci),
				 nb_has_ht(&ci), p->threads);
	}
}

/* ---- the event table --------------------------------------------------- */

/* The counters Table 18-63 (above) gives an ESCR, on model 2. */
static uint32_t table_ctrs(uint32_t msr, unsigned sel)
{
	uint32_t m = 0;

	for (unsigned c = 0; c < NB_COUNTERS; c++)
		if (msr && table_18_63[c][sel] == msr)
			m |= 1u << c;
	return m;
}

/* The counters nb_escr_for() maps to an ESCR through select sel. */
static uint32_t mapped_ctrs(uint32_t msr, unsigned sel,
			    const struct cpu_sig *s)
{
	uint32_t m = 0;

	for (unsigned c = 0; c < NB_COUNTERS; c++) {
		const struct nb_escr *x = nb_escr_for(c, sel, s);

		if (msr && x && x->msr == msr)
			m |= 1u << c;
	}
	return m;
}

static void check_row(const struct nb_event *ev)
{
	struct cpu_sig s = sig_of(15, 2, 9);
	int any_nm = 0;

	if (!ev->escr[0] && !ev->escr[1])
		fail_msg("%s: no ESCR", ev->name);
	assert_true(ev->select < 64);
	assert_true(ev->escr_sel < 8);
	for (unsigned i = 0; i < 2; i++) {
		const struct nb_escr *x = nb_escr_at(ev->escr[i]);

		if (!ev->escr[i]) {
			assert_int_equal(ev->ctrs[i], 0);
			continue;
		}
		if (!x || !nb_escr_exists(x, &s) ||
		    x->select != ev->escr_sel || x->half != i)
			fail_msg("%s: escr[%u] 0x%x is not an ESCR%u with "
				 "select %u", ev->name, i, ev->escr[i], i,
				 ev->escr_sel);
		if (ev->ctrs[i] != mapped_ctrs(ev->escr[i], ev->escr_sel, &s) ||
		    ev->ctrs[i] != table_ctrs(ev->escr[i], ev->escr_sel))
			fail_msg("%s: ctrs[%u] 0x%x, Table 18-63 0x%x",
				 ev->name, i, ev->ctrs[i],
				 table_ctrs(ev->escr[i], ev->escr_sel));
	}
	if (!ev->n_bits || ev->n_bits > NB_MAX_EMASK)
		fail_msg("%s: %u event-mask bits", ev->name, ev->n_bits);
	for (unsigned i = 0; i < ev->n_bits; i++) {
		const struct nb_emask_bit *b = &ev->bits[i];

		if (!b->name || b->bit >= 16)
			fail_msg("%s: bit %u", ev->name, b->bit);
		for (unsigned j = 0; j < i; j++)
			if (ev->bits[j].bit == b->bit ||
			    !strcmp(ev->bits[j].name, b->name))
				fail_msg("%s: %s twice", ev->name, b->name);
		switch (b->how) {
		case NB_SEM:
			if (!b->sem || (b->sem & b->sem_minus))
				fail_msg("%s.%s: no sem", ev->name, b->name);
			break;
		case NB_ZERO:
		case NB_NOT_MODELLED:
			if (b->sem || b->sem_minus)
				fail_msg("%s.%s: a sem on a bit that is "
					 "not NB_SEM", ev->name, b->name);
			any_nm |= b->how == NB_NOT_MODELLED;
			break;
		default:
			fail_msg("%s.%s: how %u", ev->name, b->name, b->how);
		}
	}
	if (any_nm && (!ev->why_not || !*ev->why_not))
		fail_msg("%s: unmodelled bits without a why_not", ev->name);
}

static void test_event_invariants(void **state)
{
	(void)state;
	assert_true(nb_n_events >= 40);
	for (unsigned i = 0; i < nb_n_events; i++) {
		const struct nb_event *ev = &nb_events[i];

		check_row(ev);
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(nb_events[j].name, ev->name))
				fail_msg("%s twice", ev->name);
		/* round trips */
		assert_ptr_equal(nb_event_by_name(ev->name), ev);
		for (unsigned k = 0; k < 2; k++)
			if (ev->escr[k] &&
			    nb_event_for(ev->escr[k], ev->select) != ev)
				fail_msg("%s: nb_event_for(0x%x, 0x%x) is "
					 "another row", ev->name, ev->escr[k],
					 ev->select);
	}
	assert_null(nb_event_by_name("no_such_event"));
	assert_null(nb_event_for(CRU0, 0x3f));
	assert_null(nb_event_for(0, 0x02));
	assert_null(nb_event_for(0x3bf, 0x02));
	/* the same select on another ESCR is another event */
	assert_string_equal(nb_event_for(CRU2, NB_EVENT_INSTR_RETIRED)->name,
			    "machine_clear");
}

/* The key bindings, by hand from the Chapter 19 tables. */
static void test_event_facts(void **state)
{
	static const struct {
		const char *name;
		unsigned select, escr_sel;
		uint32_t escr0, escr1, emask;
		int at_ret;
	} rows[] = {
		{ "instr_retired", 0x02, 4, CRU0, CRU1, 0xf, 1 },
		{ "uops_retired", 0x01, 4, CRU0, CRU1, 0x3, 1 },
		{ "mispred_branch_retired", 0x03, 4, CRU0, CRU1, 0x1, 1 },
		{ "branch_retired", 0x06, 5, CRU2, CRU3, 0xf, 1 },
		{ "front_end_event", 0x08, 5, CRU2, CRU3, 0x3, 1 },
		{ "execution_event", 0x0c, 5, CRU2, CRU3, 0xff, 1 },
		{ "replay_event", 0x09, 5, CRU2, CRU3, 0x3, 1 },
		{ "x87_assist", 0x03, 5, CRU2, CRU3, 0x1f, 1 },
		{ "uop_type", 0x02, 2, RAT0, RAT1, 0x6, 1 },
		{ "instr_completed", 0x07, 4, CRU0, CRU1, 0x3, 0 },
		{ "retired_branch_type", 0x04, 2, TBPU0, TBPU1, 0x1e, 0 },
		{ "retired_mispred_branch_type", 0x05, 2, TBPU0, TBPU1, 0x1e,
		  0 },
		{ "global_power_events", 0x13, 6, FSB0, FSB1, 0x1, 0 },
		{ "x87_fp_uop", 0x04, 1, FIRM0, FIRM1, 0x8000, 0 },
		{ "tc_deliver_mode", 0x01, 1, TC0, TC1, 0xff, 0 },
		{ "bpu_fetch_request", 0x03, 0, BPU0, BPU1, 0x1, 0 },
		{ "itlb_reference", 0x18, 3, ITLB0, ITLB1, 0x7, 0 },
		{ "memory_cancel", 0x02, 5, DAC0, DAC1, 0xc, 0 },
		{ "page_walk_type", 0x01, 4, PMH0, PMH1, 0x3, 0 },
		{ "ioq_active_entries", 0x1a, 6, 0, FSB1, 0xefff, 0 },
		{ "bsq_allocation", 0x05, 7, BSU0, 0, 0x3fef, 0 },
		{ "bsq_active_entries", 0x06, 7, 0, BSU1, 0x3fef, 0 },
		{ "tc_ms_xfer", 0x05, 0, MS0, MS1, 0x1, 0 },
		{ "resource_stall", 0x01, 1, ALF0, ALF1, 0x20, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < N(rows); i++) {
		const struct nb_event *ev = nb_event_by_name(rows[i].name);

		if (!ev)
			fail_msg("%s missing", rows[i].name);
		if (ev->select != rows[i].select ||
		    ev->escr_sel != rows[i].escr_sel ||
		    ev->escr[0] != rows[i].escr0 ||
		    ev->escr[1] != rows[i].escr1 ||
		    nb_emask_legal(ev) != rows[i].emask ||
		    ev->at_retirement != rows[i].at_ret)
			fail_msg("%s: select 0x%x sel %u escr 0x%x/0x%x emask "
				 "0x%x at_ret %u", ev->name, ev->select,
				 ev->escr_sel, ev->escr[0], ev->escr[1],
				 nb_emask_legal(ev), ev->at_retirement);
	}
	assert_int_equal(nb_event_by_name("instr_completed")->models_min, 3);
	assert_int_equal(nb_event_by_name("instr_retired")->models_min, 0);
	/* CRU_ESCR0's counters are 12, 13, 16; CRU_ESCR1's 14, 15, 17 */
	assert_int_equal(nb_event_by_name("instr_retired")->ctrs[0],
			 (1u << 12) | (1u << 13) | (1u << 16));
	assert_int_equal(nb_event_by_name("instr_retired")->ctrs[1],
			 (1u << 14) | (1u << 15) | (1u << 17));
	assert_int_equal(nb_event_by_name("global_power_events")->ctrs[0],
			 0x3);
	assert_int_equal(nb_event_by_name("x87_fp_uop")->ctrs[1], 0xc00);
}

static void test_emask_modelled(void **state)
{
	static const struct {
		const char *name;
		unsigned emask;
		int want;
	} cases[] = {
		{ "instr_retired", 0x1, 1 }, { "instr_retired", 0xf, 1 },
		{ "instr_retired", 0x0, 0 }, { "instr_retired", 0x10, 0 },
		{ "instr_retired", 0x11, 0 },
		{ "uops_retired", 0x3, 1 },
		{ "mispred_branch_retired", 0x1, 1 },
		{ "branch_retired", 0xf, 1 }, { "branch_retired", 0x5, 1 },
		{ "retired_branch_type", 0xe, 1 },
		{ "retired_branch_type", 0x10, 0 },
		{ "retired_branch_type", 0x1e, 0 },
		{ "retired_branch_type", 0x1, 0 },
		{ "retired_mispred_branch_type", 0xe, 1 },
		{ "retired_mispred_branch_type", 0x12, 0 },
		{ "global_power_events", 0x1, 1 },
		{ "x87_fp_uop", 0x8000, 0 },
		{ "tc_deliver_mode", 0x1, 0 },
		{ "machine_clear", 0x1, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		const struct nb_event *ev = nb_event_by_name(cases[i].name);

		assert_non_null(ev);
		if (nb_emask_modelled(ev, cases[i].emask) != cases[i].want)
			fail_msg("%s emask 0x%x: %d", cases[i].name,
				 cases[i].emask,
				 nb_emask_modelled(ev, cases[i].emask));
	}
}

static struct insn_event step(uint8_t retired, uint16_t flags,
			      uint32_t more)
{
	struct insn_event e;

	memset(&e, 0, sizeof(e));
	e.retired = retired;
	e.flags = flags;
	e.more = more;
	return e;
}

static void test_event_step(void **state)
{
	static const struct {
		const char *what, *name;
		unsigned emask;
		uint8_t retired;
		uint16_t flags;
		uint32_t more;
		uint64_t want;
	} cases[] = {
		{ "nop", "instr_retired", 0x1, 1, 0, 0, 1 },
		{ "nop, all four bits", "instr_retired", 0xf, 1, 0, 0, 1 },
		{ "nop, tagged/bogus only", "instr_retired", 0xe, 1, 0, 0, 0 },
		{ "rep iteration, not retired", "instr_retired", 0x1, 0, REP,
		  0, 0 },
		{ "nop x5 aggregated", "instr_retired", 0x1, 1, 0, 4, 5 },
		{ "nop", "uops_retired", 0x3, 1, 0, 0, 1 },
		{ "jcc taken", "mispred_branch_retired", 0x1, 1,
		  BR | CND | TK, 0, 0 },
		/* branch_retired: MMNP not taken, MMTP taken */
		{ "jcc taken", "branch_retired", 0x1, 1, BR | CND | TK, 0, 0 },
		{ "jcc taken", "branch_retired", 0x4, 1, BR | CND | TK, 0, 1 },
		{ "jcc not taken", "branch_retired", 0x1, 1, BR | CND, 0, 1 },
		{ "jcc not taken", "branch_retired", 0x4, 1, BR | CND, 0, 0 },
		{ "jcc not taken", "branch_retired", 0xf, 1, BR | CND, 0, 1 },
		{ "jcc taken x3", "branch_retired", 0xf, 1, BR | CND | TK, 2,
		  3 },
		{ "nop", "branch_retired", 0xf, 1, 0, 0, 0 },
		{ "far transfer (not near)", "branch_retired", 0xf, 1,
		  FAR | TK, 0, 0 },
		/* retired_branch_type */
		{ "call", "retired_branch_type", 0x4, 1, BR | CL | TK, 0, 1 },
		{ "call", "retired_branch_type", 0x2, 1, BR | CL | TK, 0, 0 },
		{ "ret", "retired_branch_type", 0x8, 1, BR | RT | TK, 0, 1 },
		{ "ret", "retired_branch_type", 0xe, 1, BR | RT | TK, 0, 1 },
		{ "jcc not taken", "retired_branch_type", 0x2, 1, BR | CND, 0,
		  1 },
		{ "jmp", "retired_branch_type", 0xe, 1, BR | TK, 0, 0 },
		{ "call", "retired_mispred_branch_type", 0xe, 1, BR | CL | TK,
		  0, 0 },
		/* RUNNING: one per clock, retired or not */
		{ "nop", "global_power_events", 0x1, 1, 0, 0, 1 },
		{ "rep iteration", "global_power_events", 0x1, 0, REP, 0, 1 },
		{ "nop x3", "global_power_events", 0x1, 1, 0, 2, 3 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		const struct nb_event *ev = nb_event_by_name(cases[i].name);
		struct insn_event e = step(cases[i].retired, cases[i].flags,
					   cases[i].more);
		uint64_t got;

		assert_non_null(ev);
		got = nb_event_step(ev, cases[i].emask, &e);
		if (got != cases[i].want)
			fail_msg("%s, %s 0x%x: %llu, want %llu",
				 cases[i].what, cases[i].name, cases[i].emask,
				 (unsigned long long)got,
				 (unsigned long long)cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escr_encoding),
		cmocka_unit_test(test_cccr_encoding),
		cmocka_unit_test(test_escr_select_model2),
		cmocka_unit_test(test_escr_select_model3),
		cmocka_unit_test(test_rat_ssu_erratum),
		cmocka_unit_test(test_escr_table),
		cmocka_unit_test(test_cascade_pairs),
		cmocka_unit_test(test_cccr_filter),
		cmocka_unit_test(test_cccr_filter_edge_state),
		cmocka_unit_test(test_escr_counts_at),
		cmocka_unit_test(test_cascade_pmi_erratum),
		cmocka_unit_test(test_ext_cascade_exists),
		cmocka_unit_test(test_hyperthreading),
		cmocka_unit_test(test_event_invariants),
		cmocka_unit_test(test_event_facts),
		cmocka_unit_test(test_emask_modelled),
		cmocka_unit_test(test_event_step),
	};

	return cmocka_run_group_tests_name("netburst", tests, NULL, NULL);
}
