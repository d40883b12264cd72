/* Host tests for pmu/errata.c: which CPUs and tests an erratum touches.
 * The facts restated here come from the functions of Linux that work
 * around them (arch/x86/events/intel/core.c, p6.c) and their messages,
 * never from the table:
 *   - hsw_limit_period(): Haswell (DisplayModel 3CH, 3FH, 45H, 46H), any
 *     stepping, INST_RETIRED.PREC_DIST period >= 128 (HSW11);
 *   - p6_pmu_rdpmc_quirk(): the Pentium Pro (family 6 model 1) below
 *     stepping 9, no user-mode RDPMC (erratum 26);
 *   - intel_snb_pebs_broken(): Sandy Bridge 2AH needs microcode 0x28,
 *     2DH stepping 6 0x618, stepping 7 0x70c, other steppings have no
 *     good revision;
 *   - intel_pebs_isolation()'s isolation_ucodes[]: Haswell 3CH stepping 3
 *     from 0x1f; Skylake-X 55H steppings 4-7 at any revision;
 *   - intel_clovertown_quirk(): Core 2 DisplayModel 0FH, PEBS disabled;
 *   - intel_nehalem_quirk(): AAJ80, the branch-miss event, which no test
 *     of the harness judges;
 *   - nhm_limit_period(), x86_pmu.limit_period of the Nehalem cases
 *     (INTEL_NEHALEM 1EH, _EP 1AH, _EX 2EH), not Westmere's: every
 *     period at least 32;
 *   - spr_limit_period(): PDist (precise_ip 3, PMC0) at least 128 on
 *     Sapphire Rapids;
 *   - intel_counter_freezing_quirk()'s counter_freezing_ucodes[]:
 *     Goldmont X (Denverton, 5FH) stepping 1 from microcode 0x28. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "pmu/errata.h"

/* host-sources: pmu/errata.c lib/string.c */

static struct cpu_info cpu(unsigned family, unsigned model,
			   unsigned stepping, int ucode_valid, uint32_t ucode)
{
	struct cpu_info ci;

	memset(&ci, 0, sizeof(ci));
	ci.vendor = VENDOR_INTEL;
	ci.sig.family = family;
	ci.sig.model = model;
	ci.sig.stepping = stepping;
	ci.microcode_valid = ucode_valid;
	ci.microcode = ucode;
	return ci;
}

static const char *id_for(const struct cpu_info *ci, const char *test)
{
	const struct pmu_erratum *e = pmu_erratum_for(ci, test);

	return e ? e->id : NULL;
}

static void test_haswell_prec_dist(void **state)
{
	/* microcode with PEBS isolation (0x1f): only the period limit */
	struct cpu_info hsw = cpu(6, 0x3c, 3, 1, 0x22);

	(void)state;
	assert_string_equal(id_for(&hsw, "pebs/arming-pdir"), "HSW11");
	assert_string_equal(id_for(&hsw, "pebs/arming-pdir-fault-like"),
			    "HSW11");
	assert_null(id_for(&hsw, "pebs/records-loads"));
	assert_null(id_for(&hsw, "perfmon/event-instructions"));
	for (unsigned m = 0x3c; m <= 0x46; m++) {
		struct cpu_info c = cpu(6, m, 1, 1, 0xff);
		int haswell = m == 0x3c || m == 0x3f || m == 0x45 ||
			      m == 0x46;
		const char *id = id_for(&c, "pebs/arming-pdir");

		if (haswell)
			assert_string_equal(id, "HSW11");
		else if (id)
			assert_string_not_equal(id, "HSW11");
	}
}

static void test_pebs_isolation_by_microcode(void **state)
{
	struct cpu_info old = cpu(6, 0x3c, 3, 1, 0x1e);
	struct cpu_info fixed = cpu(6, 0x3c, 3, 1, 0x1f);
	struct cpu_info unlisted = cpu(6, 0x3c, 4, 1, 0x7f);
	struct cpu_info skx = cpu(6, 0x55, 4, 1, 0);

	(void)state;
	assert_string_equal(id_for(&old, "pebs/records-loads"),
			    "PEBS-isolation");
	assert_null(id_for(&fixed, "pebs/records-loads"));
	/* a stepping isolation_ucodes[] does not list has no isolation */
	assert_string_equal(id_for(&unlisted, "pebs/records-loads"),
			    "PEBS-isolation");
	assert_null(id_for(&skx, "pebs/records-loads"));
}

static void test_pentium_pro_rdpmc(void **state)
{
	struct cpu_info s8 = cpu(6, 0x01, 8, 0, 0);
	struct cpu_info s9 = cpu(6, 0x01, 9, 0, 0);
	struct cpu_info p2 = cpu(6, 0x03, 3, 0, 0);

	(void)state;
	assert_string_equal(id_for(&s8, "p6/rdpmc-cpl3-pce-set"), "PPro-26");
	assert_string_equal(id_for(&s8, "p6/rdpmc-cpl3-pce-clear"),
			    "PPro-26");
	assert_null(id_for(&s8, "p6/rdpmc-agrees-with-rdmsr"));
	assert_null(id_for(&s9, "p6/rdpmc-cpl3-pce-set"));
	assert_null(id_for(&p2, "p6/rdpmc-cpl3-pce-set"));
}

static void test_sandy_bridge_microcode(void **state)
{
	struct cpu_info before = cpu(6, 0x2a, 7, 1, 0x27);
	struct cpu_info after = cpu(6, 0x2a, 7, 1, 0x28);
	struct cpu_info unread = cpu(6, 0x2a, 7, 0, 0);
	struct cpu_info ep6 = cpu(6, 0x2d, 6, 1, 0x618);
	struct cpu_info ep7 = cpu(6, 0x2d, 7, 1, 0x70b);
	struct cpu_info ep5 = cpu(6, 0x2d, 5, 1, 0xffff);

	(void)state;
	assert_string_equal(id_for(&before, "pebs/threshold-pmi"),
			    "SNB-PEBS-microcode");
	assert_null(id_for(&after, "pebs/threshold-pmi"));
	/* unreadable: taken as not updated */
	assert_string_equal(id_for(&unread, "pebs/threshold-pmi"),
			    "SNB-PEBS-microcode");
	assert_null(id_for(&ep6, "pebs/threshold-pmi"));
	assert_string_equal(id_for(&ep7, "pebs/threshold-pmi"),
			    "SNB-PEBS-microcode");
	assert_string_equal(id_for(&ep5, "pebs/threshold-pmi"),
			    "SNB-PEBS-microcode");
}

static void test_period_limits(void **state)
{
	struct cpu_info nhm = cpu(6, 0x1a, 5, 1, 0x19);
	struct cpu_info wsm = cpu(6, 0x2c, 2, 1, 0x1f);
	struct cpu_info spr = cpu(6, 0x8f, 8, 1, 0x2b000000);

	(void)state;
	assert_string_equal(id_for(&nhm, "perfmon/pmi-gp-0"),
			    "NHM-period-32");
	assert_string_equal(id_for(&nhm, "pebs/arming-next-event"),
			    "NHM-period-32");
	assert_null(id_for(&wsm, "perfmon/pmi-gp-0"));
	assert_string_equal(id_for(&spr, "pebs/arming-pdist-pmc0"),
			    "SPR-PDist-period");
	assert_null(id_for(&spr, "pebs/arming-next-event"));
}

static void test_goldmont_freezing(void **state)
{
	struct cpu_info old = cpu(6, 0x5f, 1, 1, 0x24);
	struct cpu_info fixed = cpu(6, 0x5f, 1, 1, 0x28);

	(void)state;
	assert_string_equal(id_for(&old, "perfmon/freeze-on-pmi"),
			    "GLM-counter-freezing");
	assert_null(id_for(&fixed, "perfmon/freeze-on-pmi"));
}

static void test_core2_and_others(void **state)
{
	struct cpu_info merom = cpu(6, 0x0f, 6, 1, 0xd1);
	struct cpu_info penryn = cpu(6, 0x17, 6, 1, 0x60f);
	struct cpu_info nhm = cpu(6, 0x1a, 5, 1, 0x19);
	struct cpu_info amd = cpu(6, 0x3c, 3, 1, 0);

	(void)state;
	assert_string_equal(id_for(&merom, "pebs/records-instructions"),
			    "AJ67/AJ68/AJ69/AJ106");
	assert_null(id_for(&penryn, "pebs/records-instructions"));
	/* AAJ80 touches no test: nothing of it on Nehalem (its PEBS
	 * tests are the period limit's, test_period_limits) */
	assert_null(id_for(&nhm, "perfmon/event-branches"));
	assert_string_equal(id_for(&nhm, "pebs/records-branches"),
			    "NHM-period-32");
	amd.vendor = VENDOR_AMD;
	assert_null(id_for(&amd, "pebs/arming-pdir"));
}

/* Every entry says where it is documented and either the tests it
 * touches or why none. */
static void test_every_entry_sourced(void **state)
{
	unsigned n;
	const struct pmu_erratum *e = pmu_errata(&n);

	(void)state;
	assert_true(n >= 8);
	for (unsigned i = 0; i < n; i++) {
		assert_non_null(e[i].id);
		assert_true(e[i].source && strlen(e[i].source) > 10);
		assert_true(e[i].what && strlen(e[i].what) > 10);
		assert_true(!e[i].tests != !e[i].no_test);
		assert_true(e[i].cpus[0].family != 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_haswell_prec_dist),
		cmocka_unit_test(test_pebs_isolation_by_microcode),
		cmocka_unit_test(test_pentium_pro_rdpmc),
		cmocka_unit_test(test_sandy_bridge_microcode),
		cmocka_unit_test(test_core2_and_others),
		cmocka_unit_test(test_period_limits),
		cmocka_unit_test(test_goldmont_freezing),
		cmocka_unit_test(test_every_entry_sourced),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
