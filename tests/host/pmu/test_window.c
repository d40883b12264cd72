/* Host tests for pmu/window.c: how the counting window of
 * backend=emulated sorts what it traced (pmu/window.h), on hand-made
 * steps.  The rules restated from window.h and docs/emulators.md "Exact
 * under emulation": a step outside the benchmark [start, end) goes to
 * the segment since the last WRMSR, at its CPL; a step inside it goes to
 * no segment (the oracle counts the benchmark); every step, inside or
 * not, reaches the model once; a counter's share is the sum of the
 * segments from its first to its last, at its CPLs, over its semantic
 * counts; a later run, or more writes than the window keeps, make the
 * share unknown.  The expected sums are worked out here by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pmu/window.h"
#include "pmu/model.h"
#include "pmu/noise.h"
#include "pmu/driver.h"
#include "tests/host/arch/x86/dec_flags.h"

/* host-sources: pmu/window.c pmu/sem.c pmu/noise.c */

/* pmu/model.h's sink, which window_feed() hands every step on to, and
 * the live model's interrupts (none here: no PMI). */
static unsigned fed;
void model_feed(const struct insn_event *e, void *ctx)
{
	(void)e;
	(void)ctx;
	fed++;
}

static unsigned interrupts;
static const struct pmu_model *live;

unsigned model_interrupts(void)
{
	return interrupts;
}

const struct pmu_model *model_active(void)
{
	return live;
}

#define BENCH 0x1000u
#define BENCH_END 0x1100u
#define DRIVER 0x8000u

/* One retired step at rip and cpl, of class flags. */
static void step(uint64_t rip, unsigned cpl, uint16_t flags)
{
	struct insn_event e = { .rip = rip, .next_rip = rip + 2,
				.cpl = (uint8_t)cpl, .retired = 1,
				.flags = flags };

	window_feed(&e, NULL);
}

static uint64_t share(unsigned run, unsigned first, unsigned last,
		      unsigned cpls, uint32_t sem)
{
	uint64_t n = 99;
	const char *why = NULL;

	assert_int_equal(window_sum(run, first, last, cpls, sem, &n, &why), 0);
	return n;
}

/* Segment 0: 3 driver steps at CPL 0 (one a taken branch); a WRMSR;
 * segment 1: 2 driver steps at CPL 0, the trampoline's CALL at CPL 3,
 * 5 benchmark steps at CPL 3, its INT at CPL 3 (a far transfer); a WRMSR;
 * segment 2: 4 driver steps at CPL 0. */
static unsigned three_segments(void)
{
	unsigned run = window_begin(BENCH, BENCH_END);

	step(DRIVER, 0, 0);
	step(DRIVER + 2, 0, BR | TK);
	step(DRIVER + 4, 0, 0);
	window_wrmsr(0x186);
	step(DRIVER + 6, 0, 0);
	step(DRIVER + 8, 0, 0);
	step(DRIVER + 10, 3, BR | CL | TK);
	for (unsigned i = 0; i < 5; i++)
		step(BENCH + 2 * i, 3, 0);
	step(DRIVER + 12, 3, FAR);
	window_wrmsr(0x38f);
	for (unsigned i = 0; i < 4; i++)
		step(DRIVER + 14 + 2 * i, 0, 0);
	return run;
}

static void test_segments_by_cpl_and_count(void **state)
{
	unsigned run;

	(void)state;
	fed = 0;
	run = three_segments();
	assert_int_equal(window_segment(), 2);
	/* every step reached the model, the benchmark's too: 3+2+1+5+1+4 */
	assert_int_equal(fed, 16);
	/* a counter of instructions at CPL 0 from segment 1 to 1: 2 */
	assert_int_equal(share(run, 1, 1, PMU_CPL0,
			       SEM_BIT(SEM_INSTRUCTIONS)), 2);
	/* at CPL 3 the trampoline's 2, never the benchmark's 5 */
	assert_int_equal(share(run, 1, 1, PMU_CPLS_1_3,
			       SEM_BIT(SEM_INSTRUCTIONS)), 2);
	/* segments 0..2 at every CPL: 3 + 2 + 2 + 4 */
	assert_int_equal(share(run, 0, 2, PMU_CPLS_ALL,
			       SEM_BIT(SEM_INSTRUCTIONS)), 11);
	/* near branches: the CPL 0 JMP in segment 0, the CALL in 1; INT is
	 * a far transfer, not a near branch */
	assert_int_equal(share(run, 0, 2, PMU_CPLS_ALL,
			       SEM_BIT(SEM_BRANCHES)), 2);
	assert_int_equal(share(run, 1, 2, PMU_CPLS_ALL, SEM_BIT(SEM_FAR)), 1);
	/* a mask sums its counts: branches + far in segment 1 */
	assert_int_equal(share(run, 1, 1, PMU_CPLS_ALL,
			       SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR)), 2);
}

static void test_unknown_shares(void **state)
{
	unsigned run, later;
	uint64_t n;
	const char *why = NULL;

	(void)state;
	run = three_segments();
	/* a segment not yet opened */
	assert_int_equal(window_sum(run, 1, 3, PMU_CPL0,
				    SEM_BIT(SEM_INSTRUCTIONS), &n, &why), -1);
	assert_non_null(why);
	/* first after last */
	why = NULL;
	assert_int_equal(window_sum(run, 2, 1, PMU_CPL0,
				    SEM_BIT(SEM_INSTRUCTIONS), &n, &why), -1);
	assert_non_null(why);
	/* a later run took the record */
	later = window_begin(BENCH, BENCH_END);
	assert_int_not_equal(later, run);
	why = NULL;
	assert_int_equal(window_sum(run, 0, 0, PMU_CPL0,
				    SEM_BIT(SEM_INSTRUCTIONS), &n, &why), -1);
	assert_non_null(why);
	/* the new run starts empty */
	assert_int_equal(share(later, 0, 0, PMU_CPLS_ALL,
			       SEM_BIT(SEM_INSTRUCTIONS)), 0);
}

/* The steps after which the CPL changed (window.h window_crossings): in
 * three_segments(), DRIVER + 8 (CPL 0, then the CALL at CPL 3) and the
 * INT (CPL 3, then CPL 0), both in segment 1, each sorted at the CPL it
 * started at.  Seen from CPL 0 the first leaves it and the INT enters it;
 * from CPL 1-3 the other way round; segment 2 has none. */
static void test_crossings(void **state)
{
	unsigned run = three_segments();
	uint64_t out = 99, in = 99;
	const char *why = NULL;

	(void)state;
	assert_int_equal(window_crossings(run, 1, 1, PMU_CPL0,
					  SEM_BIT(SEM_INSTRUCTIONS), &out,
					  &in, &why), 0);
	assert_int_equal(out, 1);
	assert_int_equal(in, 1);
	assert_int_equal(window_crossings(run, 0, 2, PMU_CPLS_1_3,
					  SEM_BIT(SEM_FAR), &out, &in, &why),
			 0);
	assert_int_equal(out, 1);	/* the INT is the far transfer */
	assert_int_equal(in, 0);
	assert_int_equal(window_crossings(run, 2, 2, PMU_CPL0,
					  SEM_BIT(SEM_INSTRUCTIONS), &out,
					  &in, &why), 0);
	assert_int_equal(out + in, 0);
	assert_int_equal(window_crossings(run, 1, 1, PMU_CPLS_ALL,
					  SEM_BIT(SEM_INSTRUCTIONS), &out,
					  &in, &why), 0);
	assert_int_equal(out + in, 0);	/* both sides counted: no doubt */
	assert_int_equal(window_crossings(run, 1, 3, PMU_CPL0,
					  SEM_BIT(SEM_INSTRUCTIONS), &out,
					  &in, &why), -1);
	assert_non_null(why);
}

/* A rehearsal (window.h window_rehearse_feed): a traced WRMSR (0F 30,
 * SDM Vol. 2B) opens the next segment, noting ECX, the register it
 * wrote, and is sorted into it; another instruction (NOP, 90) does not;
 * no step reaches a model. */
static void test_rehearsal_cuts_at_traced_wrmsr(void **state)
{
	static const uint8_t code[] = { 0x0f, 0x30, 0x90, 0x0f, 0x32 };
	struct step_regs after = { .gpr = { [1] = 0x186 } };
	struct insn_event wr = { .rip = (uintptr_t)code, .cpl = 0,
				 .retired = 1, .after = &after };
	struct insn_event nop = wr, rd = wr;
	unsigned run = window_begin(BENCH, BENCH_END);
	unsigned before = fed;
	uint32_t msr = 0;

	(void)state;
	nop.rip = (uintptr_t)(code + 2);
	rd.rip = (uintptr_t)(code + 3);	/* RDMSR: no cut */
	window_rehearse_feed(&nop, NULL);
	window_rehearse_feed(&rd, NULL);
	assert_int_equal(window_segment(), 0);
	window_rehearse_feed(&wr, NULL);
	assert_int_equal(window_segment(), 1);
	assert_int_equal(window_write(run, 1, &msr), 0);
	assert_int_equal(msr, 0x186);
	assert_int_equal(window_write(run, 2, &msr), -1);
	assert_int_equal(share(run, 0, 0, PMU_CPL0,
			       SEM_BIT(SEM_INSTRUCTIONS)), 2);
	assert_int_equal(share(run, 1, 1, PMU_CPL0,
			       SEM_BIT(SEM_INSTRUCTIONS)), 1);
	assert_int_equal(fed, before);
}

static void test_too_many_writes(void **state)
{
	unsigned run = window_begin(BENCH, BENCH_END);
	uint64_t n;
	const char *why = NULL;

	(void)state;
	for (unsigned i = 0; i < WINDOW_SEGMENTS; i++)
		window_wrmsr(0xc1);
	step(DRIVER, 0, 0);
	assert_int_equal(window_sum(run, 0, 1, PMU_CPL0,
				    SEM_BIT(SEM_INSTRUCTIONS), &n, &why), -1);
	assert_non_null(why);
}

/* emulated_noise=1 (pmu/noise.h): an interrupt taken after a step is one
 * more retired instruction at that step's CPL, fed to the model, and kept
 * apart from the traced code; not where the model says its silicon counts
 * no interrupt (NetBurst), nor without the noise. */
static void test_interrupt_noise(void **state)
{
	static const struct pmu_model retires = { .interrupt_retires = 1 };
	static const struct pmu_model p4 = { .interrupt_retires = 0 };
	uint64_t n;
	const char *why = NULL;
	unsigned run;

	(void)state;
	live = &retires;
	noise_arm(1);
	run = window_begin(BENCH, BENCH_END);
	fed = 0;
	step(DRIVER, 3, 0);
	interrupts++;		/* taken after the next step */
	step(DRIVER + 2, 3, 0);
	assert_int_equal(fed, 3);	/* two steps and the interrupt's */
	assert_int_equal(share(run, 0, 0, PMU_CPLS_ALL,
			       SEM_BIT(SEM_INSTRUCTIONS)), 2);
	assert_int_equal(window_noise_sum(run, 0, 0, PMU_CPLS_1_3,
					  SEM_BIT(SEM_INSTRUCTIONS), &n, &why),
			 0);
	assert_int_equal(n, 1);
	assert_int_equal(window_noise_sum(run, 0, 0, PMU_CPL0,
					  SEM_BIT(SEM_INSTRUCTIONS), &n, &why),
			 0);
	assert_int_equal(n, 0);
	/* no near branch for it */
	assert_int_equal(window_noise_sum(run, 0, 0, PMU_CPLS_ALL,
					  SEM_BIT(SEM_BRANCHES), &n, &why), 0);
	assert_int_equal(n, 0);
	/* the Pentium 4, and no noise: nothing added */
	live = &p4;
	interrupts++;
	step(DRIVER + 4, 0, 0);
	live = &retires;
	noise_arm(0);
	interrupts++;
	step(DRIVER + 6, 0, 0);
	assert_int_equal(fed, 5);
	assert_int_equal(window_noise_sum(run, 0, 0, PMU_CPLS_ALL,
					  SEM_BIT(SEM_INSTRUCTIONS), &n, &why),
			 0);
	assert_int_equal(n, 1);
	live = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_segments_by_cpl_and_count),
		cmocka_unit_test(test_unknown_shares),
		cmocka_unit_test(test_too_many_writes),
		cmocka_unit_test(test_crossings),
		cmocka_unit_test(test_rehearsal_cuts_at_traced_wrmsr),
		cmocka_unit_test(test_interrupt_noise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
