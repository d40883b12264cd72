/* apic/pmi-during-trace-*: a PMI that a PMU model raises from the
 * single-step tracer's sink - inside the #DB hook, one call per traced
 * instruction - belongs to the traced code at its next instruction
 * boundary: the recorded RIP is the next_rip of the event that raised it
 * (for a REP iteration that is not the last, the REP instruction again,
 * SDM Vol. 3B §17.3.1.4), at the traced code's CPL.  It is counted once,
 * and the tracer sees exactly the steps of a run without the PMI: the
 * NMI gate clears TF and its IRET restores it (SDM Vol. 3A §6.12.1.2).
 * At CPL 3 the sink runs on ring 3's page-table clone, which must keep
 * the APIC page as the firmware mapped it (with paging on: the i386
 * build runs without). */
#include "../../harness/pmi_run.h"
#include "../../harness/need.h"
#include "../../bench/oracle.h"
#include "../../arch/x86/apic.h"
#include "../../pmu/model.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/paging.h"
#include "../../arch/x86/ring3.h"
#include "../../arch/x86/trace.h"
#include "../../lib/fmt.h"

enum when { NEVER, FIRST, MIDDLE, LAST, REP_ITERATION };

struct run {
	const struct bench *b;
	uint64_t n;
	int cpl;
	enum when when;
	uint64_t k;			/* FIRST..LAST: fire at event k */
	int ret;			/* trace_run's */
	struct fault f;
	uint64_t events, steps, retired, outside;
	uint64_t fired_at;		/* event number; 0: not fired */
	int delivered;			/* model_raise_pmi's return */
	uint64_t rip, next_rip;		/* of that event */
	uint8_t ev_cpl;
	uint64_t pmis_in_sink;		/* when the sink returned */
	uint64_t cr3;
	int paging;			/* CR0.PG: off in the i386 build */
	int mapped;
	struct paging_leaf leaf;
};

static int fire_now(const struct run *r, const struct insn_event *e)
{
	if (r->fired_at || r->when == NEVER)
		return 0;
	if (r->when == REP_ITERATION)
		return (e->flags & DEC_REP_STRING) && !e->retired;
	return r->events == r->k;
}

static void sink(const struct insn_event *e, void *ctx)
{
	struct run *r = ctx;

	r->events++;
	r->steps += 1 + (uint64_t)e->more;
	r->retired += e->retired;
	if (!fire_now(r, e))
		return;
	r->fired_at = r->events;
	r->rip = e->rip;
	r->next_rip = e->next_rip;
	r->ev_cpl = e->cpl;
	r->cr3 = read_cr3();
	r->paging = !!(read_cr0() & X86_CR0_PG);
	r->mapped = apic_mode() != APIC_XAPIC || !r->paging ||
		    !paging_lookup(r->cr3, apic_base(), &r->leaf);
	r->delivered = model_raise_pmi(1);	/* as a model does */
	r->pmis_in_sink = pmi_count();
}

static void traced(void *arg)
{
	struct run *r = arg;
	struct trace_range range = { (const void *)r->b->fn, r->b->end };

	r->ret = trace_run(r->b->fn, r->n, bench_data(r->b), r->cpl, range,
			   sink, r, &r->f);
	r->outside = trace_outside_steps();
}

/* Runs r armed for NMI; *p gets the last PMI.  Returns the PMI count, or
 * -1 when the run could not be made (a check failed). */
static int64_t run_armed(struct tcase *t, struct run *r, struct pmi_record *p)
{
	struct fault f;
	int rc = pmi_run(PMI_PATH_NMI, traced, r, &f);

	if (!check(t, rc == 0, "pmi_run returned %d (vector %u)", rc,
		   rc == 1 ? f.vector : 0) ||
	    !check(t, r->ret == 0, "trace_run returned %d (vector %u)",
		   r->ret, r->f.vector))
		return -1;
	if (!pmi_last(p))
		*p = (struct pmi_record){ 0 };
	return (int64_t)pmi_count();
}

static const char *const when_name[] = {
	"never", "first", "middle", "last", "rep-iteration",
};

static void log_run(struct tcase *t, const struct run *r,
		    const struct pmi_record *p)
{
	char k[40];

	fmt_snprintf(k, sizeof(k), "%s_event", when_name[r->when]);
	value(t, k, "%llu of %llu: rip 0x%llx next_rip 0x%llx",
	      (unsigned long long)r->fired_at, (unsigned long long)r->events,
	      (unsigned long long)r->rip, (unsigned long long)r->next_rip);
	fmt_snprintf(k, sizeof(k), "%s_pmis_in_sink", when_name[r->when]);
	value(t, k, "%llu", (unsigned long long)r->pmis_in_sink);
	pmi_log(t, when_name[r->when], p);
}

static void check_run(struct tcase *t, const struct run *base,
		      const struct run *r, const struct pmi_record *p,
		      int64_t count)
{
	const char *w = when_name[r->when];

	log_run(t, r, p);
	check(t, r->fired_at && r->delivered == 1, "%s: fired at event %llu, "
	      "deliver returned %d", w, (unsigned long long)r->fired_at,
	      r->delivered);
	check(t, count == 1, "%s: %lld PMIs, expected 1", w, (long long)count);
	check(t, p->rip == r->next_rip && p->cpl == r->ev_cpl, "%s: PMI at "
	      "rip 0x%llx cpl %u, expected next_rip 0x%llx cpl %u", w,
	      (unsigned long long)p->rip, p->cpl,
	      (unsigned long long)r->next_rip, r->ev_cpl);
	check(t, r->events == base->events && r->steps == base->steps &&
	      r->retired == base->retired && r->outside == base->outside,
	      "%s: events/steps/retired/outside %llu/%llu/%llu/%llu, without "
	      "the PMI %llu/%llu/%llu/%llu", w,
	      (unsigned long long)r->events, (unsigned long long)r->steps,
	      (unsigned long long)r->retired, (unsigned long long)r->outside,
	      (unsigned long long)base->events, (unsigned long long)base->steps,
	      (unsigned long long)base->retired,
	      (unsigned long long)base->outside);
	check(t, r->mapped, "%s: APIC page not mapped under CR3 0x%llx", w,
	      (unsigned long long)r->cr3);
}

/* The baseline: the same run, armed, never firing. */
static int baseline(struct tcase *t, struct run *base)
{
	struct pmi_record p;
	int64_t count = run_armed(t, base, &p);

	if (count < 0)
		return 0;
	value(t, "benchmark", "%s n=%llu cpl=%d", base->b->name,
	      (unsigned long long)base->n, base->cpl);
	value(t, "steps_without_pmi", "%llu", (unsigned long long)base->steps);
	return check(t, count == 0, "%lld PMIs in a run that raised none",
		     (long long)count) &&
	       check(t, base->events > 2, "only %llu events",
		     (unsigned long long)base->events);
}

static void fire_in(struct tcase *t, const struct run *base, enum when w,
		    struct run *out)
{
	struct pmi_record p;
	int64_t count;

	*out = *base;
	out->when = w;
	out->k = w == FIRST ? 1 : w == LAST ? base->events :
		 base->events / 2;
	out->events = out->steps = out->retired = out->outside = 0;
	count = run_armed(t, out, &p);
	if (count >= 0)
		check_run(t, base, out, &p, count);
}

static int setup(struct tcase *t, struct run *base, const char *bench,
		 uint64_t n, int cpl)
{
	*base = (struct run){ .b = bench_find(bench), .n = n, .cpl = cpl };
	if (!apic_ready(t))
		return 0;
	if (cpl == 3 && !check(t, ring3_ready(), "ring 3 is not set up"))
		return 0;
	return check(t, base->b != NULL, "no %s benchmark", bench) &&
	       need_bench_data(t, base->b) && baseline(t, base);
}

/* Fires first, in the middle and last; *middle gets the middle run. */
static int test_at(struct tcase *t, int cpl, struct run *middle)
{
	struct run base, r;

	if (!setup(t, &base, "counted-loop", 10, cpl))
		return 0;
	apic_log(t);
	fire_in(t, &base, FIRST, &r);
	fire_in(t, &base, MIDDLE, middle);
	fire_in(t, &base, LAST, &r);
	return 1;
}

static void test_cpl0(struct tcase *t)
{
	struct run middle;

	test_at(t, 0, &middle);
}

/* The sink runs under ring 3's page tables: the APIC page must be there,
 * with the firmware's memory-type bits, for supervisor access only. */
static void test_cpl3(struct tcase *t)
{
	struct run r;
	struct paging_leaf fw;

	if (!test_at(t, 3, &r) || apic_mode() != APIC_XAPIC || !r.mapped ||
	    !r.paging)
		return;
	value(t, "cr3_in_sink", "0x%llx", (unsigned long long)r.cr3);
	value(t, "cr3_firmware", "0x%llx", (unsigned long long)read_cr3());
	if (!check(t, !paging_lookup(read_cr3(), apic_base(), &fw),
		   "APIC page not mapped in the firmware's tables"))
		return;
	check(t, r.leaf.pat_index == fw.pat_index && !r.leaf.user,
	      "APIC page under ring 3's tables: PAT index %u user %d; "
	      "firmware's: PAT index %u", r.leaf.pat_index, r.leaf.user,
	      fw.pat_index);
}

static void test_rep(struct tcase *t)
{
	struct run base, r;

	if (!setup(t, &base, "rep-movsb", 16, 0))
		return;
	fire_in(t, &base, REP_ITERATION, &r);
	check(t, r.next_rip == r.rip, "the REP iteration's next_rip 0x%llx "
	      "is not its own rip 0x%llx", (unsigned long long)r.next_rip,
	      (unsigned long long)r.rip);
}

TEST(apic_trace_cpl0, "apic/pmi-during-trace-cpl0",
     "a PMI raised at the k-th traced step of a CPL 0 benchmark lands at "
     "its next_rip, once, and the tracer counts every step", test_cpl0, 0);
TEST(apic_trace_cpl3, "apic/pmi-during-trace-cpl3",
     "likewise at CPL 3, with the APIC page reachable under ring 3's "
     "page tables", test_cpl3, 0);
TEST(apic_trace_rep, "apic/pmi-during-trace-rep",
     "a PMI raised on a REP MOVSB iteration lands at the REP instruction",
     test_rep, 0);
