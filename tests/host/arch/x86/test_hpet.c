/* Host tests for arch/x86/hpet.c against a block of memory laid out like
 * the HPET's registers (IA-PC HPET Specification 1.0a, §2.3, Table 2).
 * The expectations restate the specification:
 *   - COUNTER_CLK_PERIOD (bits 63:32 of General Capabilities and ID) is
 *     femtoseconds per tick, not 0 and at most 05F5E100h (100 ns);
 *     NUM_TIM_CAP (bits 12:8) is the number of the last timer (§2.3.4);
 *   - a 32-bit timer compares the low 32 bits of the main counter with
 *     its comparator (§2.3.8, Tn_32MODE_CNF), so a comparator less than
 *     2^31 ticks away is reached across the low half's wrap;
 *   - Tn_INT_TYPE_CNF 0 is edge, Tn_TYPE_CNF 0 one-shot, Tn_FSB_EN_CNF 0
 *     routes through Tn_INT_ROUTE_CNF (13:9), Tn_INT_ENB_CNF (bit 2)
 *     enables the interrupt; the capability half (63:32) is read-only
 *     and is written back as read (§2.3.8);
 *   - ENABLE_CNF (bit 0 of General Configuration) runs the main counter,
 *     LEG_RT_CNF (bit 1) gives timers 0 and 1 to IRQ 0 and 8 (§2.3.5). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "arch/x86/hpet.h"

/* host-sources: arch/x86/hpet.c */

static uint64_t regs[HPET_MMIO_SIZE / 8];

#define REG(off) regs[(off) / 8]
#define BASE ((uint64_t)(uintptr_t)regs)
#define PERIOD_10NS 10000000ull		/* femtoseconds */
#define ROUTE_CAP_GSI_2_20_23 ((1ull << 2 | 1ull << 20 | 1ull << 23) << 32)

static int reset(void **state)
{
	(void)state;
	memset(regs, 0, sizeof(regs));
	REG(HPET_GCAP_ID) = PERIOD_10NS << HPET_CAP_PERIOD_SHIFT |
			    2ull << HPET_CAP_NUM_TIM_SHIFT;
	return 0;
}

static void test_open(void **state)
{
	struct hpet h;

	(void)state;
	assert_int_equal(hpet_open(&h, BASE), 0);
	assert_true(h.base == BASE);
	assert_true(h.hz == 100000000ull);
	assert_int_equal(h.last_timer, 2);
}

static void test_open_refuses_bad_period(void **state)
{
	struct hpet h;

	(void)state;
	REG(HPET_GCAP_ID) = 0;
	assert_int_equal(hpet_open(&h, BASE), -1);
	REG(HPET_GCAP_ID) = (HPET_CAP_PERIOD_MAX + 1) << HPET_CAP_PERIOD_SHIFT;
	assert_int_equal(hpet_open(&h, BASE), -1);
	REG(HPET_GCAP_ID) = HPET_CAP_PERIOD_MAX << HPET_CAP_PERIOD_SHIFT;
	assert_int_equal(hpet_open(&h, BASE), 0);
	assert_true(h.hz == 10000000ull);
}

static void test_counter_reached_across_wrap(void **state)
{
	struct hpet h;
	uint64_t cmp = 0x1ffffff00ull + 0x200;	/* past the low half's wrap */

	(void)state;
	assert_int_equal(hpet_open(&h, BASE), 0);
	REG(HPET_MAIN_COUNTER) = 0x1ffffff80ull;
	assert_false(hpet_counter_reached(&h, cmp));
	REG(HPET_MAIN_COUNTER) = cmp;
	assert_true(hpet_counter_reached(&h, cmp));
	REG(HPET_MAIN_COUNTER) = cmp + 0x7fffffffull;
	assert_true(hpet_counter_reached(&h, cmp));
	REG(HPET_MAIN_COUNTER) = cmp - 1;
	assert_false(hpet_counter_reached(&h, cmp));
}

static void test_oneshot(void **state)
{
	struct hpet h;
	uint64_t conf;

	(void)state;
	assert_int_equal(hpet_open(&h, BASE), 0);
	REG(HPET_MAIN_COUNTER) = 1000;
	REG(HPET_TIMER_CONF(2)) = ROUTE_CAP_GSI_2_20_23 | HPET_TN_INT_ENB |
				  HPET_TN_INT_TYPE_LEVEL | HPET_TN_PERIODIC |
				  HPET_TN_FSB_EN | 5ull << HPET_TN_ROUTE_SHIFT;
	assert_true(hpet_timer_enabled(&h, 2));
	assert_true(hpet_timer_route_cap(&h, 2) ==
		    (uint32_t)(ROUTE_CAP_GSI_2_20_23 >> 32));
	assert_true(hpet_timer_set_oneshot(&h, 2, 23, 500) == 1500);
	conf = REG(HPET_TIMER_CONF(2));
	assert_true(conf == (ROUTE_CAP_GSI_2_20_23 | HPET_TN_32MODE |
			     23ull << HPET_TN_ROUTE_SHIFT));
	assert_true(REG(HPET_TIMER_COMPARATOR(2)) == 1500);
	assert_false(hpet_timer_enabled(&h, 2));
	hpet_timer_enable(&h, 2);
	assert_true(REG(HPET_TIMER_CONF(2)) == (conf | HPET_TN_INT_ENB));
	hpet_timer_disable(&h, 2);
	assert_true(REG(HPET_TIMER_CONF(2)) == conf);
}

static void test_oneshot_64bit_timer(void **state)
{
	struct hpet h;

	(void)state;
	assert_int_equal(hpet_open(&h, BASE), 0);
	REG(HPET_TIMER_CONF(1)) = HPET_TN_SIZE_64;
	(void)hpet_timer_set_oneshot(&h, 1, 2, 10);
	assert_true(REG(HPET_TIMER_CONF(1)) ==
		    (HPET_TN_SIZE_64 | 2ull << HPET_TN_ROUTE_SHIFT));
}

static void test_counter_run_and_legacy(void **state)
{
	struct hpet h;

	(void)state;
	assert_int_equal(hpet_open(&h, BASE), 0);
	assert_false(hpet_legacy_route(&h));
	REG(HPET_GEN_CONF) = HPET_CONF_LEGACY;
	assert_true(hpet_legacy_route(&h));
	hpet_counter_run(&h);
	assert_true(REG(HPET_GEN_CONF) ==
		    (HPET_CONF_LEGACY | HPET_CONF_ENABLE));
}

static void test_save_restore(void **state)
{
	struct hpet h;
	struct hpet_saved s;

	(void)state;
	assert_int_equal(hpet_open(&h, BASE), 0);
	REG(HPET_GEN_CONF) = HPET_CONF_LEGACY;
	REG(HPET_TIMER_CONF(2)) = HPET_TN_PERIODIC;
	REG(HPET_TIMER_COMPARATOR(2)) = 0x1234;
	hpet_save(&h, 2, &s);
	REG(HPET_GEN_CONF) = HPET_CONF_ENABLE;
	(void)hpet_timer_set_oneshot(&h, 2, 20, 99);
	hpet_timer_enable(&h, 2);
	hpet_restore(&h, 2, &s);
	assert_true(REG(HPET_GEN_CONF) == HPET_CONF_LEGACY);
	assert_true(REG(HPET_TIMER_CONF(2)) == HPET_TN_PERIODIC);
	assert_true(REG(HPET_TIMER_COMPARATOR(2)) == 0x1234);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_open, reset),
		cmocka_unit_test_setup(test_open_refuses_bad_period, reset),
		cmocka_unit_test_setup(test_counter_reached_across_wrap,
				       reset),
		cmocka_unit_test_setup(test_oneshot, reset),
		cmocka_unit_test_setup(test_oneshot_64bit_timer, reset),
		cmocka_unit_test_setup(test_counter_run_and_legacy, reset),
		cmocka_unit_test_setup(test_save_restore, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
