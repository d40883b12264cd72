/* Host tests for pmu/perfmon/lbr/model.c: the LBR stack the adaptive PEBS
 * record's LBR group copies, driven by hand-made steps and IA32_DEBUGCTL
 * values.  Expected values restated from the SDM (Vol. 3B, order no.
 * 253669-060US):
 *   - IA32_DEBUGCTL.LBR is bit 0 (§17.4.1, Figure 17-3): "the processor
 *     records a running trace of the most recent branches, interrupts,
 *     and/or exceptions taken by the processor (prior to a debug
 *     exception being generated) in the last branch record (LBR) stack";
 *     with it clear nothing is recorded and the stack keeps what it held;
 *   - each entry is a (from, to) pair: the address of the branch and its
 *     target (§17.4.8, "LBR Stack": MSR_LASTBRANCH_n_FROM_IP / _TO_IP);
 *   - the stack is a ring of a fixed depth, the top of stack the newest
 *     entry (§17.4.8, MSR_LASTBRANCH_TOS): the model's depth is 32 (the
 *     Skylake and later stacks, Table 17-4 "LBR Stack Size" lists 32 for
 *     them), so the 33rd branch overwrites the oldest;
 *   - an entry never written reads 0 (the model's reset, an empty stack).
 * Which steps are branches is ds_model_branch()'s rule (the BTS one,
 * tested in tests/host/pmu/perfmon/bts/test_model.c); here it is a stub
 * the test sets per step. */
#include <stdint.h>
#include <string.h>

#include "pmu/perfmon/lbr/model.h"
#include "pmu/perfmon/ds/model.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: pmu/perfmon/lbr/model.c pmu/emufault.c lib/escape.c lib/fmt.c lib/string.c */

#define SDM_DEBUGCTL_LBR 1ull	/* bit 0 */
#define SDM_LBR_DEPTH 32u

static int branch;		/* what ds_model_branch() answers */

int ds_model_branch(const struct insn_event *e)
{
	(void)e;
	return branch;
}

static void step(uint64_t rip, uint64_t next, int is_branch,
		 uint64_t debugctl)
{
	struct insn_event e;

	memset(&e, 0, sizeof(e));
	e.rip = rip;
	e.next_rip = next;
	branch = is_branch;
	lbr_model_step(&e, debugctl);
}

static void assert_entry(unsigned k, uint64_t from, uint64_t to)
{
	uint64_t f = 1, t = 1;

	lbr_model_entry(k, &f, &t);
	assert_int_equal(f, from);
	assert_int_equal(t, to);
}

static int reset(void **state)
{
	(void)state;
	lbr_model_reset();
	return 0;
}

/* Empty after reset: every entry 0. */
static void test_empty(void **state)
{
	(void)state;
	for (unsigned k = 0; k < SDM_LBR_DEPTH + 2; k++)
		assert_entry(k, 0, 0);
}

/* Newest first: entry 0 the last branch, 1 the one before. */
static void test_newest_first(void **state)
{
	(void)state;
	step(0x1000, 0x2000, 1, SDM_DEBUGCTL_LBR);
	step(0x2000, 0x2005, 0, SDM_DEBUGCTL_LBR);	/* not a branch */
	step(0x2005, 0x3000, 1, SDM_DEBUGCTL_LBR);
	assert_entry(0, 0x2005, 0x3000);
	assert_entry(1, 0x1000, 0x2000);
	assert_entry(2, 0, 0);
}

/* DEBUGCTL.LBR clear: the branch is not recorded, the stack kept; other
 * DEBUGCTL bits (BTS's TR bit 6, BTS bit 7) do not record. */
static void test_lbr_bit(void **state)
{
	(void)state;
	step(0x1000, 0x2000, 1, SDM_DEBUGCTL_LBR);
	step(0x2000, 0x4000, 1, 0);
	step(0x4000, 0x5000, 1, 1ull << 6 | 1ull << 7);
	assert_entry(0, 0x1000, 0x2000);
	assert_entry(1, 0, 0);
	step(0x5000, 0x6000, 1, SDM_DEBUGCTL_LBR | 1ull << 6);
	assert_entry(0, 0x5000, 0x6000);
	assert_entry(1, 0x1000, 0x2000);
}

/* A ring of 32: after 40 branches entry k is branch 40 - k, entries past
 * the depth read 0 rather than wrapping onto newer ones. */
static void test_ring(void **state)
{
	(void)state;
	for (uint64_t i = 1; i <= 40; i++)
		step(0x10000 * i, 0x10000 * i + 0x80, 1, SDM_DEBUGCTL_LBR);
	for (unsigned k = 0; k < SDM_LBR_DEPTH; k++)
		assert_entry(k, 0x10000 * (40 - k), 0x10000 * (40 - k) + 0x80);
	assert_entry(SDM_LBR_DEPTH, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_empty, reset),
		cmocka_unit_test_setup(test_newest_first, reset),
		cmocka_unit_test_setup(test_lbr_bit, reset),
		cmocka_unit_test_setup(test_ring, reset),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
