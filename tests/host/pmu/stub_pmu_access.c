/* Host stub for the tests that link pmu/lbr.c for the reference models
 * alone (pmu/lbr_model.c uses its pure helpers: lbr_branch_of(),
 * lbr_br_type(), lbr_arch_depth_ok()/_max()) and not the driver's MSR
 * accesses of pmu/driver.c, which would bring the backend and the
 * generation table with them.  No such test reaches an access: one that
 * does fails.  A test of pmu/lbr.c's accesses (tests/host/pmu/
 * test_lbr_model.c) links pmu/driver.c's real ones instead. */
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "pmu/driver.h"

int pmu_fail(struct pmu_err *e, int vector, const char *fmt, ...)
{
	va_list ap;

	e->vector = vector;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int pmu_wrmsr(uint32_t msr, uint64_t v, const char *what, struct pmu_err *e)
{
	fail_msg("unexpected driver WRMSR %s 0x%x=0x%llx", what, msr,
		 (unsigned long long)v);
	(void)e;
	return -1;
}

int pmu_rdmsr(uint32_t msr, uint64_t *v, const char *what, struct pmu_err *e)
{
	fail_msg("unexpected driver RDMSR %s 0x%x", what, msr);
	(void)v;
	(void)e;
	return -1;
}
