/* Host tests for pmu/sem.c: sem_step() and sem_steps_with() on hand-made
 * single-step events (arch/x86/trace.h), one table row per kind of step
 * with every count's expected value written out, the aggregation rule (an
 * event with more = k is k + 1 identical steps), sem_sum() over masks,
 * and the names.  sem_steps_with() is the steps in which a count happened
 * (a duration in model clocks): 1 + more when the row's count is
 * nonzero, else 0, whatever the count's size.
 *
 * The rules, from pmu/sem.h: instructions count retired steps only (a REP
 * string instruction once, on its last iteration); branches, taken, cond,
 * calls and returns count retired near branches (DEC_BRANCH) only, taken
 * those with EV_TAKEN; far counts retired far transfers (DEC_FAR), which
 * are not near branches; loads and stores count on every step, retired or
 * not; segloads counts retired DEC_SEGLOAD steps; clocks is 1 per step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/sem.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/host/arch/x86/dec_flags.h"

/* host-sources: pmu/sem.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))


/* Short names for the expected-value columns. */
enum {
	I = SEM_INSTRUCTIONS, B = SEM_BRANCHES, T = SEM_TAKEN, C = SEM_COND,
	CA = SEM_CALLS, R = SEM_RETURNS, F = SEM_FAR, L = SEM_LOADS,
	S = SEM_STORES, SG = SEM_SEGLOADS, CK = SEM_CLOCKS, RC = SEM_REF_CLOCKS,
};

/* Names written here, not taken from sem_name(), for the messages. */
static const char *const names[SEM_NR] = {
	"instructions", "branches", "taken", "cond", "calls", "returns",
	"far", "loads", "stores", "segloads", "clocks", "ref_clocks",
};

struct step_case {
	const char *what;
	uint8_t cpl, retired;
	uint16_t flags;
	uint32_t loads, stores;
	uint64_t want[SEM_NR];
};

static const struct step_case steps[] = {
	{ "nop", 0, 1, 0, 0, 0,
	  { [I] = 1, [CK] = 1, [RC] = 2 } },
	{ "add rax,[mem] at CPL 3", 3, 1, 0, 1, 0,
	  { [I] = 1, [L] = 1, [CK] = 1, [RC] = 2 } },
	{ "add [mem],rax (read-modify-write)", 1, 1, 0, 1, 1,
	  { [I] = 1, [L] = 1, [S] = 1, [CK] = 1, [RC] = 2 } },
	{ "push rax", 2, 1, 0, 0, 1,
	  { [I] = 1, [S] = 1, [CK] = 1, [RC] = 2 } },
	{ "cpuid (serializing)", 0, 1, SER, 0, 0,
	  { [I] = 1, [CK] = 1, [RC] = 2 } },
	{ "unclassified step", 3, 1, UNC, 1, 0,
	  { [I] = 1, [L] = 1, [CK] = 1, [RC] = 2 } },
	/* REP string: one step per iteration, retired on the last only */
	{ "rep movsb, an iteration that is not the last", 0, 0, REP, 1, 1,
	  { [L] = 1, [S] = 1, [CK] = 1, [RC] = 2 } },
	{ "rep movsb, the last iteration", 0, 1, REP, 1, 1,
	  { [I] = 1, [L] = 1, [S] = 1, [CK] = 1, [RC] = 2 } },
	{ "rep stosq, 16 iterations in one step, not the last", 3, 0, REP,
	  0, 16, { [S] = 16, [CK] = 1, [RC] = 2 } },
	{ "rep with RCX 0 (retires, no access)", 3, 1, REP, 0, 0,
	  { [I] = 1, [CK] = 1, [RC] = 2 } },
	/* near branches */
	{ "jcc taken", 0, 1, BR | CND | TK, 0, 0,
	  { [I] = 1, [B] = 1, [T] = 1, [C] = 1, [CK] = 1, [RC] = 2 } },
	{ "jcc not taken", 3, 1, BR | CND, 0, 0,
	  { [I] = 1, [B] = 1, [C] = 1, [CK] = 1, [RC] = 2 } },
	{ "jmp rel32", 0, 1, BR | TK, 0, 0,
	  { [I] = 1, [B] = 1, [T] = 1, [CK] = 1, [RC] = 2 } },
	{ "jmp [mem]", 1, 1, BR | IND | TK, 1, 0,
	  { [I] = 1, [B] = 1, [T] = 1, [L] = 1, [CK] = 1, [RC] = 2 } },
	{ "call rel32", 0, 1, BR | CL | TK, 0, 1,
	  { [I] = 1, [B] = 1, [T] = 1, [CA] = 1, [S] = 1, [CK] = 1, [RC] = 2 } },
	{ "call [mem]", 3, 1, BR | CL | IND | TK, 1, 1,
	  { [I] = 1, [B] = 1, [T] = 1, [CA] = 1, [L] = 1, [S] = 1,
	    [CK] = 1, [RC] = 2 } },
	{ "ret", 3, 1, BR | RT | IND | TK, 1, 0,
	  { [I] = 1, [B] = 1, [T] = 1, [R] = 1, [L] = 1, [CK] = 1, [RC] = 2 } },
	/* a branch that did not retire gives no branch counts */
	{ "jcc taken, not retired", 0, 0, BR | CND | TK, 0, 0,
	  { [CK] = 1, [RC] = 2 } },
	{ "call, not retired (its store still counts)", 0, 0, BR | CL | TK,
	  0, 1, { [S] = 1, [CK] = 1, [RC] = 2 } },
	{ "ret, not retired", 3, 0, BR | RT | IND | TK, 1, 0,
	  { [L] = 1, [CK] = 1, [RC] = 2 } },
	/* branch sub-flags or EV_TAKEN without DEC_BRANCH count nothing */
	{ "cond+call+ret flags without BRANCH", 0, 1, CND | CL | RT | TK,
	  0, 0, { [I] = 1, [CK] = 1, [RC] = 2 } },
	/* far transfers: SEM_FAR, not near branches, not taken */
	{ "int n", 3, 1, FAR | TK, 0, 2,
	  { [I] = 1, [F] = 1, [S] = 2, [CK] = 1, [RC] = 2 } },
	{ "iret (loads CS)", 0, 1, FAR | SEG | SER | TK, 0, 0,
	  { [I] = 1, [F] = 1, [SG] = 1, [CK] = 1, [RC] = 2 } },
	{ "retf (loads CS)", 2, 1, FAR | SEG | TK, 2, 0,
	  { [I] = 1, [F] = 1, [SG] = 1, [L] = 2, [CK] = 1, [RC] = 2 } },
	{ "int n, not retired", 0, 0, FAR | TK, 0, 0,
	  { [CK] = 1, [RC] = 2 } },
	/* segment loads */
	{ "mov ds,[mem]", 3, 1, SEG, 1, 0,
	  { [I] = 1, [SG] = 1, [L] = 1, [CK] = 1, [RC] = 2 } },
	{ "pop es", 0, 1, SEG, 1, 0,
	  { [I] = 1, [SG] = 1, [L] = 1, [CK] = 1, [RC] = 2 } },
	{ "mov ds, not retired", 0, 0, SEG, 1, 0,
	  { [L] = 1, [CK] = 1, [RC] = 2 } },
	/* 32-bit access counts at their limit */
	{ "accesses at UINT32_MAX", 0, 1, 0, UINT32_MAX, UINT32_MAX,
	  { [I] = 1, [L] = UINT32_MAX, [S] = UINT32_MAX, [CK] = 1, [RC] = 2 } },
};

static struct insn_event event_of(const struct step_case *c, uint32_t more)
{
	struct insn_event e;

	memset(&e, 0, sizeof(e));
	e.rip = 0x401000;
	e.next_rip = c->retired ? e.rip + 4 : e.rip;
	e.cpl = c->cpl;
	e.retired = c->retired;
	e.flags = c->flags;
	e.iterations = (c->flags & REP) ? 1 : 0;
	e.loads = c->loads;
	e.stores = c->stores;
	e.more = more;
	return e;
}

static void check_case(const struct step_case *c, uint32_t more)
{
	struct insn_event e = event_of(c, more);
	unsigned bad = 0;

	for (unsigned s = 0; s < SEM_NR; s++) {
		uint64_t want = c->want[s] * (1 + (uint64_t)more);
		uint64_t got = sem_step((enum sem)s, &e);
		uint64_t want_w = c->want[s] ? 1 + (uint64_t)more : 0;
		uint64_t got_w = sem_steps_with((enum sem)s, &e);

		if (got != want) {
			print_error("%s (more %u): %s = %llu, want %llu\n",
				    c->what, more, names[s],
				    (unsigned long long)got,
				    (unsigned long long)want);
			bad++;
		}
		if (got_w != want_w) {
			print_error("%s (more %u): steps with %s = %llu, want "
				    "%llu\n", c->what, more, names[s],
				    (unsigned long long)got_w,
				    (unsigned long long)want_w);
			bad++;
		}
	}
	if (bad)
		fail_msg("%s (more %u): %u counts wrong", c->what, more, bad);
}

/* One step of each kind: every count. */
static void test_step_single(void **state)
{
	for (unsigned i = 0; i < N(steps); i++)
		check_case(&steps[i], 0);
}

/* more = k is k + 1 identical steps, for every count (clocks included),
 * in 64 bits: UINT32_MAX more steps of UINT32_MAX loads do not wrap. */
static void test_step_more(void **state)
{
	static const uint32_t mores[] = { 1, 2, 9, 999, 65535, UINT32_MAX };

	for (unsigned i = 0; i < N(steps); i++)
		for (unsigned k = 0; k < N(mores); k++)
			check_case(&steps[i], mores[k]);
	/* one spelled out */
	{
		struct insn_event e = event_of(&steps[N(steps) - 1],
					       UINT32_MAX);

		assert_true(sem_step(SEM_LOADS, &e) ==
			    (1ull << 32) * UINT32_MAX);
		assert_true(sem_step(SEM_CLOCKS, &e) == 1ull << 32);
		assert_true(sem_step(SEM_INSTRUCTIONS, &e) == 1ull << 32);
		assert_true(sem_steps_with(SEM_LOADS, &e) == 1ull << 32);
		assert_true(sem_steps_with(SEM_BRANCHES, &e) == 0);
	}
}

/* The CPL and the rest of the event do not change what a step counts
 * (per-CPL bookkeeping is the caller's). */
static void test_step_cpl_independent(void **state)
{
	for (unsigned i = 0; i < N(steps); i++)
		for (uint8_t cpl = 0; cpl < 4; cpl++) {
			struct insn_event a = event_of(&steps[i], 3);
			struct insn_event b = a;

			b.cpl = cpl;
			b.rip = 0xffffffff80001000ull;
			b.next_rip = 0;
			for (unsigned s = 0; s < SEM_NR; s++)
				if (sem_step((enum sem)s, &a) !=
				    sem_step((enum sem)s, &b) ||
				    sem_steps_with((enum sem)s, &a) !=
				    sem_steps_with((enum sem)s, &b))
					fail_msg("%s: %s differs at CPL %u",
						 steps[i].what, names[s], cpl);
		}
}

/* sem_sum adds exactly the counts whose bits the mask sets; bits past
 * SEM_NR name no count and read nothing (ASan watches counts[]). */
static void test_sum(void **state)
{
	uint64_t *counts = malloc(SEM_NR * sizeof(*counts));
	uint64_t all = 0;

	assert_non_null(counts);
	/* 4-bit fields: a sum shows which counts went into it */
	for (unsigned s = 0; s < SEM_NR; s++) {
		counts[s] = (uint64_t)(s + 1) << (4 * s);
		all += counts[s];
	}
	assert_true(sem_sum(0, counts) == 0);
	for (unsigned s = 0; s < SEM_NR; s++)
		assert_true(sem_sum(SEM_BIT(s), counts) == counts[s]);
	assert_true(sem_sum(SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES),
			    counts) == 0x098ull << 28);
	assert_true(sem_sum(SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR), counts)
		    == (0x2ull << 4 | 0x7ull << 24));
	assert_true(sem_sum(SEM_BIT(SEM_TAKEN) | SEM_BIT(SEM_FAR), counts)
		    == (0x3ull << 8 | 0x7ull << 24));
	assert_true(sem_sum((1u << SEM_ARCH_NR) - 1, counts) ==
		    all - counts[SEM_CLOCKS] - counts[SEM_REF_CLOCKS]);
	assert_true(sem_sum((1u << SEM_NR) - 1, counts) == all);
	assert_true(sem_sum(0xffffffffu, counts) == all);
	assert_true(sem_sum(0xffffffffu << SEM_NR, counts) == 0);
	/* 64-bit sums */
	for (unsigned s = 0; s < SEM_NR; s++)
		counts[s] = UINT64_MAX / 16;
	assert_true(sem_sum(SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES),
			    counts) == UINT64_MAX / 16 * 2);
	free(counts);
}

/* Over a stream, sem_sum of the per-count totals is the total of the
 * masked per-step sums (what a P5 event such as 0x28 counts). */
static void test_sum_of_steps(void **state)
{
	static const uint32_t masks[] = {
		SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES),
		SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR),
		SEM_BIT(SEM_TAKEN) | SEM_BIT(SEM_FAR),
		SEM_BIT(SEM_INSTRUCTIONS),
		(1u << SEM_NR) - 1,
	};
	uint64_t totals[SEM_NR] = { 0 };
	uint64_t direct[N(masks)] = { 0 }, stepped[N(masks)] = { 0 };

	for (unsigned i = 0; i < N(steps); i++) {
		struct insn_event e = event_of(&steps[i], i % 3);

		for (unsigned s = 0; s < SEM_NR; s++)
			totals[s] += sem_step((enum sem)s, &e);
		for (unsigned m = 0; m < N(masks); m++) {
			uint64_t once = 0;

			for (unsigned s = 0; s < SEM_NR; s++)
				if (masks[m] & SEM_BIT(s))
					once += steps[i].want[s];
			direct[m] += once * (1 + i % 3);
			stepped[m] += sem_step_mask(masks[m], &e);
			if (sem_once_mask(masks[m], &e) != once)
				fail_msg("step %u mask 0x%x: once %llu, want "
					 "%llu", i, masks[m], (unsigned long long)
					 sem_once_mask(masks[m], &e),
					 (unsigned long long)once);
		}
	}
	for (unsigned m = 0; m < N(masks); m++)
		if (sem_sum(masks[m], totals) != direct[m] ||
		    stepped[m] != direct[m])
			fail_msg("mask 0x%x: %llu (stepped %llu), want %llu",
				 masks[m], (unsigned long long)sem_sum(masks[m],
				 totals), (unsigned long long)stepped[m],
				 (unsigned long long)direct[m]);
}

static void test_names(void **state)
{
	for (unsigned s = 0; s < SEM_NR; s++)
		assert_string_equal(sem_name((enum sem)s), names[s]);
	assert_string_equal(sem_name(SEM_NR), "?");
	assert_string_equal(sem_name((enum sem)1000), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_single),
		cmocka_unit_test(test_step_more),
		cmocka_unit_test(test_step_cpl_independent),
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_sum_of_steps),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("sem", tests, NULL, NULL);
}
