/* pebs/refuse-no-cpuid-ds: no DS save area where CPUID has no DS.  SDM
 * Vol. 3B (order no. 253669-060US) §17.4.9 "BTS and DS Save Area": the
 * debug store, and with it BTS and PEBS through IA32_DS_AREA, exists
 * when CPUID.01H:EDX.DS (bit 21) is 1 (Vol. 2A, CPUID leaf 01H, the EDX
 * feature flags: bit 21 "DS", Debug Store).  Without it the driver
 * refuses a DS area for PEBS and for BTS alike before IA32_DS_AREA is
 * written (the MSR need not exist: no WRMSR at all), with a clear error.
 * The same area installs once the bit is back: the refusal is the bit's.
 *
 * The bit is the CPU's (hardware: its own CPUID, which runs the check
 * only where it is 0) or the capability row's (the model: every row has
 * DS, so a stand-in clears it). */
#include "pebs_test.h"
#include "../../harness/pmu_run.h"

static uint8_t area[1024] __attribute__((aligned(64)));
static uint8_t buf[4096] __attribute__((aligned(4096)));

/* A sound DS area of 4 records for PEBS (pebs) or 4 BTS records. */
static struct perfmon_ds sound(int pebs, unsigned size)
{
	struct perfmon_ds s = { .area = area };
	uint64_t b = (uintptr_t)buf;
	struct ds_buffer d = { b, b, b + 4 * size, b + 3 * size };

	if (pebs) {
		s.use_pebs = 1;
		s.pebs = d;
		(void)perfmon_pebs_buffer(&s, NULL);
	} else {
		s.use_bts = 1;
		s.bts = d;
	}
	return s;
}

static void refused(struct tcase *t, const struct perfmon_ds *s,
		    const char *key)
{
	struct be_access acc[16], w[16];
	struct be_log log;
	struct pmu_err e = { "" };
	unsigned n, ds_writes = 0;
	int rc;

	be_log_open(&log, acc, 16);
	rc = perfmon_ds_install(s, &e);
	be_log_close();
	n = be_log_writes(&log, w, 16);
	for (unsigned i = 0; i < n; i++)
		ds_writes += w[i].reg == MSR_IA32_DS_AREA;
	value(t, key, "%s", rc ? e.msg : "(accepted)");
	check(t, rc != 0, "%s: a DS area installed without CPUID DS", key);
	check(t, ds_writes + log.lost == 0, "%s: %u WRMSRs to IA32_DS_AREA "
	      "after the refusal", key, ds_writes + log.lost);
	if (!rc)
		(void)perfmon_ds_remove(&e);
}

static void run(struct tcase *t, unsigned fmt)
{
	struct perfmon_ds p = sound(1, sdm_pebs_plain_size(fmt));
	struct perfmon_ds b = sound(0, pebs_ds32() ? 12 : 24);
	struct pmu_err e;

	if (!check(t, perfmon_driver.init(&e) == 0, "init: %s", e.msg))
		return;
	refused(t, &p, "refusal_pebs");
	refused(t, &b, "refusal_bts");
	(void)perfmon_driver.init(&e);
}

static void test_no_ds(struct tcase *t)
{
	const struct perfmon_caps *c;
	struct perfmon_caps no_ds;
	struct perfmon_ds p;
	struct pmu_err e;
	unsigned fmt;
	int trap;

	if (!(c = pebs_ready(t, &fmt, &trap)))
		return;
	if (!pmu_on_model()) {
		/* the CPU's CPUID, or under backend=emulated the PMU the
		 * model stands in for (its capability row) */
		if ((cpu_info()->f1_edx & (1u << 21)) || c->ds) {
			skip(t, "this CPU has DS (CPUID.01H:EDX[21], %s); "
			     "clearing it needs the model", c->source);
			return;
		}
		run(t, fmt);
		return;
	}
	no_ds = *c;
	no_ds.ds = 0;
	no_ds.source = "model:no-ds";
	if (!check(t, perfmon_caps_stand_in(&no_ds) == 0, "stand-in"))
		return;
	run(t, fmt);
	perfmon_caps_stand_in(0);
	/* the row's own DS: the same PEBS area installs */
	p = sound(1, sdm_pebs_plain_size(fmt));
	if (check(t, perfmon_driver.init(&e) == 0, "init: %s", e.msg) &&
	    check(t, perfmon_ds_install(&p, &e) == 0, "with DS (the row's "
		  "own CPUID) the same area is refused: %s", e.msg))
		(void)perfmon_ds_remove(&e);
	(void)perfmon_driver.init(&e);
}

TEST(pebs_refuse_no_ds, "pebs/refuse-no-cpuid-ds",
     "without CPUID.01H:EDX.DS, a DS area (PEBS or BTS) is refused before "
     "IA32_DS_AREA is written", test_no_ds, 0);
