/* Host tests of perfmon_fixed_ctrl_extra() (pmu/perfmon/driver.c): the
 * bits of IA32_FIXED_CTR_CTRL outside the counters' fields that the PEBS
 * layer owns (the Adaptive_Record bits) survive the driver's own writes of
 * the register when a fixed counter starts and stops, until init.
 *
 * Restated from the SDM (Vol. 3B, order no. 253669-060US):
 *   - IA32_FIXED_CTR_CTRL is MSR 38DH; fixed counter i's field is bits
 *     4i+3:4i (§18.2.2, Figure 18-2), 2 = count while CPL > 0;
 *   - Adaptive_Record for fixed counter i is bit 32 + 4i (the adaptive
 *     PEBS section, "Fixed Counter Adaptive_Record" in Figure 18-2 of the
 *     editions with Ice Lake; Linux ICL_FIXED_0_ADAPTIVE, bit 32).
 * The driver is run on the capabilities of stub_model.c (Skylake 06_5EH,
 * 4 GP counters, then fixed counter 0 as counter 4). */
#include <stdio.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pmu/driver.h"
#include "pmu/perfmon/driver.h"
#include "tests/host/pmu/perfmon/stub_model.h"

/* host-sources: tests/host/pmu/perfmon/stub_model.c pmu/model.c pmu/noise.c pmu/perfmon/driver.c pmu/perfmon/regs.c pmu/perfmon/events.c pmu/perfmon/caps_table.c pmu/perfmon/ds/model.c pmu/perfmon/ds/regs.c pmu/lbr_model.c pmu/lbr.c pmu/perfmon/lbr/layout.c pmu/perfmon/lbr/events.c pmu/perfmon/bts/model.c pmu/perfmon/pebs/model.c pmu/perfmon/pebs/events.c pmu/perfmon/pebs/regs.c pmu/pt/model.c pmu/pt/gen.c pmu/pt/caps.c lib/pt/encode.c arch/x86/decode.c pmu/evtsel.c pmu/sem.c pmu/cpu_model.c lib/fmt.c lib/string.c pmu/emufault.c lib/escape.c */

#define FIXED_CTR_CTRL 0x38du
#define FIELD0_USR 2ull
#define ADAPTIVE0 (1ull << 32)
#define FIXED0 4u

/* The last value the driver wrote to IA32_FIXED_CTR_CTRL. */
static uint64_t last_fixed_ctrl;
static unsigned fixed_ctrl_writes;

int pmu_fail(struct pmu_err *e, int vector, const char *fmt, ...)
{
	(void)vector;
	(void)fmt;
	snprintf(e->msg, sizeof(e->msg), "pmu_fail");
	return -1;
}

int pmu_wrmsr(uint32_t msr, uint64_t v, const char *what, struct pmu_err *e)
{
	(void)what;
	(void)e;
	if (msr == FIXED_CTR_CTRL) {
		last_fixed_ctrl = v;
		fixed_ctrl_writes++;
	}
	return 0;
}

int pmu_rdmsr(uint32_t msr, uint64_t *v, const char *what, struct pmu_err *e)
{
	(void)msr;
	(void)what;
	(void)e;
	*v = 0;
	return 0;
}

static int setup(void **state)
{
	struct pmu_err e;

	(void)state;
	stub_pm_cpu(6, 0x5e);
	assert_int_equal(perfmon_driver.init(&e), 0);
	return 0;
}

static void test_kept_across_start_stop(void **state)
{
	struct pmu_config c = { FIELD0_USR, 0 };
	struct pmu_err e;

	(void)state;
	assert_int_equal(perfmon_driver.program(FIXED0, &c, &e), 0);
	assert_int_equal(perfmon_fixed_ctrl_extra(ADAPTIVE0, &e), 0);
	assert_int_equal(last_fixed_ctrl, ADAPTIVE0);
	assert_int_equal(perfmon_driver.start(FIXED0, &e), 0);
	assert_int_equal(last_fixed_ctrl, ADAPTIVE0 | FIELD0_USR);
	assert_int_equal(perfmon_driver.stop(FIXED0, &e), 0);
	assert_int_equal(last_fixed_ctrl, ADAPTIVE0);
	assert_int_equal(perfmon_driver.init(&e), 0);
	assert_int_equal(last_fixed_ctrl, 0);
}

static void test_field_bits_refused(void **state)
{
	struct pmu_err e;
	unsigned before;

	(void)state;
	before = fixed_ctrl_writes;
	assert_int_not_equal(perfmon_fixed_ctrl_extra(FIELD0_USR, &e), 0);
	assert_int_not_equal(perfmon_fixed_ctrl_extra(ADAPTIVE0 | 1ull << 5,
						      &e), 0);
	assert_int_equal(fixed_ctrl_writes, before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_kept_across_start_stop, setup),
		cmocka_unit_test_setup(test_field_bits_refused, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
