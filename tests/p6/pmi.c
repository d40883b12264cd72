/* p6/int-pmi, p6/int-clear-no-pmi: INT (bit 20) - "the processor
 * generates an exception through its local APIC on counter overflow"
 * (SDM Vol. 3B §18.22.1, §18.22.5) - through the real local APIC and the
 * harness's NMI handler (docs/apic.md).  PerfCtr0 counts CPL 3
 * instructions with INT, preset 2^40 - K: it wraps to 0 with the K-th
 * instruction.  PerfCtr1 counts clocks without INT, preset 2^40 - 3: it
 * wraps first, and must raise nothing.  The handler sees the PMI at the
 * boundary after the K-th instruction (exact under the model; on
 * hardware somewhere in the benchmark at CPL 3, the PMI's skid), finds
 * PerfCtr0 wrapped, and the LVTPC masked on a Pentium M (models 9 and
 * 0DH), which masks it on delivery (Linux op_model_ppro.c: "Only P6
 * based Pentium M need to re-unmask the apic vector"), unmasked on the
 * Pentium Pro, II and III (the SDM's mask-on-delivery note, Vol. 3A
 * 10.5.1, names the Pentium 4 and Xeon); no second PMI comes either way:
 * PerfCtr0 wraps once. */
#include "p6_test.h"
#include "../../harness/pmi_run.h"
#include "../../pmu/backend.h"
#include "../../harness/need.h"
#include "../../arch/x86/apic.h"
#include "../../arch/x86/trace.h"

#define PMI_BENCH "counted-loop"
#define PMI_BENCH_N 40
#define K 12

struct seen {
	unsigned calls;
	uint32_t lvtpc;		/* as the handler found it */
	uint64_t ctr0;		/* PerfCtr0 in the handler */
	int read;
};

struct job {
	struct tcase *t;
	struct pmu_run r;
	int ran;
	uint32_t lvtpc_after;	/* after the run, still armed */
	struct seen seen;
};

static void callback(const struct pmi_record *r, void *ctx)
{
	struct seen *s = ctx;
	struct pmu_err e;

	(void)r;
	if (s->calls++)
		return;
	s->lvtpc = apic_lvtpc();
	s->read = p6_read(0, &s->ctr0, &e) == 0;
}

static void job_fn(void *arg)
{
	struct job *j = arg;

	pmi_set_callback(callback, &j->seen);
	j->ran = pmu_run(j->t, &j->r);
	j->lvtpc_after = apic_lvtpc();
}

/* The boundary after the K-th CPL 3 instruction counted: the
 * benchmark's (K - the trampoline's lead)-th (pmu_run.h). */
struct kth {
	uint64_t retired, next_rip;
};

static void kth_sink(const struct insn_event *e, void *ctx)
{
	struct kth *k = ctx;

	if (e->cpl == 3 && e->retired &&
	    ++k->retired == K - pmu_ring3_lead(SEM_INSTRUCTIONS))
		k->next_rip = e->next_rip;
}

static int kth_boundary(struct tcase *t, const struct bench *b,
			uint64_t *rip)
{
	struct trace_range range = { (const void *)b->fn, b->end };
	struct kth k = { 0, 0 };
	struct fault f;

	if (!check(t, trace_run(b->fn, PMI_BENCH_N, bench_data(b), 3, range,
				kth_sink, &k, &f) == 0, "trace of %s failed",
		   b->name) ||
	    !check(t, k.next_rip != 0, "%s retired only %llu instructions",
		   b->name, (unsigned long long)k.retired))
		return 0;
	*rip = k.next_rip;
	return 1;
}

static void setup(struct job *j, struct tcase *t, unsigned intr0)
{
	*j = (struct job){ .t = t };
	p6_setup(&j->r, PMI_BENCH, PMI_BENCH_N, 3,
		 (struct sdm_sel){ .event = SDM_P6_INST_RETIRED, .usr = 1,
				   .intr = intr0 },
		 (struct sdm_sel){ .event = SDM_P6_CPU_CLK_UNHALTED,
				   .usr = 1 });
	j->r.preset[0] = SDM_CTR_TOP - K;
	j->r.preset[1] = SDM_CTR_TOP - 3;
}

static int run_armed(struct tcase *t, struct job *j)
{
	return pmi_run_nmi_checked(t, job_fn, j) && j->ran;
}

static void test_int(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	const struct bench *b = bench_find(PMI_BENCH);
	uint64_t want_rip = 0, count;
	struct pmi_record p;
	struct job j;
	int masks;

	if (!d || !apic_ready(t) || !check(t, b != NULL, "no " PMI_BENCH) ||
	    !need_bench_data(t, b) ||
	    !kth_boundary(t, b, &want_rip))
		return;
	setup(&j, t, 1);
	if (!run_armed(t, &j))
		return;
	count = pmi_count();
	if (!pmi_last(&p))
		p = (struct pmi_record){ 0 };
	pmi_log(t, NULL, &p);
	value(t, "kth_boundary", "0x%llx", (unsigned long long)want_rip);
	value(t, "handler_lvtpc", "0x%x", j.seen.lvtpc);
	value(t, "handler_ctr0", "%llu", (unsigned long long)j.seen.ctr0);
	value(t, "lvtpc_after", "0x%x", j.lvtpc_after);
	p6_check(t, d, &j.r, 0);
	p6_check(t, d, &j.r, 1);
	check(t, count == 1 && j.seen.calls == 1, "%llu PMIs, %u handler "
	      "calls; expected 1 (PerfCtr0's INT, not PerfCtr1's wrap)",
	      (unsigned long long)count, j.seen.calls);
	masks = cpu_info()->sig.model == 0x9 || cpu_info()->sig.model == 0xd;
	value(t, "masks_on_delivery", "%s", masks ? "yes (Pentium M)" : "no");
	check(t, !!(j.seen.lvtpc & LVT_MASKED) == masks &&
	      !!(j.lvtpc_after & LVT_MASKED) == masks,
	      "LVTPC 0x%x in the handler, 0x%x after: %s on delivery",
	      j.seen.lvtpc, j.lvtpc_after, masks ? "not masked" :
	      "masked (a Pentium Pro, II or III does not mask it)");
	check(t, j.seen.read && j.seen.ctr0 < 1000, "the handler read "
	      "PerfCtr0 = %llu: not wrapped", (unsigned long long)j.seen.ctr0);
	check(t, p.cpl == 3, "PMI at CPL %u, expected 3", p.cpl);
	if (pmu_pmi_exact())	/* the model's PMI: no skid */
		check(t, p.rip == want_rip && j.seen.ctr0 == 0, "PMI at rip "
		      "0x%llx with PerfCtr0 %llu, expected 0x%llx (after "
		      "instruction %u) and 0", (unsigned long long)p.rip,
		      (unsigned long long)j.seen.ctr0,
		      (unsigned long long)want_rip, K);
	else
		check(t, p.rip >= (uintptr_t)b->fn &&
		      p.rip <= (uintptr_t)b->end, "PMI at rip 0x%llx outside "
		      "the benchmark", (unsigned long long)p.rip);
}

TEST(p6_int_pmi, "p6/int-pmi",
     "INT: the overflow raises one PMI through the local APIC at the "
     "overflowing instruction; LVTPC masked after delivery on the "
     "Pentium M only", test_int, 0);

/* Both counters wrap with INT clear: no PMI. */
static void test_no_int(struct tcase *t)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_P6);
	struct job j;

	if (!d || !apic_ready(t))
		return;
	setup(&j, t, 0);
	if (!run_armed(t, &j))
		return;
	p6_check(t, d, &j.r, 0);
	p6_check(t, d, &j.r, 1);
	check(t, j.r.got[0] < 1000 && j.r.got[1] < 100000, "counters "
	      "0x%llx 0x%llx did not wrap", (unsigned long long)j.r.got[0],
	      (unsigned long long)j.r.got[1]);
	check(t, pmi_count() == 0 && j.seen.calls == 0, "%llu PMIs with INT "
	      "clear", (unsigned long long)pmi_count());
}

TEST(p6_no_int, "p6/int-clear-no-pmi",
     "a counter overflowing with INT clear raises no PMI", test_no_int, 0);
