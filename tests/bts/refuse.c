/* bts/refuse-*: what the driver refuses before anything is written (SDM
 * Vol. 3B, order no. 253669-060US, §17.4.9.2 "Setting Up the DS Save
 * Area", §17.4.9.3 "Setting Up the BTS Buffer": the DS area and the
 * buffer come first, then TR and BTS; the buffer is records from its
 * base up to the absolute maximum, with the index and the threshold
 * inside it):
 *   - BTS without an installed DS area: refused, IA32_DEBUGCTL unchanged,
 *     no WRMSR at all;
 *   - IA32_DEBUGCTL bits other than BTINT, BTS_OFF_OS and BTS_OFF_USR as
 *     flags: refused likewise;
 *   - a DS area whose BTS index is past its maximum, whose threshold is
 *     past its maximum, or whose base is not 8-byte aligned: refused,
 *     IA32_DS_AREA never written (the backend's access log) and still 0,
 *     the area's memory untouched.  A sound area, installed first, shows
 *     the refusals are not of everything. */
#include "bts_test.h"

#define K 8u			/* records in the buffers here */
#define AREA_FILL 0x5a

static struct be_access acc[32];
static unsigned refusals;		/* YAML keys refusal<N> */

static const char *refusal_key(void)
{
	static char k[24];

	fmt_snprintf(k, sizeof(k), "refusal%u", ++refusals);
	return k;
}

/* The WRMSRs of a closed log to msr (0: to any register). */
static unsigned writes_to(const struct be_log *log, uint32_t msr)
{
	struct be_access w[32];
	unsigned n = be_log_writes(log, w, 32), hits = 0;

	for (unsigned i = 0; i < n; i++)
		hits += !msr || w[i].reg == msr;
	return hits + log->lost;
}

/* perfmon_bts_enable(flags) must be refused and write nothing. */
static void refused_enable(struct tcase *t, uint64_t flags, const char *why)
{
	uint64_t before = 0, after = 0;
	struct pmu_err e = { "" };
	struct be_log log;
	int rc;

	(void)be_rdmsr(MSR_IA32_DEBUGCTL, &before);
	be_log_open(&log, acc, 32);
	rc = perfmon_bts_enable(flags, &e);
	be_log_close();
	(void)be_rdmsr(MSR_IA32_DEBUGCTL, &after);
	value(t, refusal_key(), "%s", e.msg);
	check(t, rc == -1, "%s: BTS enabled (flags 0x%llx)", why,
	      (unsigned long long)flags);
	check(t, writes_to(&log, 0) == 0, "%s: refused, but %u WRMSRs made",
	      why, writes_to(&log, 0));
	check(t, after == before, "%s: IA32_DEBUGCTL 0x%llx, was 0x%llx", why,
	      (unsigned long long)after, (unsigned long long)before);
}

static void test_no_ds(struct tcase *t)
{
	struct bts_env v;

	refusals = 0;
	if (!bts_begin(t, &v))
		goto out;
	check(t, perfmon_ds_installed() == NULL, "a DS area is installed "
	      "after perfmon_ds_remove()");
	refused_enable(t, 0, "no DS area");
	refused_enable(t, SDM_DEBUGCTL_BTINT, "no DS area, BTINT");
out:
	bts_end(&v);
}

TEST(bts_refuse_no_ds, "bts/refuse-no-ds",
     "BTS without a DS area is refused; IA32_DEBUGCTL is not written",
     test_no_ds, 0);

static void test_bad_flags(struct tcase *t)
{
	static const struct {
		uint64_t flags;
		const char *why;
	} bad[] = {
		{ SDM_DEBUGCTL_TR, "TR as a flag" },
		{ SDM_DEBUGCTL_BTS, "BTS as a flag" },
		{ 1ull << 0, "LBR (bit 0)" },
		{ SDM_DEBUGCTL_FREEZE_PERFMON | SDM_DEBUGCTL_BTINT,
		  "FREEZE_PERFMON_ON_PMI with BTINT" },
	};
	struct bts_env v;

	refusals = 0;
	if (!bts_begin(t, &v) || !bts_install(&v, K, K - 1))
		goto out;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused_enable(t, bad[i].flags, bad[i].why);
out:
	bts_end(&v);
}

TEST(bts_refuse_bad_flags, "bts/refuse-bad-flags",
     "flags other than BTINT, BTS_OFF_OS, BTS_OFF_USR are refused",
     test_bad_flags, 0);

static int ds_area_is(struct tcase *t, uint64_t want, const char *when)
{
	uint64_t v = ~0ull;
	int vec = be_rdmsr(MSR_IA32_DS_AREA, &v);

	return check(t, vec == 0 && v == want, "%s: IA32_DS_AREA 0x%llx "
		     "(vector %d), expected 0x%llx", when,
		     (unsigned long long)v, vec, (unsigned long long)want);
}

/* Installs b; 1 when accepted.  A refusal must leave the area's memory,
 * IA32_DS_AREA and the installed area as they were. */
static int try_install(struct tcase *t, struct bts_env *v,
		       struct ds_buffer b, const char *what)
{
	struct perfmon_ds s = { .area = v->m->area, .use_bts = 1, .bts = b };
	struct pmu_err e = { "" };
	struct be_log log;
	unsigned wr;
	int rc;

	memset(v->m->area, AREA_FILL, sizeof(v->m->area));
	be_log_open(&log, acc, 32);
	rc = perfmon_ds_install(&s, &e);
	be_log_close();
	wr = writes_to(&log, MSR_IA32_DS_AREA);
	if (!rc)
		return 1;
	value(t, refusal_key(), "%s: %s", what, e.msg);
	check(t, wr == 0, "%s: refused, but IA32_DS_AREA written %u times",
	      what, wr);
	ds_area_is(t, 0, what);
	check(t, perfmon_ds_installed() == NULL, "%s: refused, but an area "
	      "counts as installed", what);
	for (unsigned i = 0; i < sizeof(v->m->area); i++)
		if (!check(t, v->m->area[i] == AREA_FILL, "%s: refused, but "
			   "byte %u of the DS area was written", what, i))
			break;
	return 0;
}

static void test_bad_ds(struct tcase *t)
{
	struct bts_env v;
	struct pmu_err e;
	uint64_t base, max;

	refusals = 0;
	if (!bts_begin(t, &v))
		goto out;
	base = v.base;
	max = base + K * BTS_REC;
	/* a sound area first */
	/* a sound area first: its threshold a record short of the maximum
	 * (Vol. 3B §17.4.9: "several records short of the BTS absolute
	 * maximum address") */
	if (!check(t, try_install(t, &v, (struct ds_buffer){ base, base, max,
			max - BTS_REC }, "sound area"), "a sound DS area was "
		   "refused") ||
	    !ds_area_is(t, (uint64_t)(uintptr_t)v.m->area, "installed") ||
	    !check(t, perfmon_ds_remove(&e) == 0, "remove: %s", e.msg) ||
	    !ds_area_is(t, 0, "removed"))
		goto out;
	check(t, !try_install(t, &v, (struct ds_buffer){ base,
		max + BTS_REC, max, max - BTS_REC }, "index past the maximum"),
	      "index past the maximum accepted");
	check(t, !try_install(t, &v, (struct ds_buffer){ base, base, max,
		max + BTS_REC }, "threshold past the maximum"),
	      "threshold past the maximum accepted");
	check(t, !try_install(t, &v, (struct ds_buffer){ base, base, max,
		max }, "threshold at the maximum"),
	      "threshold at the maximum accepted: not several records short "
	      "of it");
	check(t, !try_install(t, &v, (struct ds_buffer){ base + 4, base + 4,
		max + 4, max + 4 - BTS_REC }, "base not 8-byte aligned"),
	      "a base not 8-byte aligned accepted");
out:
	bts_end(&v);
}

TEST(bts_refuse_bad_ds, "bts/refuse-bad-ds",
     "DS areas with index or threshold past the maximum, or a misaligned "
     "base, are refused; IA32_DS_AREA is not written", test_bad_ds, 0);
