/* Host tests of the architectural-perfmon driver's config mapping
 * (pmu/perfmon/driver.c: event_config and config_counts of struct
 * pmu_driver, pmu/driver.h), on the capabilities the reference model
 * stands in with (stub_model.c: Skylake 06_5EH, v4, 4 GP counters, then
 * fixed counters 0-2 as counters 4-6).
 *
 * The CPLs (Intel SDM Vol. 3B, order no. 253669-060US):
 *   - IA32_PERFEVTSELx (§18.2.1.1, Figure 18-1): USR (bit 16) counts "when
 *     the logical processor is operating at privilege levels 1, 2 or 3",
 *     OS (bit 17) "when the logical processor is operating at privilege
 *     level 0";
 *   - IA32_FIXED_CTR_CTRL (§18.2.2, Figure 18-2): a counter's field 1
 *     counts while CPL = 0, 2 while CPL > 0, 3 at all ring levels.
 * As pmu/driver.h's CPL sets (bit n: CPL n): OS {0}, USR {1, 2, 3}.  A
 * request names CPLs; the driver must set the flags whose classes hold
 * them, so a request of CPL 3 gets USR and counts CPL 1 and 2 as well. */
#include <stdio.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pmu/driver.h"
#include "pmu/sem.h"
#include "tests/host/pmu/perfmon/stub_model.h"

/* host-sources: tests/host/pmu/perfmon/stub_model.c pmu/model.c pmu/noise.c pmu/perfmon/driver.c pmu/perfmon/regs.c pmu/perfmon/events.c pmu/perfmon/caps_table.c pmu/perfmon/ds/model.c pmu/perfmon/ds/regs.c pmu/lbr_model.c pmu/lbr.c pmu/perfmon/lbr/layout.c pmu/perfmon/lbr/events.c pmu/perfmon/bts/model.c pmu/perfmon/pebs/model.c pmu/perfmon/pebs/events.c pmu/perfmon/pebs/regs.c pmu/pt/model.c pmu/pt/gen.c pmu/pt/caps.c lib/pt/encode.c arch/x86/decode.c pmu/evtsel.c pmu/sem.c pmu/cpu_model.c lib/fmt.c lib/string.c pmu/emufault.c lib/escape.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define USR (1ull << 16)		/* Figure 18-1 */
#define OS (1ull << 17)
#define FIX_OS 1ull			/* Figure 18-2, field of a counter */
#define FIX_USR 2ull
#define CPLS_OS PMU_CPL(0)
#define CPLS_USR (PMU_CPL(1) | PMU_CPL(2) | PMU_CPL(3))
#define FIXED0 4u			/* after the 4 GP counters */

extern const struct pmu_driver perfmon_driver;

/* The driver's register accesses: none in these tests. */
int pmu_fail(struct pmu_err *e, int vector, const char *fmt, ...)
{
	(void)vector;
	(void)fmt;
	snprintf(e->msg, sizeof(e->msg), "pmu_fail");
	return -1;
}

int pmu_wrmsr(uint32_t msr, uint64_t v, const char *what, struct pmu_err *e)
{
	fail_msg("WRMSR %s 0x%x=0x%llx", what, msr, (unsigned long long)v);
	(void)e;
	return -1;
}

int pmu_rdmsr(uint32_t msr, uint64_t *v, const char *what, struct pmu_err *e)
{
	fail_msg("RDMSR %s 0x%x", what, msr);
	(void)v;
	(void)e;
	return -1;
}

static int setup(void **state)
{
	(void)state;
	stub_pm_cpu(6, 0x5e);
	return 0;
}

/* A request of cpls gives the OS/USR bits whose classes hold them:
 * Instructions Retired (event C0H, Table 18-1) on GP counter 0, and
 * INST_RETIRED.ANY on fixed counter 0 (Table 18-2). */
static void test_event_config_cpls(void **state)
{
	static const struct {
		unsigned cpls;
		uint64_t gp, fixed;
	} cases[] = {
		{ PMU_CPL(0), OS, FIX_OS },
		{ PMU_CPL(3), USR, FIX_USR },
		{ PMU_CPL(0) | PMU_CPL(3), OS | USR, FIX_OS | FIX_USR },
		{ PMU_CPL(1), USR, FIX_USR },
		{ PMU_CPL(2), USR, FIX_USR },
		{ PMU_CPL(0) | PMU_CPL(2), OS | USR, FIX_OS | FIX_USR },
	};
	const struct pmu_driver *d = &perfmon_driver;

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		struct pmu_config c = { 0, 0 };

		if (d->event_config(SEM_INSTRUCTIONS, 0, cases[i].cpls, &c) ||
		    c.sel != (0xc0 | cases[i].gp) || c.aux)
			fail_msg("GP cpls 0x%x: 0x%llx, want 0x%llx",
				 cases[i].cpls, (unsigned long long)c.sel,
				 (unsigned long long)(0xc0 | cases[i].gp));
		if (d->event_config(SEM_INSTRUCTIONS, FIXED0, cases[i].cpls,
				    &c) || c.sel != cases[i].fixed || c.aux)
			fail_msg("fixed cpls 0x%x: 0x%llx, want 0x%llx",
				 cases[i].cpls, (unsigned long long)c.sel,
				 (unsigned long long)cases[i].fixed);
	}
}

/* No CPL, or a CPL that does not exist: no config. */
static void test_event_config_refuses(void **state)
{
	const struct pmu_driver *d = &perfmon_driver;
	struct pmu_config c;

	(void)state;
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 0, 0, &c), -1);
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, 0, 1u << 4, &c),
			 -1);
	assert_int_equal(d->event_config(SEM_INSTRUCTIONS, FIXED0,
					 PMU_CPL(3) | 1u << 5, &c), -1);
}

/* config_counts reports the SDM's set of each flag combination. */
static void test_config_counts_cpls(void **state)
{
	static const struct {
		uint64_t sel;
		unsigned ctr, cpls;
	} cases[] = {
		{ 0xc0 | OS, 0, CPLS_OS },
		{ 0xc0 | USR, 1, CPLS_USR },
		{ 0xc0 | OS | USR, 2, CPLS_OS | CPLS_USR },
		{ 0xc0, 3, 0 },
		{ FIX_OS, FIXED0, CPLS_OS },
		{ FIX_USR, FIXED0, CPLS_USR },
		{ FIX_OS | FIX_USR, FIXED0 + 1, CPLS_OS | CPLS_USR },
		{ 0, FIXED0 + 2, 0 },
	};

	(void)state;
	for (unsigned i = 0; i < N(cases); i++) {
		struct pmu_config c = { cases[i].sel, 0 };
		uint32_t mask = 0;
		unsigned cpls = 0xdead;

		perfmon_driver.config_counts(&c, cases[i].ctr, &mask, &cpls);
		if (cpls != cases[i].cpls)
			fail_msg("0x%llx on %u: cpls 0x%x, want 0x%x",
				 (unsigned long long)cases[i].sel,
				 cases[i].ctr, cpls, cases[i].cpls);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_event_config_cpls, setup),
		cmocka_unit_test_setup(test_event_config_refuses, setup),
		cmocka_unit_test_setup(test_config_counts_cpls, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
