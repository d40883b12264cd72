/* netburst/pmi-*: the CCCR's OVF_PMI_T0 flag (bit 26; without
 * Hyper-Threading OVF_PMI, the same bit) - "When set, causes a
 * performance monitor interrupt (PMI) to be sent to logical processor 0
 * when the counter overflows occurs" - and its timing: "The PMI is
 * generated on the next event count after the counter has overflowed"
 * (SDM Vol. 3B §18.15.3 and §18.16.2, order no. 253669-060US).  The PMI
 * goes through the local APIC's LVT performance-counter entry, armed for
 * an NMI (harness/pmi_run.h); NetBurst masks the entry on delivery.
 *
 * A counter preset 2^40 - K wraps to 0 with its K-th event (OVF, bit 31,
 * sticky, is set then); the PMI comes with its (K+1)-th: under the model
 * at the boundary after the step of the (K+1)-th event, which a trace of
 * the same benchmark finds.  On hardware the PMI skids: somewhere in the
 * benchmark at CPL 3.
 *   pmi-ovf-t0     counter 12 counts CPL 3 instructions (instr_retired
 *                  NBOGUSNTAG, T0_USR) with OVF_PMI_T0: one PMI, after
 *                  instruction K+1; counter 14, the same event on
 *                  CRU_ESCR1 without OVF_PMI, wraps first and raises
 *                  nothing.  In the handler: counter 12's OVF set, the
 *                  counter at 1 (the (K+1)-th count), LVTPC masked.
 *   pmi-skid       counter 13 counts CPL 3 branches (branch_retired
 *                  MMNP|MMTP) of branch-alternating: the PMI waits for
 *                  the (K+1)-th branch, instructions after the K-th; not
 *                  at the overflow, nor at the next instruction.
 *   pmi-none-without-flag  both overflow without OVF_PMI bits: OVF set,
 *                  no PMI.
 *   pmi-level-unmask  the request is a level while OVF is set (Linux
 *                  p4.c, observed on Pentium 4s: "the NMI line will
 *                  continue to be asserted while the OVF bit is set.
 *                  This causes a second NMI to generate if the LVTPC is
 *                  unmasked before the OVF bit is cleared"; the SDM
 *                  leaves level or edge unsaid, docs/netburst.md): the
 *                  first handler call unmasks the LVTPC with OVF still
 *                  set - a second PMI follows; the second call clears
 *                  OVF first, then unmasks - no third. */
#include "nb_test.h"
#include "../../harness/pmi_run.h"
#include "../../pmu/backend.h"
#include "../../harness/need.h"
#include "../../arch/x86/apic.h"

#define PMI_BENCH "counted-loop"
/* Consecutive branches of branch-alternating end at different places
 * (JZ to 2f or on to the ADD, JNC back to 1b): the boundary tells the
 * K-th from the (K+1)-th. */
#define SKID_BENCH "branch-alternating"
#define PMI_BENCH_N 40
#define K 12
#define K_EARLY 3	/* counter 14 wraps at its 3rd instruction */

struct seen {
	unsigned calls;
	unsigned ctr;			/* the counter with OVF_PMI */
	uint32_t lvtpc;
	uint64_t cccr, count;		/* its CCCR and count in the handler */
	int read_ok;
};

struct job {
	struct tcase *t;
	struct pmu_run r;
	int ran;
	struct seen seen;
};

static void callback(const struct pmi_record *rec, void *ctx)
{
	struct seen *s = ctx;

	(void)rec;
	if (s->calls++)
		return;
	s->lvtpc = apic_lvtpc();
	s->read_ok = be_rdmsr(NBT_MSR_CCCR(s->ctr), &s->cccr) == 0 &&
		     be_rdmsr(NBT_MSR_COUNTER(s->ctr), &s->count) == 0;
}

static void job_fn(void *arg)
{
	struct job *j = arg;

	pmi_set_callback(callback, &j->seen);
	j->ran = pmu_run(j->t, &j->r);
}

/* Where the n-th and (n+1)-th counted CPL 3 events end. */
struct nth {
	const char *bench;
	int branches;			/* count branches, else instructions */
	uint64_t n, seen;
	uint64_t at_n, at_next;		/* the boundaries after them */
	uint64_t insns_between;		/* instructions after event n, up
					 * to event n+1 inclusive */
};

static void nth_sink(const struct insn_event *e, void *ctx)
{
	struct nth *k = ctx;
	int counted = e->cpl == 3 && (k->branches ?
				      sem_once(SEM_BRANCHES, e) != 0 :
				      sem_once(SEM_INSTRUCTIONS, e) != 0);

	if (k->seen == k->n && !k->at_next && e->retired)
		k->insns_between++;
	if (!counted)
		return;
	if (++k->seen == k->n)
		k->at_n = e->next_rip;
	else if (k->seen == k->n + 1)
		k->at_next = e->next_rip;
}

static int boundaries(struct tcase *t, struct nth *k)
{
	const struct bench *b = bench_find(k->bench);
	struct fault f;

	if (!check(t, b != NULL, "no benchmark %s", k->bench) ||
	    !need_bench_data(t, b) ||
	    !check(t, bench_exec(b, PMI_BENCH_N, 3, NULL, nth_sink, k,
				 &f) == 0, "trace of %s failed", k->bench) ||
	    !check(t, k->at_next != 0, "%s has only %llu events", k->bench,
		   (unsigned long long)k->seen))
		return 0;
	value(t, "overflow_boundary", "0x%llx (after event %llu)",
	      (unsigned long long)k->at_n, (unsigned long long)k->n);
	value(t, "pmi_boundary", "0x%llx (after event %llu, %llu "
	      "instructions later)", (unsigned long long)k->at_next,
	      (unsigned long long)k->n + 1,
	      (unsigned long long)k->insns_between);
	return 1;
}

/* Counter ctr counts event/emask on the ESCR that sel names, T0_USR,
 * preset 2^40 - k, with OVF_PMI_T0 when pmi. */
static void arm(struct pmu_run *r, unsigned ctr, unsigned event,
		unsigned emask, unsigned sel, uint64_t k, int pmi)
{
	r->idle &= ~(1u << ctr);
	r->cfg[ctr].sel = nbt_escr((struct nbt_escr){ .event = event,
						      .emask = emask,
						      .t0_usr = 1 });
	r->cfg[ctr].aux = nbt_cccr((struct nbt_cccr){ .escr_sel = sel,
						      .active = NBT_ANY,
						      .ovf_pmi_t0 = !!pmi });
	r->preset[ctr] = NBT_TOP - k;
}

static void setup(struct job *j, struct tcase *t, const char *bench)
{
	*j = (struct job){ .t = t };
	j->r = (struct pmu_run){ .bench = bench, .n = PMI_BENCH_N,
				 .cpl = 3, .n_ctrs = NBT_COUNTERS,
				 .idle = ~0u };
}

static int run_armed(struct tcase *t, struct job *j)
{
	return pmi_run_nmi_checked(t, job_fn, j) && j->ran;
}

/* Counter ctr after the run: wrapped past its preset by the oracle's
 * count of the event, OVF set (sticky). */
static void after_wrap(struct tcase *t, const struct job *j, unsigned ctr,
		       enum sem sem)
{
	/* T0_USR alone: "a CPL of 1, 2, or 3" (§18.16.1), no CPL 0 */
	uint64_t events = j->r.oc.c[3][sem];
	struct pmu_expect x = pmu_expect_counter(&j->r, ctr, events,
						 SEM_BIT(sem),
						 PMU_CPL(1) | PMU_CPL(2) |
						 PMU_CPL(3));
	uint64_t cccr = 0;

	nbt_check_count(t, NULL, ctr, j->r.preset[ctr], j->r.got[ctr], &x);
	nbt_log_model(t, NULL, &j->r, ctr);
	check(t, be_rdmsr(NBT_MSR_CCCR(ctr), &cccr) == 0 &&
	      (cccr & NBT_CCCR_OVF), "counter %u wrapped, its CCCR reads "
	      "0x%llx: OVF (bit 31) not set", ctr, (unsigned long long)cccr);
}

static void log_handler(struct tcase *t, const struct job *j)
{
	value(t, "handler_lvtpc", "0x%x", j->seen.lvtpc);
	value(t, "handler_cccr", "0x%llx", (unsigned long long)j->seen.cccr);
	value(t, "handler_count", "%llu", (unsigned long long)j->seen.count);
}

/* One PMI at the boundary after event K+1 (the model, and
 * backend=emulated: there the counter's first event is the ring-3
 * trampoline's CALL, so k counts K - pmu_ring3_lead() in the benchmark),
 * in the benchmark at CPL 3 (hardware); OVF set and the count at 1 in the
 * handler, LVTPC masked. */
static void check_pmi(struct tcase *t, const struct job *j,
		      const struct nth *k)
{
	const struct bench *b = bench_find(j->r.bench);
	struct pmi_record p = { 0 };

	(void)pmi_last(&p);
	pmi_log(t, NULL, &p);
	log_handler(t, j);
	check(t, pmi_count() == 1 && j->seen.calls == 1, "%llu PMIs, %u "
	      "handler calls; expected 1", (unsigned long long)pmi_count(),
	      j->seen.calls);
	check(t, j->seen.lvtpc & LVT_MASKED, "LVTPC 0x%x in the handler: not "
	      "masked on delivery", j->seen.lvtpc);
	check(t, j->seen.read_ok && (j->seen.cccr & NBT_CCCR_OVF), "CCCR "
	      "0x%llx in the handler: OVF not set", (unsigned long long)
	      j->seen.cccr);
	check(t, p.cpl == 3, "PMI at CPL %u, expected 3", p.cpl);
	if (!pmu_pmi_exact()) {	/* hardware, and noise: the PMI skids */
		check(t, p.rip >= (uintptr_t)b->fn && p.rip <= (uintptr_t)b->end,
		      "PMI at rip 0x%llx outside the benchmark",
		      (unsigned long long)p.rip);
		return;
	}
	check(t, p.rip == k->at_next, "PMI at rip 0x%llx, expected 0x%llx "
	      "(after event %u, the next count after the overflow)%s",
	      (unsigned long long)p.rip, (unsigned long long)k->at_next,
	      K + 1, p.rip == k->at_n ? ": it came with the overflowing "
	      "count itself" : "");
	check(t, j->seen.count == 1, "counter %u read %llu in the handler: "
	      "expected 1 (wrapped at event %u, the PMI with event %u)",
	      j->seen.ctr, (unsigned long long)j->seen.count, K, K + 1);
}

static void test_ovf_t0(struct tcase *t)
{
	const struct pmu_driver *d = nb_ready(t);
	struct nth k = { .bench = PMI_BENCH,
			 .n = K - pmu_ring3_lead(SEM_INSTRUCTIONS) };
	static struct job j;

	if (!d || !apic_ready(t) || !boundaries(t, &k))
		return;
	setup(&j, t, PMI_BENCH);
	arm(&j.r, 12, NBT_INSTR_RETIRED, NBT_NBOGUSNTAG,
	    NBT_INSTR_RETIRED_SEL, K, 1);
	arm(&j.r, 14, NBT_INSTR_RETIRED, NBT_NBOGUSNTAG,
	    NBT_INSTR_RETIRED_SEL, K_EARLY, 0);
	j.seen.ctr = 12;
	if (!run_armed(t, &j))
		return;
	check_pmi(t, &j, &k);
	after_wrap(t, &j, 12, SEM_INSTRUCTIONS);
	after_wrap(t, &j, 14, SEM_INSTRUCTIONS);
}

TEST(nb_pmi_ovf_t0, "netburst/pmi-ovf-t0",
     "OVF_PMI_T0: the overflow raises one PMI through the LVTPC, on the "
     "next event count after it; a counter without it raises none",
     test_ovf_t0, 0);

static void test_skid(struct tcase *t)
{
	const struct pmu_driver *d = nb_ready(t);
	struct nth k = { .bench = SKID_BENCH,
			 .n = K - pmu_ring3_lead(SEM_BRANCHES), .branches = 1 };
	static struct job j;

	if (!d || !apic_ready(t) || !boundaries(t, &k))
		return;
	check(t, k.at_n != k.at_next, "branches %u and %u of %s end at the "
	      "same place: the boundary cannot tell them apart", K, K + 1,
	      SKID_BENCH);
	setup(&j, t, SKID_BENCH);
	arm(&j.r, 13, NBT_BRANCH_RETIRED, NBT_MMNP | NBT_MMTP,
	    NBT_BRANCH_RETIRED_SEL, K, 1);
	j.seen.ctr = 13;
	if (!run_armed(t, &j))
		return;
	check(t, k.insns_between > 1, "the benchmark has %llu instructions "
	      "from branch %u to the next: no skid to see",
	      (unsigned long long)k.insns_between, K);
	check_pmi(t, &j, &k);
	after_wrap(t, &j, 13, SEM_BRANCHES);
}

TEST(nb_pmi_skid, "netburst/pmi-skid",
     "the PMI waits for the next event count after the overflow: the "
     "next branch, not the next instruction", test_skid, 0);

static void test_none(struct tcase *t)
{
	const struct pmu_driver *d = nb_ready(t);
	static struct job j;

	if (!d || !apic_ready(t))
		return;
	setup(&j, t, PMI_BENCH);
	arm(&j.r, 12, NBT_INSTR_RETIRED, NBT_NBOGUSNTAG,
	    NBT_INSTR_RETIRED_SEL, K, 0);
	arm(&j.r, 13, NBT_BRANCH_RETIRED, NBT_MMNP | NBT_MMTP,
	    NBT_BRANCH_RETIRED_SEL, K, 0);
	j.seen.ctr = 12;
	if (!run_armed(t, &j))
		return;
	after_wrap(t, &j, 12, SEM_INSTRUCTIONS);
	after_wrap(t, &j, 13, SEM_BRANCHES);
	check(t, pmi_count() == 0 && j.seen.calls == 0, "%llu PMIs without "
	      "OVF_PMI bits", (unsigned long long)pmi_count());
}

TEST(nb_pmi_none, "netburst/pmi-none-without-flag",
     "counters that overflow without OVF_PMI_T0/T1 raise no PMI",
     test_none, 0);

/* netburst/pmi-level-unmask: call 1 unmasks with OVF set, call 2 clears
 * OVF (a CCCR write with bit 31 clear, §18.15.3) and then unmasks. */
struct level_seen {
	unsigned calls;
	uint64_t cccr_second;		/* counter 12's CCCR in call 2 */
	int wrote;
};

static void level_callback(const struct pmi_record *rec, void *ctx)
{
	struct level_seen *s = ctx;
	uint64_t cccr = 0;

	(void)rec;
	s->calls++;
	if (s->calls == 2 && be_rdmsr(NBT_MSR_CCCR(12), &cccr) == 0) {
		s->cccr_second = cccr;
		s->wrote = be_wrmsr(NBT_MSR_CCCR(12),
				    cccr & ~NBT_CCCR_OVF) == 0;
	}
	if (s->calls <= 2)
		apic_set_lvtpc(APIC_DM_NMI << LVT_DM_SHIFT);
}

struct level_job {
	struct job j;
	struct level_seen seen;
};

static void level_job_fn(void *arg)
{
	struct level_job *l = arg;

	pmi_set_callback(level_callback, &l->seen);
	l->j.ran = pmu_run(l->j.t, &l->j.r);
}

static void test_level(struct tcase *t)
{
	const struct pmu_driver *d = nb_ready(t);
	static struct level_job l;

	if (!d || !apic_ready(t))
		return;
	setup(&l.j, t, PMI_BENCH);
	l.seen = (struct level_seen){ 0 };
	arm(&l.j.r, 12, NBT_INSTR_RETIRED, NBT_NBOGUSNTAG,
	    NBT_INSTR_RETIRED_SEL, K, 1);
	if (!check(t, pmi_run_nmi_checked(t, level_job_fn, &l) && l.j.ran,
		   "the run failed"))
		return;
	value(t, "handler_calls", "%u", l.seen.calls);
	value(t, "cccr_second_call", "0x%llx",
	      (unsigned long long)l.seen.cccr_second);
	check(t, pmi_count() == 2 && l.seen.calls == 2, "%llu PMIs, %u "
	      "handler calls; expected 2: one for the overflow, one when the "
	      "handler unmasked the LVTPC with OVF still set, none after OVF "
	      "was cleared first", (unsigned long long)pmi_count(),
	      l.seen.calls);
	check(t, l.seen.calls < 2 || (l.seen.cccr_second & NBT_CCCR_OVF),
	      "second PMI with OVF clear: CCCR 0x%llx",
	      (unsigned long long)l.seen.cccr_second);
	check(t, l.seen.calls < 2 || l.seen.wrote, "clearing OVF in the "
	      "handler failed");
}

TEST(nb_pmi_level, "netburst/pmi-level-unmask",
     "the PMI request stays asserted while OVF is set: unmasking the "
     "LVTPC before clearing OVF brings a second PMI, after it none",
     test_level, 0);
