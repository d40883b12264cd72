/* Host tests for bench/oracle.c: oracle_account(), which adds one
 * single-step event (arch/x86/trace.h) to the per-CPL counts.  Rules:
 * instructions count retired events only; loads and stores accumulate on
 * every event (a REP string instruction's non-final steps included);
 * branch sub-counts (taken, cond, calls, returns) count retired near
 * branches only; SEM_FAR counts retired far transfers; unclassified steps
 * are counted per CPL; SEM_CLOCKS (the model clock) counts every event per
 * CPL, retired or not; an aggregated event (more = k) counts as k + 1
 * identical events; steps_with counts, per count, the steps in which it
 * happened (durations in model clocks); nothing else (other CPLs,
 * outside) changes. */
#include <stdio.h>
#include <string.h>

#include "bench/oracle.h"
#include "arch/x86/ring3.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/host/arch/x86/dec_flags.h"

/* host-sources: bench/oracle.c pmu/sem.c lib/fmt.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Stubs for what oracle.c's bench_exec() and oracle_run() use on the
 * target (the data buffer comes from bench/data.c); the tests here never
 * call those. */
void *bench_data(const struct bench *b)
{
	return NULL;
}

int ring3_run(ring3_fn fn, uint64_t n, void *data, uint64_t extra_rflags,
	      struct fault *f)
{
	return -1;
}

int trace_run(void (*fn)(uint64_t, void *), uint64_t n, void *data, int cpl,
	      struct trace_range range, trace_sink sink, void *ctx,
	      struct fault *f)
{
	return -1;
}

int trace_run_aggregated(void (*fn)(uint64_t, void *), uint64_t n,
			 void *data, int cpl, struct trace_range range,
			 trace_sink sink, void *ctx, struct fault *f)
{
	return -1;
}

int trace_window_active(void)
{
	return 0;
}

uint64_t trace_outside_steps(void)
{
	return 0;
}

/* Written out here rather than taken from sem_name(): the messages must
 * not depend on the code under test. */
static const char *const count_names[SEM_NR] = {
	"instructions", "branches", "taken", "cond", "calls", "returns",
	"far", "loads", "stores", "segloads", "clocks (steps)",
	"reference clocks (2 per step)",
};


/* One event: cpl, retired, flags, loads, stores and more (an aggregated
 * event stands for 1 + more identical steps); rip etc. do not matter to
 * the accounting and are filled in to look real. */
struct ev {
	uint8_t cpl, retired;
	uint16_t flags;
	uint32_t loads, stores;
	uint32_t more;
};

static void feed(struct oracle_counts *o, const struct ev *evs, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct insn_event e;

		memset(&e, 0, sizeof(e));
		e.rip = 0x1000 + 4 * i;
		e.next_rip = e.rip + (evs[i].retired ? 4 : 0);
		e.cpl = evs[i].cpl;
		e.retired = evs[i].retired;
		e.flags = evs[i].flags;
		e.iterations = (evs[i].flags & REP) ? 1 : 0;
		e.loads = evs[i].loads;
		e.stores = evs[i].stores;
		e.more = evs[i].more;
		oracle_account(o, &e);
	}
}

/* Every event is 1 + more steps (model clocks) at its CPL. */
static void want_steps(struct oracle_counts *want, const struct ev *evs,
		       unsigned n)
{
	for (unsigned i = 0; i < n; i++)
	{
		want->c[evs[i].cpl & 3][SEM_CLOCKS] +=
			1 + (uint64_t)evs[i].more;
		want->c[evs[i].cpl & 3][SEM_REF_CLOCKS] +=
			2 * (1 + (uint64_t)evs[i].more);
	}
}

static void expect_counts(const struct oracle_counts *got,
			  const struct oracle_counts *want, const char *what)
{
	unsigned bad = 0;

	for (unsigned cpl = 0; cpl < 4; cpl++) {
		/* SEM_CLOCKS (the steps) included */
		for (unsigned c = 0; c < SEM_NR; c++)
			if (got->c[cpl][c] != want->c[cpl][c]) {
				print_error("%s: CPL %u %s = %llu, want %llu\n",
					    what, cpl, count_names[c],
					    (unsigned long long)got->c[cpl][c],
					    (unsigned long long)
					    want->c[cpl][c]);
				bad++;
			}
		if (got->unclassified[cpl] != want->unclassified[cpl]) {
			print_error("%s: CPL %u unclassified = %llu, want "
				    "%llu\n", what, cpl,
				    (unsigned long long)got->unclassified[cpl],
				    (unsigned long long)
				    want->unclassified[cpl]);
			bad++;
		}
	}
	if (got->outside != want->outside) {
		print_error("%s: outside = %llu, want %llu\n", what,
			    (unsigned long long)got->outside,
			    (unsigned long long)want->outside);
		bad++;
	}
	if (bad)
		fail_msg("%s: %u counts wrong", what, bad);
}

/* steps_with[cpl][count]: the steps in which the count happened (a
 * duration in model clocks), however much it added in each. */
static void expect_steps_with(const struct oracle_counts *got,
			      const struct oracle_counts *want,
			      const char *what)
{
	unsigned bad = 0;

	for (unsigned cpl = 0; cpl < 4; cpl++)
		for (unsigned c = 0; c < SEM_NR; c++)
			if (got->steps_with[cpl][c] !=
			    want->steps_with[cpl][c]) {
				print_error("%s: CPL %u steps with %s = %llu, "
					    "want %llu\n", what, cpl,
					    count_names[c],
					    (unsigned long long)
					    got->steps_with[cpl][c],
					    (unsigned long long)
					    want->steps_with[cpl][c]);
				bad++;
			}
	if (bad)
		fail_msg("%s: %u steps_with wrong", what, bad);
}

/* counted-loop (basic.S) with n = 2 at CPL 0:
 *	xor; jmp 2f (taken); [add; cmp; jb 1b (taken)] x2; cmp; jb (not
 *	taken); ret (taken, 1 load) */
static void test_counted_loop(void **state)
{
	static const struct ev evs[] = {
		{ 0, 1, 0, 0, 0 },			/* xor */
		{ 0, 1, BR | TK, 0, 0 },		/* jmp 2f */
		{ 0, 1, 0, 0, 0 },			/* cmp */
		{ 0, 1, BR | CND | TK, 0, 0 },		/* jb taken */
		{ 0, 1, 0, 0, 0 },			/* add */
		{ 0, 1, 0, 0, 0 },			/* cmp */
		{ 0, 1, BR | CND | TK, 0, 0 },		/* jb taken */
		{ 0, 1, 0, 0, 0 },			/* add */
		{ 0, 1, 0, 0, 0 },			/* cmp */
		{ 0, 1, BR | CND, 0, 0 },		/* jb not taken */
		{ 0, 1, BR | RT | IND | TK, 1, 0 },	/* ret */
	};
	struct oracle_counts o, want;

	memset(&o, 0, sizeof(o));
	memset(&want, 0, sizeof(want));
	feed(&o, evs, N(evs));
	want_steps(&want, evs, N(evs));
	want.c[0][SEM_INSTRUCTIONS] = 11;
	want.c[0][SEM_BRANCHES] = 5;
	want.c[0][SEM_TAKEN] = 4;
	want.c[0][SEM_COND] = 3;
	want.c[0][SEM_RETURNS] = 1;
	want.c[0][SEM_LOADS] = 1;
	expect_counts(&o, &want, "counted-loop");
}

/* Calls and returns, direct and indirect, memory operands. */
static void test_calls_returns(void **state)
{
	static const struct ev evs[] = {
		{ 3, 1, BR | CL | TK, 0, 1 },		/* call rel32 */
		{ 3, 1, 0, 1, 1 },			/* add $1,(%rsp) */
		{ 3, 1, BR | RT | IND | TK, 1, 0 },	/* ret */
		{ 3, 1, BR | CL | IND | TK, 0, 1 },	/* call *%rcx */
		{ 3, 1, BR | RT | IND | TK, 1, 0 },	/* ret $8 */
		{ 3, 1, BR | CL | IND | TK, 1, 1 },	/* call *(%rax) */
		{ 3, 1, 0, 0, 1 },			/* push %rbx */
		{ 3, 1, 0, 1, 0 },			/* pop %rbx */
		{ 3, 1, BR | RT | IND | TK, 1, 0 },	/* ret */
		{ 3, 1, BR | IND | TK, 1, 0 },		/* jmp *(%rsi,%rcx,8) */
		{ 3, 1, BR | CND | TK, 0, 0 },		/* jnc taken */
		{ 3, 1, BR | CND, 0, 0 },		/* jnc not taken */
	};
	struct oracle_counts o, want;

	memset(&o, 0, sizeof(o));
	memset(&want, 0, sizeof(want));
	feed(&o, evs, N(evs));
	want_steps(&want, evs, N(evs));
	want.c[3][SEM_INSTRUCTIONS] = 12;
	want.c[3][SEM_BRANCHES] = 9;
	want.c[3][SEM_TAKEN] = 8;
	want.c[3][SEM_COND] = 2;
	want.c[3][SEM_CALLS] = 3;
	want.c[3][SEM_RETURNS] = 3;
	want.c[3][SEM_LOADS] = 7;
	want.c[3][SEM_STORES] = 5;
	expect_counts(&o, &want, "calls-returns");
}

/* Far transfers count in SEM_FAR, not as (near) branches, and their
 * EV_TAKEN does not make a SEM_TAKEN. */
static void test_far(void **state)
{
	static const struct ev evs[] = {
		{ 3, 1, FAR | TK, 0, 0 },		/* int3 */
		{ 3, 1, FAR | TK, 0, 0 },		/* int $0x80 */
		{ 3, 1, FAR | TK, 0, 0 },		/* syscall */
		{ 0, 1, FAR | SEG | SER | TK, 0, 0 },	/* iret */
		{ 0, 1, FAR | SEG | TK, 2, 0 },		/* lret */
		{ 0, 1, SER, 0, 0 },			/* cpuid */
		{ 0, 1, SEG, 1, 0 },			/* mov (%rbx),%ds */
	};
	struct oracle_counts o, want;

	memset(&o, 0, sizeof(o));
	memset(&want, 0, sizeof(want));
	feed(&o, evs, N(evs));
	want_steps(&want, evs, N(evs));
	want.c[3][SEM_INSTRUCTIONS] = 3;
	want.c[3][SEM_FAR] = 3;
	want.c[0][SEM_INSTRUCTIONS] = 4;
	want.c[0][SEM_FAR] = 2;
	want.c[0][SEM_LOADS] = 3;
	want.c[0][SEM_SEGLOADS] = 3;	/* iret, lret, mov to %ds */
	expect_counts(&o, &want, "far");
}

/* A REP string instruction: one event per iteration step, retired only
 * on the last; its accesses count on every step. */
static void test_rep(void **state)
{
	static const struct ev evs[] = {
		{ 0, 1, 0, 0, 0 },			/* mov %rdi,%rcx */
		{ 0, 1, 0, 0, 0 },			/* lea */
		{ 0, 0, REP, 4, 4 },			/* rep movsb: 4 */
		{ 0, 0, REP, 4, 4 },			/* 4 more */
		{ 0, 0, REP, 1, 1 },			/* 1 more */
		{ 0, 1, REP, 3, 3 },			/* last 3 */
		{ 0, 1, BR | RT | IND | TK, 1, 0 },	/* ret */
		{ 3, 0, REP, 0, 16 },			/* rep stosq */
		{ 3, 1, REP, 0, 16 },
		{ 3, 1, REP, 2, 0 },			/* rep lodsb, 2 */
		{ 3, 0, REP, 10, 0 },			/* repz cmpsb: 5 */
		{ 3, 1, REP, 0, 0 },			/* RCX was 0 */
	};
	struct oracle_counts o, want;

	memset(&o, 0, sizeof(o));
	memset(&want, 0, sizeof(want));
	feed(&o, evs, N(evs));
	want_steps(&want, evs, N(evs));
	want.c[0][SEM_INSTRUCTIONS] = 4;
	want.c[0][SEM_BRANCHES] = 1;
	want.c[0][SEM_TAKEN] = 1;
	want.c[0][SEM_RETURNS] = 1;
	want.c[0][SEM_LOADS] = 13;
	want.c[0][SEM_STORES] = 12;
	want.c[3][SEM_INSTRUCTIONS] = 3;
	want.c[3][SEM_LOADS] = 12;
	want.c[3][SEM_STORES] = 32;
	expect_counts(&o, &want, "rep");
}

/* A branch flag on a step that did not retire gives no branch counts
 * (only its accesses count). */
static void test_unretired_branch(void **state)
{
	static const struct ev evs[] = {
		{ 0, 0, BR | CND | TK, 0, 0 },
		{ 0, 0, BR | CL | TK, 0, 1 },
		{ 0, 0, BR | RT | IND | TK, 1, 0 },
		{ 0, 0, FAR | TK, 0, 0 },
		{ 3, 0, BR, 0, 0 },
	};
	struct oracle_counts o, want;

	memset(&o, 0, sizeof(o));
	memset(&want, 0, sizeof(want));
	feed(&o, evs, N(evs));
	want_steps(&want, evs, N(evs));
	want.c[0][SEM_LOADS] = 1;
	want.c[0][SEM_STORES] = 1;
	expect_counts(&o, &want, "unretired");
}

/* Unclassified steps count per CPL, and still as instructions with the
 * accesses they carry (the tracer marks a step whose flow the decoder
 * cannot explain by OR-ing DEC_UNCLASSIFIED into its flags). */
static void test_unclassified(void **state)
{
	static const struct ev evs[] = {
		{ 0, 1, UNC, 0, 0 },			/* hlt, say */
		{ 3, 1, UNC, 0, 0 },
		{ 3, 1, UNC, 0, 0 },
		{ 3, 1, UNC, 1, 0 },			/* flow unexplained */
		{ 1, 1, UNC, 0, 0 },
		{ 2, 1, UNC, 0, 2 },
		{ 3, 1, 0, 0, 0 },
	};
	struct oracle_counts o, want;

	memset(&o, 0, sizeof(o));
	memset(&want, 0, sizeof(want));
	feed(&o, evs, N(evs));
	want_steps(&want, evs, N(evs));
	want.unclassified[0] = 1;
	want.unclassified[1] = 1;
	want.unclassified[2] = 1;
	want.unclassified[3] = 3;
	want.c[0][SEM_INSTRUCTIONS] = 1;
	want.c[1][SEM_INSTRUCTIONS] = 1;
	want.c[2][SEM_INSTRUCTIONS] = 1;
	want.c[3][SEM_INSTRUCTIONS] = 4;
	want.c[3][SEM_LOADS] = 1;
	want.c[2][SEM_STORES] = 2;
	expect_counts(&o, &want, "unclassified");
}

/* CPL 0 and 3 interleaved (a ring-3 routine and the kernel steps around
 * it), with CPLs 1 and 2 too: each counts in its own row only. */
static void test_mixed_cpl(void **state)
{
	static const struct ev evs[] = {
		{ 0, 1, 0, 0, 1 },			/* push */
		{ 3, 1, 0, 1, 0 },			/* load */
		{ 0, 1, BR | CND | TK, 0, 0 },
		{ 3, 1, BR | CND, 0, 0 },
		{ 3, 1, BR | CL | TK, 0, 1 },
		{ 0, 1, BR | RT | IND | TK, 1, 0 },
		{ 3, 0, REP, 2, 2 },
		{ 0, 1, FAR | TK, 0, 0 },
		{ 3, 1, REP, 2, 2 },
		{ 1, 1, BR | TK, 0, 0 },
		{ 2, 1, 0, 1, 1 },
		{ 3, 1, UNC, 0, 0 },
	};
	struct oracle_counts o, want;

	memset(&o, 0, sizeof(o));
	memset(&want, 0, sizeof(want));
	feed(&o, evs, N(evs));
	want_steps(&want, evs, N(evs));
	want.c[0][SEM_INSTRUCTIONS] = 4;
	want.c[0][SEM_BRANCHES] = 2;
	want.c[0][SEM_TAKEN] = 2;
	want.c[0][SEM_COND] = 1;
	want.c[0][SEM_RETURNS] = 1;
	want.c[0][SEM_FAR] = 1;
	want.c[0][SEM_LOADS] = 1;
	want.c[0][SEM_STORES] = 1;
	want.c[3][SEM_INSTRUCTIONS] = 5;
	want.c[3][SEM_BRANCHES] = 2;
	want.c[3][SEM_TAKEN] = 1;
	want.c[3][SEM_COND] = 1;
	want.c[3][SEM_CALLS] = 1;
	want.c[3][SEM_LOADS] = 5;
	want.c[3][SEM_STORES] = 5;
	want.unclassified[3] = 1;
	want.c[1][SEM_INSTRUCTIONS] = 1;
	want.c[1][SEM_BRANCHES] = 1;
	want.c[1][SEM_TAKEN] = 1;
	want.c[2][SEM_INSTRUCTIONS] = 1;
	want.c[2][SEM_LOADS] = 1;
	want.c[2][SEM_STORES] = 1;
	expect_counts(&o, &want, "mixed-cpl");
}

/* oracle_account adds to what is there (it does not reset), leaves
 * outside alone, and sums 32-bit access counts into 64-bit totals. */
static void test_accumulates(void **state)
{
	static const struct ev evs[] = {
		{ 3, 0, REP, UINT32_MAX, UINT32_MAX },
		{ 3, 1, REP, UINT32_MAX, 1 },
	};
	struct oracle_counts o, want;

	memset(&o, 0, sizeof(o));
	o.c[3][SEM_INSTRUCTIONS] = 100;
	o.c[3][SEM_LOADS] = 1;
	o.c[0][SEM_BRANCHES] = 7;
	o.unclassified[3] = 2;
	o.c[3][SEM_CLOCKS] = 9;
	o.outside = 55;
	want = o;
	feed(&o, evs, N(evs));
	want_steps(&want, evs, N(evs));
	want.c[3][SEM_INSTRUCTIONS] = 101;
	want.c[3][SEM_LOADS] = 1 + 2ull * UINT32_MAX;
	want.c[3][SEM_STORES] = (uint64_t)UINT32_MAX + 1;
	expect_counts(&o, &want, "accumulates");
}

/* Flag bits oracle_account does not count (INDIRECT, SEGLOAD, SERIALIZE,
 * REP_STRING) change nothing by themselves. */
static void test_other_flags(void **state)
{
	static const struct ev evs[] = {
		{ 0, 1, IND, 0, 0 },
		{ 0, 1, SEG, 0, 0 },
		{ 0, 1, SER, 0, 0 },
		{ 0, 1, REP, 0, 0 },
		{ 0, 1, TK, 0, 0 },		/* taken without a branch */
		{ 0, 1, CND | CL | RT, 0, 0 },	/* sub-flags without BRANCH */
	};
	struct oracle_counts o, want;

	memset(&o, 0, sizeof(o));
	memset(&want, 0, sizeof(want));
	feed(&o, evs, N(evs));
	want_steps(&want, evs, N(evs));
	want.c[0][SEM_INSTRUCTIONS] = 6;
	want.c[0][SEM_SEGLOADS] = 1;	/* a segment load counts on its own */
	expect_counts(&o, &want, "other-flags");
}

/* Aggregated events (trace_run_aggregated): more = k is k + 1 identical
 * steps, for every count. */
static void test_aggregated(void **state)
{
	static const struct ev evs[] = {
		{ 0, 1, 0, 1, 0, 99 },			/* 100 loads */
		{ 0, 1, BR | CND | TK, 0, 0, 98 },	/* jnc taken 99 x */
		{ 0, 1, BR | CND, 0, 0, 0 },		/* once not taken */
		{ 3, 1, BR | CL | TK, 0, 1, 9 },	/* 10 calls */
		{ 3, 1, BR | RT | IND | TK, 1, 0, 9 },	/* 10 rets */
		{ 3, 1, FAR | TK, 0, 0, 4 },		/* 5 far */
		{ 3, 1, UNC, 0, 2, 2 },			/* 3 unclassified */
		{ 3, 0, 0, 1, 1, 1 },			/* 2 unretired */
		{ 0, 1, 0, UINT32_MAX, 0, UINT32_MAX },	/* 2^32 x 2^32-1 */
	};
	struct oracle_counts o, want;

	memset(&o, 0, sizeof(o));
	memset(&want, 0, sizeof(want));
	feed(&o, evs, N(evs));
	want_steps(&want, evs, N(evs));
	want.c[0][SEM_INSTRUCTIONS] = 100 + 99 + 1 + (1ull << 32);
	want.c[0][SEM_LOADS] = 100 + (1ull << 32) * UINT32_MAX;
	want.c[0][SEM_BRANCHES] = 100;
	want.c[0][SEM_TAKEN] = 99;
	want.c[0][SEM_COND] = 100;
	want.c[3][SEM_INSTRUCTIONS] = 10 + 10 + 5 + 3;
	want.c[3][SEM_BRANCHES] = 20;
	want.c[3][SEM_TAKEN] = 20;
	want.c[3][SEM_CALLS] = 10;
	want.c[3][SEM_RETURNS] = 10;
	want.c[3][SEM_FAR] = 5;
	want.c[3][SEM_LOADS] = 10 + 2;
	want.c[3][SEM_STORES] = 10 + 6 + 2;
	want.unclassified[3] = 3;
	expect_counts(&o, &want, "aggregated");
}

/* steps_with by hand: a step with 3 loads is 1 step with loads; an
 * aggregated event is 1 + more steps; counts a step does not have (an
 * unretired step's instruction) add no step. */
static void test_steps_with(void **state)
{
	static const struct ev evs[] = {
		{ 0, 1, 0, 1, 0, 99 },			/* 100 x 1 load */
		{ 0, 1, 0, 3, 2, 0 },			/* 3 loads 2 stores */
		{ 0, 0, REP, 4, 4, 0 },			/* rep, not last */
		{ 3, 1, BR | CND | TK, 0, 0, 9 },	/* jcc taken 10 x */
		{ 3, 1, FAR | SEG | TK, 2, 0, 0 },	/* retf */
		{ 3, 0, 0, 0, 0, 4 },			/* 5 unretired */
	};
	struct oracle_counts o, want;

	memset(&o, 0, sizeof(o));
	memset(&want, 0, sizeof(want));
	feed(&o, evs, N(evs));
	want.steps_with[0][SEM_INSTRUCTIONS] = 101;
	want.steps_with[0][SEM_LOADS] = 102;
	want.steps_with[0][SEM_STORES] = 2;
	want.steps_with[0][SEM_CLOCKS] = 102;
	want.steps_with[0][SEM_REF_CLOCKS] = 102;
	want.steps_with[3][SEM_INSTRUCTIONS] = 11;
	want.steps_with[3][SEM_BRANCHES] = 10;
	want.steps_with[3][SEM_TAKEN] = 10;
	want.steps_with[3][SEM_COND] = 10;
	want.steps_with[3][SEM_FAR] = 1;
	want.steps_with[3][SEM_SEGLOADS] = 1;
	want.steps_with[3][SEM_LOADS] = 1;
	want.steps_with[3][SEM_CLOCKS] = 16;
	want.steps_with[3][SEM_REF_CLOCKS] = 16;
	expect_steps_with(&o, &want, "steps-with");
	/* the counts themselves */
	assert_int_equal(o.c[0][SEM_LOADS], 100 + 3 + 4);
	assert_int_equal(o.c[0][SEM_STORES], 2 + 4);
	assert_int_equal(o.c[3][SEM_LOADS], 2);
}

static uint64_t rng_state = 0x243f6a8885a308d3ull;

static uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

/* Random streams against the rules spelled out one by one. */
static void test_random_streams(void **state)
{
	static const uint16_t bits[] = { BR, CND, CL, RT, IND, FAR, REP, SEG,
					 SER, UNC, TK };
	char what[32];

	for (unsigned run = 0; run < 50; run++) {
		struct oracle_counts o, want;
		uint64_t prev[SEM_NR] = { 0 };
		unsigned prev_cpl = 0;

		memset(&o, 0, sizeof(o));
		memset(&want, 0, sizeof(want));
		for (unsigned i = 0; i < 500; i++) {
			struct ev e = { 0 };

			e.cpl = (uint8_t)(rng() & 3);
			e.retired = (rng() & 3) != 0;
			for (unsigned b = 0; b < N(bits); b++)
				if (rng() % 3 == 0)
					e.flags |= bits[b];
			e.loads = (uint32_t)(rng() % 4);
			e.stores = (uint32_t)(rng() % 4);
			if (rng() % 50 == 0)
				e.loads = UINT32_MAX;
			if (rng() % 4 == 0)
				e.more = (uint32_t)(rng() % 1000);
			feed(&o, &e, 1);

			/* 1 + more identical steps, one at a time; a step
			 * with a count adds 1 to its steps_with */
			for (uint64_t k = 0; k <= e.more; k++) {
				uint64_t one[SEM_NR] = { 0 };

				one[SEM_CLOCKS] = 1;
				one[SEM_REF_CLOCKS] = 2;
				one[SEM_LOADS] = e.loads;
				one[SEM_STORES] = e.stores;
				if (e.flags & UNC)
					want.unclassified[e.cpl]++;
				if (e.retired) {
					one[SEM_INSTRUCTIONS] = 1;
					one[SEM_FAR] = !!(e.flags & FAR);
					one[SEM_SEGLOADS] = !!(e.flags & SEG);
				}
				if (e.retired && (e.flags & BR)) {
					one[SEM_BRANCHES] = 1;
					one[SEM_TAKEN] = !!(e.flags & TK);
					one[SEM_COND] = !!(e.flags & CND);
					one[SEM_CALLS] = !!(e.flags & CL);
					one[SEM_RETURNS] = !!(e.flags & RT);
				}
				for (unsigned s = 0; s < SEM_NR; s++) {
					want.c[e.cpl][s] += one[s];
					want.steps_with[e.cpl][s] += one[s] != 0;
					/* a run starts where the step before
					 * lacked s or ran at another CPL */
					want.runs_with[e.cpl][s] += one[s] &&
						(!prev[s] || prev_cpl != e.cpl);
					prev[s] = one[s];
				}
				prev_cpl = e.cpl;
			}
		}
		snprintf(what, sizeof(what), "random run %u", run);
		expect_counts(&o, &want, what);
		expect_steps_with(&o, &want, what);
		assert_memory_equal(o.runs_with, want.runs_with,
				    sizeof(o.runs_with));
	}
}

/* runs_with: a run of steps with a count ends at a step without it or
 * at another CPL; an aggregated step continues the run it is in. */
static void test_runs_with(void **state)
{
	static const struct ev evs[] = {
		{ 3, 1, 0, 1, 0, 0 },		/* load: run 1 */
		{ 3, 1, 0, 1, 0, 4 },		/* 5 loads: still run 1 */
		{ 3, 1, 0, 0, 0, 0 },		/* no load */
		{ 3, 1, 0, 2, 0, 0 },		/* run 2 */
		{ 0, 1, 0, 1, 0, 0 },		/* CPL 0: its own run 1 */
		{ 3, 1, 0, 1, 0, 0 },		/* CPL 3 again: run 3 */
		{ 3, 0, REP, 1, 1, 9 },		/* 10 unretired: no instr */
	};
	struct oracle_counts o;

	memset(&o, 0, sizeof(o));
	feed(&o, evs, N(evs));
	assert_int_equal(o.runs_with[3][SEM_LOADS], 3);
	assert_int_equal(o.runs_with[0][SEM_LOADS], 1);
	assert_int_equal(o.runs_with[3][SEM_STORES], 1);
	/* instructions: steps 1-4 (run), CPL 0, step 6 (run) */
	assert_int_equal(o.runs_with[3][SEM_INSTRUCTIONS], 2);
	assert_int_equal(o.runs_with[0][SEM_INSTRUCTIONS], 1);
	assert_int_equal(o.runs_with[3][SEM_CLOCKS], 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counted_loop),
		cmocka_unit_test(test_calls_returns),
		cmocka_unit_test(test_far),
		cmocka_unit_test(test_rep),
		cmocka_unit_test(test_unretired_branch),
		cmocka_unit_test(test_unclassified),
		cmocka_unit_test(test_mixed_cpl),
		cmocka_unit_test(test_accumulates),
		cmocka_unit_test(test_other_flags),
		cmocka_unit_test(test_aggregated),
		cmocka_unit_test(test_steps_with),
		cmocka_unit_test(test_random_streams),
		cmocka_unit_test(test_runs_with),
	};

	return cmocka_run_group_tests_name("oracle_account", tests, NULL,
					   NULL);
}
