/* Host tests for lib/pt/timing.c: the cycle time of each branch from the
 * CYC packets (Intel SDM Vol. 3C, order no. 326019-060US, §36.3.6.2,
 * §36.4.2.14 Table 36-33).  Each rule has a test that fails when the rule
 * is applied wrong: CYCs accumulate onto the next CYC-eligible packet
 * (not only the last one counts), a CYC before a TNT times its first
 * branch only (not all of them), other branches are bounded [last CYC,
 * next CYC) and open at the end, packets in PSB+ (and FUP anywhere) are
 * not CYC-eligible, and after an error the times restart at 0 in a new
 * epoch.  Streams are built here byte by byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/pt/packet.h"
#include "lib/pt/timing.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pt_bytes.h"

/* host-sources: lib/pt/decode.c lib/pt/timing.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define OPEN PT_TIME_OPEN

/* TNT-8 with count branches, bits[count-1] the oldest (1 = taken) */
static void tnt(struct sb *s, unsigned bits, unsigned count)
{
	PUT(s, (uint8_t)(((1u << count) | bits) << 1));
}

/* TIP with a 16-bit update */
static void tip(struct sb *s, uint16_t ip)
{
	PUT(s, 0x2d, (uint8_t)ip, (uint8_t)(ip >> 8));
}

#define PSBEND(s) PUT(s, 0x02, 0x23)
#define FUP16(s, ip) PUT(s, 0x3d, (uint8_t)(ip), (uint8_t)((ip) >> 8))
#define MODE_EXEC(s) PUT(s, 0x99, 0x01)
#define TSC(s) PUT(s, 0x19, 1, 2, 3, 4, 5, 6, 7)
#define MTC(s) PUT(s, 0x59, 0x42)
#define CBR(s) PUT(s, 0x02, 0x03, 0x20, 0x00)
#define PAD(s) PUT(s, 0x00)

struct run {
	struct pt_branch b[512];
	struct pt_timing_result r;
};

static void timing(const struct sb *s, struct run *t, size_t max)
{
	uint8_t *copy = malloc(s->n ? s->n : 1);

	assert_non_null(copy);
	memcpy(copy, s->b, s->n);
	assert_true(max <= N(t->b));
	memset(t->b, 0xa5, sizeof(t->b));
	pt_timing(copy, s->n, t->b, max, &t->r);
	free(copy);
}

/* Branch i: exact at lo, or (exact 0) [lo, hi). */
static void want(const struct run *t, size_t i, int exact, uint64_t lo,
		 uint64_t hi)
{
	const struct pt_branch *b = &t->b[i];

	assert_true(i < t->r.branches);
	if (b->exact != exact || b->time != lo ||
	    b->hi != (exact ? lo : hi))
		fail_msg("branch %zu (%s at %llu bit %u): %s %llu hi %llu, "
			 "want %s %llu hi %llu", i, pt_pkt_name(b->type),
			 (unsigned long long)b->offset, b->bit,
			 b->exact ? "exact" : "bounded",
			 (unsigned long long)b->time,
			 (unsigned long long)b->hi, exact ? "exact" : "bounded",
			 (unsigned long long)lo, (unsigned long long)hi);
}

/* Several CYCs before the next CYC-eligible packet accumulate onto it:
 * 3 + 4 + 5 = 12, not 5 (the last) nor 3 (the first). */
static void test_accumulate(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	e_cyc(&s, 3);
	e_cyc(&s, 4);
	PAD(&s);		/* neither eligible nor a CYC */
	e_cyc(&s, 5);
	tip(&s, 0x1000);
	e_cyc(&s, 100);
	e_cyc(&s, 4096);		/* a 3-byte one */
	tip(&s, 0x2000);
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 2);
	want(&t, 0, 1, 12, 0);
	want(&t, 1, 1, 12 + 100 + 4096, 0);
	assert_int_equal(t.r.cycles, 12 + 100 + 4096);
	assert_int_equal(t.r.errors, 0);
}

/* A CYC before a TNT times its first (oldest) branch only; the later
 * ones lie in [that time, the next CYC's). */
static void test_tnt_first_branch(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	e_cyc(&s, 5);
	tnt(&s, 0x6, 4);	/* oldest first: N T T N */
	e_cyc(&s, 7);
	tnt(&s, 0x1, 1);
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 5);
	want(&t, 0, 1, 5, 0);
	want(&t, 1, 0, 5, 12);
	want(&t, 2, 0, 5, 12);
	want(&t, 3, 0, 5, 12);
	want(&t, 4, 1, 12, 0);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(t.b[i].bit, i);
		assert_int_equal(t.b[i].offset, 1);
		assert_int_equal(t.b[i].type, PT_PKT_TNT8);
	}
	assert_int_equal(t.b[0].taken, 0);
	assert_int_equal(t.b[1].taken, 1);
	assert_int_equal(t.b[2].taken, 1);
	assert_int_equal(t.b[3].taken, 0);
	assert_int_equal(t.b[4].taken, 1);
}

/* TNT-64: the same rule over 47 branches. */
static void test_tnt64(void **state)
{
	struct sb s = { .n = 0 };
	uint64_t bits = 0x5555555555ull << 7 | 0x3;	/* 47 bits */
	uint64_t raw = 1ull << 47 | bits;
	struct run t;

	e_cyc(&s, 9);
	PUT(&s, 0x02, 0xa3);
	for (int i = 0; i < 6; i++)
		PUT(&s, (uint8_t)(raw >> 8 * i));
	e_cyc(&s, 1);
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 47);
	want(&t, 0, 1, 9, 0);
	for (unsigned i = 1; i < 47; i++)
		want(&t, i, 0, 9, 10);
	for (unsigned i = 0; i < 47; i++) {
		assert_int_equal(t.b[i].taken, bits >> (46 - i) & 1);
		assert_int_equal(t.b[i].type, PT_PKT_TNT64);
	}
}

/* CycThresh > 0 (Table 36-14): branches with no CYC right before them
 * are bounded by the CYC before and the CYC after. */
static void test_bounded(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	tip(&s, 0x10);		/* before any CYC: [0, 20) */
	e_cyc(&s, 20);
	tip(&s, 0x11);		/* 20 */
	tip(&s, 0x12);		/* [20, 50) */
	tnt(&s, 0x1, 2);	/* [20, 50) twice */
	PAD(&s);
	e_cyc(&s, 30);
	e_cyc(&s, 6);		/* the upper bound is the first CYC after */
	tip(&s, 0x13);		/* 56 */
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 6);
	want(&t, 0, 0, 0, 20);
	want(&t, 1, 1, 20, 0);
	want(&t, 2, 0, 20, 50);
	want(&t, 3, 0, 20, 50);
	want(&t, 4, 0, 20, 50);
	want(&t, 5, 1, 56, 0);
}

/* A CYC of 0 after bounded branches: no cycle lies in [20, 20), so
 * they took place at 20 exactly. */
static void test_cyc_zero(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	e_cyc(&s, 20);
	tip(&s, 0x11);		/* 20 */
	tnt(&s, 0x2, 2);	/* bounded until the CYC of 0: 20 */
	e_cyc(&s, 0);
	tip(&s, 0x12);		/* 20 */
	tip(&s, 0x13);		/* [20, 25) */
	e_cyc(&s, 5);
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 5);
	want(&t, 0, 1, 20, 0);
	want(&t, 1, 1, 20, 0);
	want(&t, 2, 1, 20, 0);
	want(&t, 3, 1, 20, 0);
	want(&t, 4, 0, 20, 25);
}

/* No CYC after a branch: its upper bound is open. */
static void test_open(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	e_cyc(&s, 8);
	tip(&s, 0x10);
	tip(&s, 0x20);
	tnt(&s, 0x0, 1);
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 3);
	want(&t, 0, 1, 8, 0);
	want(&t, 1, 0, 8, OPEN);
	want(&t, 2, 0, 8, OPEN);
	assert_int_equal(t.r.cycles, 8);
}

/* PSB+ (§36.3.7): its TSC, MODE.Exec, FUP, CBR are status only and take
 * no CYC time; the TIP.PGE after PSBEND gets the CYC before the PSB.  An
 * MTC keeps its meaning there. */
static void test_psb_plus(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	e_cyc(&s, 4);
	e_psb(&s);
	TSC(&s);
	CBR(&s);
	MODE_EXEC(&s);
	FUP16(&s, 0x4000);
	PSBEND(&s);
	PUT(&s, 0x31, 0x00, 0x50);	/* TIP.PGE, update 16: 0x5000 */
	e_cyc(&s, 2);
	e_psb(&s);
	MTC(&s);			/* eligible even in PSB+ */
	PSBEND(&s);
	tip(&s, 0x6000);
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 2);
	want(&t, 0, 1, 4, 0);
	assert_int_equal(t.b[0].type, PT_PKT_TIP_PGE);
	assert_int_equal(t.b[0].ip_valid, 1);
	assert_int_equal(t.b[0].ip, 0x5000);
	want(&t, 1, 0, 6, OPEN);

	/* OVF ends PSB+ too (§36.3.7): the TIP after it is eligible */
	s.n = 0;
	e_psb(&s);
	e_cyc(&s, 3);
	PUT(&s, 0x02, 0xf3);	/* OVF: eligible, takes the 3 */
	e_cyc(&s, 2);
	tip(&s, 0x7000);	/* 5 */
	tip(&s, 0x7001);	/* [5, -) */
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 2);
	want(&t, 0, 1, 5, 0);
	want(&t, 1, 0, 5, OPEN);
}

/* FUP is not CYC-eligible (§36.3.6): a CYC before it still times the TIP
 * after it.  TSC and MODE.Exec outside PSB+ are eligible: they take the
 * CYC's time and the TIP after them is only bounded. */
static void test_eligibility(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	e_cyc(&s, 10);
	FUP16(&s, 0x100);
	tip(&s, 0x200);		/* 10 */
	e_cyc(&s, 1);
	TSC(&s);
	tip(&s, 0x300);		/* [11, 13) */
	e_cyc(&s, 2);
	MODE_EXEC(&s);
	tip(&s, 0x400);		/* [13, -) */
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 3);
	want(&t, 0, 1, 10, 0);
	want(&t, 1, 0, 11, 13);
	want(&t, 2, 0, 13, OPEN);
}

/* After an error decoding resumes at the next PSB: a new epoch whose
 * time starts at 0; the branches before it keep an open upper bound. */
static void test_error_epoch(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	e_cyc(&s, 100);
	tip(&s, 0x10);		/* 100 */
	tip(&s, 0x20);		/* [100, -): its epoch has no CYC after */
	PUT(&s, 0xc9);		/* no packet starts so (libipt's
				 * pt_opc_bad) */
	e_cyc(&s, 1000);		/* skipped up to the PSB */
	tip(&s, 0x30);
	e_psb(&s);
	PSBEND(&s);
	tip(&s, 0x40);		/* [0, 5) epoch 1 */
	e_cyc(&s, 5);
	tip(&s, 0x50);		/* 5, epoch 1 */
	PUT(&s, 0x99, 0xe0);	/* a reserved MODE leaf */
	e_psb(&s);
	PSBEND(&s);
	e_cyc(&s, 7);
	tnt(&s, 1, 1);		/* 7, epoch 2 */
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 5);
	want(&t, 0, 1, 100, 0);
	want(&t, 1, 0, 100, OPEN);
	want(&t, 2, 0, 0, 5);
	want(&t, 3, 1, 5, 0);
	want(&t, 4, 1, 7, 0);
	assert_int_equal(t.b[1].epoch, 0);
	assert_int_equal(t.b[2].epoch, 1);
	assert_int_equal(t.b[3].epoch, 1);
	assert_int_equal(t.b[4].epoch, 2);
	assert_int_equal(t.b[2].ip, 0x40);
	assert_int_equal(t.r.errors, 2);
	assert_int_equal(t.r.first_error, 8);
	assert_int_equal(t.r.cycles, 7);
}

/* TIP, TIP.PGE, TIP.PGD are branches with their IP (after last IP, or
 * none when suppressed); FUP is not one. */
static void test_branch_kinds(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	PUT(&s, 0xd1, 1, 2, 3, 4, 5, 6, 7, 8);	/* TIP.PGE, full IP */
	FUP16(&s, 0x1111);
	tip(&s, 0x2222);
	PUT(&s, 0x01);				/* TIP.PGD, suppressed */
	PUT(&s, 0x0d);				/* TIP, suppressed */
	PUT(&s, 0x41, 0x44, 0x33, 0x22, 0x11);	/* TIP.PGD, update 32 */
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 5);
	assert_int_equal(t.b[0].type, PT_PKT_TIP_PGE);
	assert_int_equal(t.b[0].ip, 0x0807060504030201ull);
	assert_int_equal(t.b[0].ip_valid, 1);
	assert_int_equal(t.b[1].type, PT_PKT_TIP);
	assert_int_equal(t.b[1].ip, 0x0807060504032222ull);
	assert_int_equal(t.b[1].offset, 12);
	assert_int_equal(t.b[2].type, PT_PKT_TIP_PGD);
	assert_int_equal(t.b[2].ip_valid, 0);
	assert_int_equal(t.b[3].type, PT_PKT_TIP);
	assert_int_equal(t.b[3].ip_valid, 0);
	assert_int_equal(t.b[4].type, PT_PKT_TIP_PGD);
	assert_int_equal(t.b[4].ip, 0x0807060511223344ull);
	for (unsigned i = 0; i < 5; i++)
		want(&t, i, 0, 0, OPEN);
}

/* More branches than out[] holds: the first max are written (with their
 * upper bounds), the rest counted in lost. */
static void test_lost(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	e_cyc(&s, 1);
	for (int i = 0; i < 10; i++)
		tnt(&s, 0x2a, 6);
	e_cyc(&s, 2);
	timing(&s, &t, 7);
	assert_int_equal(t.r.branches, 7);
	assert_int_equal(t.r.lost, 53);
	want(&t, 0, 1, 1, 0);
	want(&t, 6, 0, 1, 3);
	assert_int_equal(t.b[7].offset, 0xa5a5a5a5a5a5a5a5ull);
	timing(&s, &t, 0);
	assert_int_equal(t.r.branches, 0);
	assert_int_equal(t.r.lost, 60);
	assert_int_equal(t.r.cycles, 3);
}

/* Large counts: a 10-byte CYC (2^64 - 1 fits) and sums past 2^32. */
static void test_large(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	e_cyc(&s, 0x123456789ull);
	tip(&s, 1);
	e_cyc(&s, 1ull << 62);
	tnt(&s, 0, 1);
	timing(&s, &t, N(t.b));
	want(&t, 0, 1, 0x123456789ull, 0);
	want(&t, 1, 1, 0x123456789ull + (1ull << 62), 0);
	assert_int_equal(t.r.cycles, 0x123456789ull + (1ull << 62));
}

/* The sum of the CYCs (each up to 2^64-1, Table 36-33) passes 64 bits
 * only in a damaged or hostile stream, but it must not wrap: 2^63 +
 * (2^63 - 1) = 2^64 - 1 is a time like any other (an upper bound of
 * 2^64-1 is a bound, not "open"); one cycle more saturates: the sum
 * stays 2^64-1, flagged, the branches still open stay open and the next
 * ones are [2^64-1, open), never exact. */
static void test_saturate(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	e_cyc(&s, 1ull << 63);
	tip(&s, 1);			/* 2^63 */
	tnt(&s, 1, 1);			/* [2^63, 2^64-1) */
	e_cyc(&s, (1ull << 63) - 1);
	tip(&s, 2);			/* 2^64-1 */
	tip(&s, 3);			/* [2^64-1, open): the sum passes */
	e_cyc(&s, 1);
	tip(&s, 4);			/* [2^64-1, open), not exact */
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 5);
	want(&t, 0, 1, 1ull << 63, 0);
	want(&t, 1, 0, 1ull << 63, UINT64_MAX);
	assert_int_equal(t.b[1].open, 0);
	want(&t, 2, 1, UINT64_MAX, 0);
	assert_int_equal(t.b[2].open, 0);
	for (int i = 3; i < 5; i++) {
		want(&t, i, 0, UINT64_MAX, OPEN);
		assert_int_equal(t.b[i].open, 1);
	}
	assert_int_equal(t.r.cycles, UINT64_MAX);
	assert_int_equal(t.r.saturated, 1);

	s.n = 0;		/* no flag where the sum did not pass */
	e_cyc(&s, UINT64_MAX);
	tip(&s, 1);
	timing(&s, &t, N(t.b));
	want(&t, 0, 1, UINT64_MAX, 0);
	assert_int_equal(t.r.saturated, 0);
}

/* Branches with no CYC after them are open, the others not. */
static void test_open_flag(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	tip(&s, 1);
	e_cyc(&s, 5);
	tip(&s, 2);
	tip(&s, 3);
	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 3);
	assert_int_equal(t.b[0].open, 0);	/* [0, 5) */
	assert_int_equal(t.b[1].open, 0);	/* 5 */
	assert_int_equal(t.b[2].open, 1);	/* [5, open) */
}

/* SKD007 (lib/pt/errata.c): CYC F7 with its other bytes overwritten by
 * an OVF, 02 F3.  Read as CYCs of 3Eh and 1Eh (libipt's skd007.ptt),
 * they would put 5Ch = 92 cycles on every later time; with the
 * workaround the OVF carries none (the TIP after it: 10). */
static void test_skd007_time(void **state)
{
	struct sb s = { .n = 0 };
	struct pt_branch b[4];
	struct pt_timing_result r;

	PUT(&s, 0xf7, 0x02, 0xf3);
	e_cyc(&s, 10);
	tip(&s, 1);
	pt_timing_errata(s.b, s.n, PT_ERRATUM_SKD007, b, 4, &r);
	assert_int_equal(r.branches, 1);
	assert_int_equal(b[0].exact, 1);
	assert_int_equal(b[0].time, 10);
	pt_timing_errata(s.b, s.n, 0, b, 4, &r);
	assert_int_equal(b[0].time, 10 + 0x3e + 0x1e);
}

static void test_empty(void **state)
{
	struct sb s = { .n = 0 };
	struct run t;

	timing(&s, &t, N(t.b));
	assert_int_equal(t.r.branches, 0);
	assert_int_equal(t.r.lost, 0);
	assert_int_equal(t.r.errors, 0);
	assert_int_equal(t.r.cycles, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accumulate),
		cmocka_unit_test(test_tnt_first_branch),
		cmocka_unit_test(test_tnt64),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_cyc_zero),
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_psb_plus),
		cmocka_unit_test(test_eligibility),
		cmocka_unit_test(test_error_epoch),
		cmocka_unit_test(test_branch_kinds),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_saturate),
		cmocka_unit_test(test_open_flag),
		cmocka_unit_test(test_skd007_time),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
