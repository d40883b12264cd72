/* bts/circular-wrap, bts/threshold-pmi: what happens at the end of the BTS
 * buffer (SDM Vol. 3B, order no. 253669-060US, §17.4.9.3 "Setting Up the
 * BTS Buffer"):
 *   - BTINT (IA32_DEBUGCTL bit 8) clear: the buffer is circular; a record
 *     that would pass the absolute maximum goes to the base instead, and
 *     no interrupt is raised, whatever the threshold;
 *   - BTINT set: when the index reaches the interrupt threshold the
 *     processor raises a PMI through the local APIC's LVT performance-
 *     counter entry (masked on delivery on these processors, §17.4.9.5 and
 *     docs/apic.md) and, from arch perfmon v2 on, sets IA32_PERF_GLOBAL_
 *     STATUS bit 62 (OvfBuffer, §18.2.2 Figure 18-4); records past the
 *     absolute maximum are dropped and the index stays at the maximum.
 * Both runs are at CPL 3 with BTS_OFF_OS, so that on hardware the
 * harness's CPL 0 code around the benchmark leaves no record; there the
 * ring-3 entry and exit path may still add up to BTS_HW_EDGE records at
 * either end, so hardware checks the benchmark's branches as a
 * subsequence of the records, not one for one. */
#include "bts_test.h"
#include "../../harness/pmi_run.h"
#include "../../arch/x86/apic.h"

#define RUN_BENCH "counted-loop"
#define WRAP_K 16u		/* circular-wrap: records in the buffer */
#define PMI_M 4u		/* threshold-pmi: the threshold, records */
#define PMI_K 12u		/* ... and the maximum */

static struct bts_trace trace;
static struct bts_branch want[BTS_MAX_BRANCHES];

struct pmi_seen {
	struct bts_env *v;
	uint64_t flags, n;
	int ran;
	unsigned calls;
	uint32_t lvtpc;
	uint64_t status, index;
	int status_vec;
};

static void handler(const struct pmi_record *r, void *ctx)
{
	struct pmi_seen *s = ctx;

	(void)r;
	if (s->calls++)
		return;
	s->lvtpc = apic_lvtpc();
	s->index = bts_index(s->v);
	if (s->v->c->version >= 2)
		s->status_vec = be_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS,
					 &s->status);
}

static void run(void *arg)
{
	struct pmi_seen *s = arg;

	pmi_set_callback(handler, s);
	s->ran = bts_run(s->v, RUN_BENCH, s->n, 3, s->flags, &trace);
}

/* The run with the PMI handler armed on the NMI path. */
static int go(struct tcase *t, struct pmi_seen *s)
{
	struct fault f = { 0 };
	int rc;

	if (!apic_ready(t))
		return 0;
	rc = pmi_run(PMI_PATH_NMI, run, s, &f);
	value(t, "pmis", "%u", s->calls);
	return check(t, rc == 0 && s->ran, "pmi_run %d (vector %u), "
		     "benchmark ran %d", rc, f.vector, s->ran);
}

static uint64_t status_now(struct bts_env *v)
{
	uint64_t st = 0;

	if (v->c->version >= 2)
		(void)be_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS, &st);
	return st;
}

static void clear_ovf_buf(struct bts_env *v)
{
	/* OVF_CTRL (v2, v3) and STATUS_RESET (v4+) share the address */
	if (v->c->version >= 2)
		(void)be_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL,
			       GLOBAL_STATUS_OVF_BUF);
}

/* BTINT clear, k records, threshold at 2, more than k branches: the
 * buffer holds the last k in circular order: branch i (0-based, of N) in
 * slot i mod k; the index is just past the newest, base + ((N - 1) mod
 * k + 1) records; no PMI and no OvfBuffer. */
/* BTS_OFF_OS keeps the harness's CPL 0 branches out of the buffer on
 * hardware; it exists only with CPUID.01H:ECX.DS-CPL (SDM Vol. 3B
 * 17.4.9.4): without it the run goes without (said in the log). */
static void off_os_if_cpl(struct bts_env *v, struct pmi_seen *s)
{
	if (!v->c->ds_cpl && (s->flags & SDM_DEBUGCTL_BTS_OFF_OS)) {
		s->flags &= ~SDM_DEBUGCTL_BTS_OFF_OS;
		value(v->t, "bts_off_os", "not used: CPUID.01H:ECX.DS-CPL "
		      "clear (%s)", v->c->source);
	}
}

static void test_wrap(struct tcase *t)
{
	const unsigned k = WRAP_K;
	struct bts_env v;
	struct pmi_seen s = { .v = &v, .flags = SDM_DEBUGCTL_BTS_OFF_OS,
			      .n = 40 };
	uint64_t index, expect_index, st;
	unsigned nwant, wrong = 0;

	if (!bts_begin(t, &v))
		goto out;
	off_os_if_cpl(&v, &s);
	if (!bts_install(&v, k, 2) || !go(t, &s))
		goto out;
	index = bts_index(&v);
	st = status_now(&v);
	nwant = bts_expected(&trace, s.flags, want);
	expect_index = v.base + (uint64_t)((nwant - 1) % k + 1) * BTS_REC;
	value(t, "bts_index", "base+%llu", (unsigned long long)(index -
								 v.base));
	value(t, "branches", "%u into %u records", nwant, k);
	if (!check(t, nwant > k, "only %u branches for a %u-record buffer",
		   nwant, k))
		goto out;
	check(t, s.calls == 0, "%u PMIs with BTINT clear", s.calls);
	check(t, !(st & GLOBAL_STATUS_OVF_BUF), "GLOBAL_STATUS 0x%llx: "
	      "OvfBuffer set with BTINT clear", (unsigned long long)st);
	bts_check_guard(t, &v, k);
	if (!backend_model_backed()) {	/* hardware */
		struct bts_record ring[WRAP_K];
		unsigned head = (unsigned)((index - v.base) / BTS_REC) % k;

		check(t, index > v.base && index <= v.base + k * BTS_REC &&
		      (index - v.base) % BTS_REC == 0, "BTS index base+%lld "
		      "outside (base, max] or not on a record",
		      (long long)(index - v.base));
		for (unsigned i = 0; i < k; i++)
			ring[i] = v.m->rec[(head + i) % k];
		bts_check_records(t, "the last records, oldest first", ring,
				  k, want + nwant - (k - BTS_HW_EDGE),
				  k - BTS_HW_EDGE);
		goto out;
	}
	check(t, index == expect_index, "BTS index base+%llu, expected "
	      "base+%llu: %u records into %u", (unsigned long long)(index -
	      v.base), (unsigned long long)(expect_index - v.base), nwant, k);
	for (unsigned i = nwant - k; i < nwant; i++) {
		const struct bts_record *r = &v.m->rec[i % k];

		if (bts_same(r, &want[i]) && r->flags == 0)
			continue;
		if (!wrong++)
			check(t, 0, "slot %u: {0x%llx -> 0x%llx, flags 0x%llx},"
			      " expected branch %u of %u {0x%llx -> 0x%llx}",
			      i % k, (unsigned long long)r->from,
			      (unsigned long long)r->to,
			      (unsigned long long)r->flags, i, nwant,
			      (unsigned long long)want[i].from,
			      (unsigned long long)want[i].to);
	}
out:
	clear_ovf_buf(&v);
	bts_end(&v);
}

TEST(bts_wrap, "bts/circular-wrap",
     "BTINT clear: the buffer wraps to its base and keeps the last records,"
     " no PMI", test_wrap, 0);

/* BTINT set, threshold at m records, maximum at k > m, more than k
 * branches: one PMI, when the index reaches the threshold; OvfBuffer in
 * the handler (v2+); then records until the maximum, the index parked
 * there, nothing past it; the k records are the first k branches. */
static void test_threshold(struct tcase *t)
{
	const unsigned m = PMI_M, k = PMI_K;
	struct bts_env v;
	struct pmi_seen s = { .v = &v, .n = 20,
			      .flags = SDM_DEBUGCTL_BTINT | SDM_DEBUGCTL_BTS_OFF_OS };
	uint64_t index, thresh, max;
	unsigned nwant;

	if (!bts_begin(t, &v))
		goto out;
	off_os_if_cpl(&v, &s);
	if (!bts_install(&v, k, m) || !go(t, &s))
		goto out;
	thresh = v.base + m * BTS_REC;
	max = v.base + k * BTS_REC;
	index = bts_index(&v);
	nwant = bts_expected(&trace, s.flags, want);
	value(t, "branches", "%u, threshold %u records, maximum %u", nwant,
	      m, k);
	value(t, "lvtpc_in_handler", "0x%x", s.lvtpc);
	value(t, "index_in_handler", "base+%llu",
	      (unsigned long long)(s.index - v.base));
	value(t, "bts_index", "base+%llu", (unsigned long long)(index -
								 v.base));
	check(t, nwant > k, "only %u branches for a %u-record buffer", nwant,
	      k);
	check(t, s.calls == 1, "%u PMIs, expected 1", s.calls);
	if (s.calls) {
		check(t, s.lvtpc & LVT_MASKED, "LVTPC 0x%x in the handler: "
		      "not masked on delivery", s.lvtpc);
		check(t, pmu_pmi_exact() ? s.index == thresh :
		      s.index >= thresh && s.index <= max, "index base+%lld "
		      "in the handler, threshold base+%llu",
		      (long long)(s.index - v.base),
		      (unsigned long long)(thresh - v.base));
	}
	if (s.calls && v.c->version >= 2) {
		value(t, "status_in_handler", "0x%llx",
		      (unsigned long long)s.status);
		check(t, s.status_vec == 0 &&
		      (s.status & GLOBAL_STATUS_OVF_BUF), "v%u: GLOBAL_STATUS "
		      "0x%llx in the handler (vector %d): OvfBuffer (bit 62) "
		      "not set", v.c->version, (unsigned long long)s.status,
		      s.status_vec);
	}
	check(t, index == max, "BTS index base+%lld after the run: not "
	      "parked at the maximum base+%llu", (long long)(index - v.base),
	      (unsigned long long)(max - v.base));
	bts_check_guard(t, &v, k);
	bts_check_records(t, "the first k records", v.m->rec, k, want,
			  backend_model_backed() ? k : k - BTS_HW_EDGE);
out:
	clear_ovf_buf(&v);
	bts_end(&v);
}

TEST(bts_threshold, "bts/threshold-pmi",
     "BTINT set: one PMI at the threshold with OvfBuffer, records stop at "
     "the maximum", test_threshold, 0);
