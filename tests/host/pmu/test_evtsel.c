/* Host tests for pmu/evtsel.c: the PerfEvtSel fields and the per-cycle
 * CMASK/INV/E rule.
 *
 * The layout, written here from SDM Vol. 3B (order no. 253669-060US)
 * Figure 18-1 "Layout of IA32_PERFEVTSELx MSRs": 7:0 event select, 15:8
 * unit mask, 16 USR, 17 OS, 18 E, 19 PC, 20 INT, 21 ANY, 22 EN, 23 INV,
 * 31:24 CMASK; bits 63:32 are none of these fields.
 *
 * The rule, written here from §18.2.1.1 as a reference that walks one
 * cycle at a time (sdm_cycle below), independent of pmu/evtsel.c:
 *   - "CMASK ... When this field is not zero, a logical processor compares
 *     this mask to the events count of the detected microarchitectural
 *     condition during a single cycle.  If the event count is greater
 *     than or equal to this mask, the counter is incremented by one.
 *     Otherwise the counter is not incremented.  ... If the counter-mask
 *     field is 0, then the counter is incremented each cycle by the event
 *     count associated with multiple occurrences.";
 *   - "INV ... inverts the counter-mask (CMASK) comparison, so that both
 *     greater than or equal to and less than comparisons can be made (0:
 *     greater than or equal; 1: less than).  Note if counter-mask is
 *     programmed to zero, INV flag is ignored.";
 *   - "E ... the logical processor counts the number of deasserted to
 *     asserted transitions for any condition that can be expressed by the
 *     other fields.  The mechanism does not permit back-to-back
 *     assertions to be distinguished." (with CMASK 0 the condition is "at
 *     least one event").
 * A cycle the counter does not see (evtsel_idle: another CPL, counting
 * disabled) deasserts the condition and adds nothing; a new PerfEvtSel
 * starts deasserted.  evtsel_cycles(n, k) is k identical cycles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/evtsel.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: pmu/evtsel.c lib/fmt.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* xorshift64: a fixed stream of test values. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void assert_evtsel_equal(const struct evtsel *a,
				const struct evtsel *b)
{
	if (a->event != b->event || a->umask != b->umask ||
	    a->cmask != b->cmask || a->usr != b->usr || a->os != b->os ||
	    a->edge != b->edge || a->pc != b->pc || a->intr != b->intr ||
	    a->any != b->any || a->en != b->en || a->inv != b->inv)
		fail_msg("evtsel differs: ev %#x/%#x um %#x/%#x cmask %u/%u "
			 "usr %u/%u os %u/%u e %u/%u pc %u/%u int %u/%u any "
			 "%u/%u en %u/%u inv %u/%u", a->event, b->event,
			 a->umask, b->umask, a->cmask, b->cmask, a->usr,
			 b->usr, a->os, b->os, a->edge, b->edge, a->pc, b->pc,
			 a->intr, b->intr, a->any, b->any, a->en, b->en,
			 a->inv, b->inv);
}

/* ---- fields ------------------------------------------------------------- */

/* Each one-bit flag and where Figure 18-1 puts it. */
static const struct {
	const char *name;
	size_t off;
	unsigned bit;
} flags[] = {
	{ "usr", offsetof(struct evtsel, usr), 16 },
	{ "os", offsetof(struct evtsel, os), 17 },
	{ "e", offsetof(struct evtsel, edge), 18 },
	{ "pc", offsetof(struct evtsel, pc), 19 },
	{ "int", offsetof(struct evtsel, intr), 20 },
	{ "any", offsetof(struct evtsel, any), 21 },
	{ "en", offsetof(struct evtsel, en), 22 },
	{ "inv", offsetof(struct evtsel, inv), 23 },
};

static void test_flag_bits(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(flags); i++) {
		struct evtsel s = { 0 }, d;

		((uint8_t *)&s)[flags[i].off] = 1;
		if (evtsel_encode(&s) != 1ull << flags[i].bit)
			fail_msg("%s encodes to %#llx, want bit %u",
				 flags[i].name,
				 (unsigned long long)evtsel_encode(&s),
				 flags[i].bit);
		d = evtsel_decode(1ull << flags[i].bit);
		assert_evtsel_equal(&d, &s);
		/* a flag is 0 or 1 after decode, whatever was encoded */
		((uint8_t *)&s)[flags[i].off] = 0x80;
		d = evtsel_decode(evtsel_encode(&s));
		assert_int_equal(((uint8_t *)&d)[flags[i].off], 1);
	}
	/* the macros agree with the figure */
	assert_true(EVTSEL_USR == 1ull << 16 && EVTSEL_OS == 1ull << 17 &&
		    EVTSEL_EDGE == 1ull << 18 && EVTSEL_PC == 1ull << 19 &&
		    EVTSEL_INT == 1ull << 20 && EVTSEL_ANY == 1ull << 21 &&
		    EVTSEL_EN == 1ull << 22 && EVTSEL_INV == 1ull << 23);
}

static void test_byte_fields(void **state)
{
	(void)state;
	for (unsigned v = 0; v < 256; v++) {
		struct evtsel s = { 0 }, d;

		s.event = (uint8_t)v;
		assert_true(evtsel_encode(&s) == v);
		d = evtsel_decode(v);
		assert_evtsel_equal(&d, &s);

		s = (struct evtsel){ .umask = (uint8_t)v };
		assert_true(evtsel_encode(&s) == (uint64_t)v << 8);
		d = evtsel_decode((uint64_t)v << 8);
		assert_evtsel_equal(&d, &s);

		s = (struct evtsel){ .cmask = (uint8_t)v };
		assert_true(evtsel_encode(&s) == (uint64_t)v << 24);
		d = evtsel_decode((uint64_t)v << 24);
		assert_evtsel_equal(&d, &s);
	}
}

static void test_round_trips(void **state)
{
	(void)state;
	/* every 32-bit pattern we try survives decode/encode; bits 63:32
	 * are not fields and do not come back */
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t v = rng();
		struct evtsel s = evtsel_decode(v), t;

		assert_true(evtsel_encode(&s) == (v & 0xffffffffull));
		t = evtsel_decode(v & 0xffffffffull);
		assert_evtsel_equal(&t, &s);
	}
	/* and every struct survives encode/decode */
	for (unsigned i = 0; i < 10000; i++) {
		uint64_t r = rng();
		struct evtsel s = {
			.event = (uint8_t)r, .umask = (uint8_t)(r >> 8),
			.cmask = (uint8_t)(r >> 16), .usr = r >> 24 & 1,
			.os = r >> 25 & 1, .edge = r >> 26 & 1,
			.pc = r >> 27 & 1, .intr = r >> 28 & 1,
			.any = r >> 29 & 1, .en = r >> 30 & 1,
			.inv = r >> 31 & 1,
		}, d = evtsel_decode(evtsel_encode(&s));

		assert_evtsel_equal(&d, &s);
	}
	assert_true(EVTSEL_DEFINED == 0xffffffffull);
}

static void test_names(void **state)
{
	static const struct { uint64_t v; const char *want; } cases[] = {
		{ 0, "ev=0x00 um=0x00 cmask=0" },
		{ 0x4300c0, "ev=0xc0 um=0x00 usr os en cmask=0" },
		{ 0x53003c, "ev=0x3c um=0x00 usr os int en cmask=0" },
		{ 0x1c4014f, "ev=0x4f um=0x01 e en inv cmask=1" },
		{ 0xffffffff, "ev=0xff um=0xff usr os e pc int any en inv "
			      "cmask=255" },
		/* bits 63:32 are not named */
		{ 0xffffffff00000000ull, "ev=0x00 um=0x00 cmask=0" },
		{ 1ull << 19, "ev=0x00 um=0x00 pc cmask=0" },
		{ 1ull << 21, "ev=0x00 um=0x00 any cmask=0" },
	};
	char buf[128];

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		size_t len = strlen(cases[i].want);

		evtsel_name(cases[i].v, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].want);
		/* too small: a terminated prefix */
		for (unsigned size = 1; size <= len; size++) {
			memset(buf, 'X', sizeof(buf));
			evtsel_name(cases[i].v, buf, size);
			if (strlen(buf) != size - 1 ||
			    strncmp(buf, cases[i].want, size - 1) ||
			    buf[size] != 'X')
				fail_msg("%#llx size %u: \"%s\"",
					 (unsigned long long)cases[i].v, size,
					 buf);
		}
	}
}

/* ---- the CMASK/INV/E rule ----------------------------------------------- */

/* The SDM's rule, one cycle at a time: what a cycle with n events adds,
 * and the condition it leaves behind in *asserted. */
static uint64_t sdm_cycle(unsigned cmask, int inv, int edge, int *asserted,
			  uint64_t n)
{
	int cond;
	uint64_t add;

	if (cmask == 0)
		cond = n > 0;			/* INV ignored */
	else if (!inv)
		cond = n >= cmask;
	else
		cond = n < cmask;
	if (edge)
		add = cond && !*asserted;	/* transitions only */
	else if (cmask == 0)
		add = n;			/* the count itself */
	else
		add = cond;			/* 1 per cycle */
	*asserted = cond;
	return add;
}

/* A piece of a stream: `cycles` cycles of n events, or (idle) cycles
 * the counter does not see. */
struct seg {
	uint64_t n, cycles;
	int idle;
};

/* The reference over a stream, one cycle at a time. */
static uint64_t sdm_stream(const struct evtsel *s, const struct seg *seg,
			   unsigned nseg, int *asserted)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < nseg; i++)
		for (uint64_t k = 0; k < seg[i].cycles; k++) {
			if (seg[i].idle) {
				*asserted = 0;
				continue;
			}
			total += sdm_cycle(s->cmask, s->inv, s->edge,
					   asserted, seg[i].n);
		}
	return total;
}

/* pmu/evtsel.c over the same stream, a run at a time. */
static uint64_t run_stream(const struct evtsel *s, const struct seg *seg,
			   unsigned nseg, struct evtsel_edge *e)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < nseg; i++) {
		if (seg[i].idle) {
			if (seg[i].cycles)
				evtsel_idle(e);
			continue;
		}
		total += evtsel_cycles(s, e, seg[i].n, seg[i].cycles);
	}
	return total;
}

/* Hand-made streams with the counts worked out from the text above. */
static void test_rule_examples(void **state)
{
	/* per-cycle counts 0 1 1 0 2 2 2 0 3 */
	static const struct seg stream[] = {
		{ 0, 1, 0 }, { 1, 2, 0 }, { 0, 1, 0 }, { 2, 3, 0 },
		{ 0, 1, 0 }, { 3, 1, 0 },
	};
	static const struct {
		unsigned cmask;
		int inv, edge;
		uint64_t want;
	} cases[] = {
		{ 0, 0, 0, 11 },	/* the sum */
		{ 0, 1, 0, 11 },	/* INV ignored without CMASK */
		{ 0, 0, 1, 3 },		/* runs of nonzero: 11, 222, 3 */
		{ 0, 1, 1, 3 },
		{ 1, 0, 0, 6 },		/* cycles with >= 1 */
		{ 2, 0, 0, 4 },		/* cycles with >= 2 */
		{ 3, 0, 0, 1 },
		{ 4, 0, 0, 0 },
		{ 1, 1, 0, 3 },		/* cycles with < 1 */
		{ 2, 1, 0, 5 },		/* cycles with < 2 */
		{ 4, 1, 0, 9 },
		{ 2, 0, 1, 2 },		/* runs of >= 2: 222, 3 */
		{ 2, 1, 1, 2 },		/* runs of < 2: 0110, 0 */
		{ 255, 1, 1, 1 },	/* always asserted: counted once */
		{ 255, 0, 1, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		struct evtsel s = { .cmask = (uint8_t)cases[i].cmask,
				    .inv = (uint8_t)cases[i].inv,
				    .edge = (uint8_t)cases[i].edge };
		struct evtsel_edge e = { 0 };
		int asserted = 0;
		uint64_t got = run_stream(&s, stream, N(stream), &e);
		uint64_t ref = sdm_stream(&s, stream, N(stream), &asserted);

		if (got != cases[i].want || ref != cases[i].want)
			fail_msg("cmask %u inv %d e %d: got %llu, reference "
				 "%llu, want %llu", cases[i].cmask,
				 cases[i].inv, cases[i].edge,
				 (unsigned long long)got,
				 (unsigned long long)ref,
				 (unsigned long long)cases[i].want);
	}
}

static void test_rule_edge_state(void **state)
{
	struct evtsel s = { .edge = 1 };
	struct evtsel_edge e = { 0 };

	(void)state;
	/* a new PerfEvtSel starts deasserted: the first asserted cycle is a
	 * transition */
	assert_true(evtsel_cycles(&s, &e, 1, 1) == 1);
	/* back-to-back assertions are one, across calls and runs */
	assert_true(evtsel_cycles(&s, &e, 5, 1) == 0);
	assert_true(evtsel_cycles(&s, &e, 1, 1000) == 0);
	/* zero cycles change nothing */
	assert_true(evtsel_cycles(&s, &e, 0, 0) == 0);
	assert_true(evtsel_cycles(&s, &e, 1, 1) == 0);
	/* a cycle the counter does not see ends the assertion */
	evtsel_idle(&e);
	assert_true(evtsel_cycles(&s, &e, 1, 3) == 1);
	/* so does a cycle without events */
	assert_true(evtsel_cycles(&s, &e, 0, 1) == 0);
	assert_true(evtsel_cycles(&s, &e, 2, 1) == 1);
	/* without E, idle and the edge state change nothing */
	s.edge = 0;
	evtsel_idle(&e);
	assert_true(evtsel_cycles(&s, &e, 3, 4) == 12);
	assert_true(evtsel_cycles(&s, &e, 3, 4) == 12);
	s.cmask = 3;
	assert_true(evtsel_cycles(&s, &e, 3, 4) == 4);
	assert_true(evtsel_cycles(&s, &e, 2, 4) == 0);
	s.inv = 1;
	assert_true(evtsel_cycles(&s, &e, 2, 4) == 4);
	/* large runs: n * cycles, and 1 per cycle */
	s = (struct evtsel){ 0 };
	assert_true(evtsel_cycles(&s, &e, 1000, 1000000) == 1000000000ull);
	s.cmask = 1;
	assert_true(evtsel_cycles(&s, &e, 1000, 1000000) == 1000000);
}

/* Random streams over every filter shape against the reference, the
 * total and the condition left behind, a run at a time and a cycle at a
 * time. */
static void test_rule_random_streams(void **state)
{
	static const unsigned cmasks[] = { 0, 1, 2, 3, 4, 5, 7, 255 };
	struct seg seg[24];

	(void)state;
	for (unsigned round = 0; round < 4000; round++) {
		unsigned nseg = 1 + (unsigned)(rng() % N(seg));

		for (unsigned i = 0; i < nseg; i++) {
			uint64_t r = rng();

			seg[i].idle = (r & 7) == 0;
			seg[i].n = r >> 3 & 7;	/* 0..7 events a cycle */
			seg[i].cycles = r >> 6 & 3 ? r >> 8 & 7 : 0;
		}
		for (unsigned c = 0; c < N(cmasks); c++)
			for (unsigned f = 0; f < 4; f++) {
				struct evtsel s = {
					.cmask = (uint8_t)cmasks[c],
					.inv = f & 1, .edge = f >> 1 & 1,
					/* fields the rule does not read */
					.event = 0xc0, .usr = 1, .en = 1,
				};
				struct evtsel_edge e = { 0 }, e1 = { 0 };
				int asserted = 0;
				uint64_t ref = sdm_stream(&s, seg, nseg,
							  &asserted);
				uint64_t got = run_stream(&s, seg, nseg, &e);
				uint64_t one = 0;

				/* the same stream a cycle at a time */
				for (unsigned i = 0; i < nseg; i++)
					for (uint64_t k = 0;
					     k < seg[i].cycles; k++) {
						if (seg[i].idle)
							evtsel_idle(&e1);
						else
							one += evtsel_cycles(
								&s, &e1,
								seg[i].n, 1);
					}
				if (got != ref || one != ref ||
				    !!e.asserted != asserted ||
				    !!e1.asserted != asserted)
					fail_msg("round %u cmask %u inv %u e "
						 "%u: runs %llu, cycles %llu, "
						 "reference %llu; asserted "
						 "%u/%u, reference %d", round,
						 cmasks[c], f & 1, f >> 1,
						 (unsigned long long)got,
						 (unsigned long long)one,
						 (unsigned long long)ref,
						 e.asserted, e1.asserted,
						 asserted);
			}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flag_bits),
		cmocka_unit_test(test_byte_fields),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_rule_examples),
		cmocka_unit_test(test_rule_edge_state),
		cmocka_unit_test(test_rule_random_streams),
	};

	return cmocka_run_group_tests_name("evtsel", tests, NULL, NULL);
}
