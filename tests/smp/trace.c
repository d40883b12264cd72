/* smp/trace-on-sibling, smp/oracle-on-sibling: the single-step tracer on
 * the sibling logical processor (arch/x86/smp.h), at CPL 0.  Every
 * benchmark of bench/ runs there and on the BSP with its larger
 * parameter:
 *
 *   trace-on-sibling   bench_exec() with a sink, every step in order (the
 *                      path a PMU model is fed by): the oracle's counts,
 *                      the number of events and a digest of their
 *                      addresses, outcomes and accesses are the same on
 *                      both processors; in the sink smp_on_sibling() is
 *                      1 for every event on the sibling, 0 on the BSP;
 *   oracle-on-sibling  oracle_run() (steps summed in bulk): the counts
 *                      are the BSP's and the benchmark's formulas'.
 *
 * The data buffers are prepared on the BSP first: the sibling may not
 * call the firmware's allocator. */
#include "../../harness/smp_run.h"
#include "../../harness/test.h"
#include "../../harness/need.h"
#include "../../bench/oracle.h"
#include "../../arch/x86/smp.h"
#include "../../lib/string.h"

#define MAX_BENCH 64
#define WHY 240
/* FNV-1a, 64-bit: a digest of the event stream. */
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

struct sink_ctx {
	uint64_t events, on_sibling, digest;
	uint64_t stack_lo, stack_hi;	/* accesses here are the stack's */
};

struct result {
	int ret;
	unsigned vector;
	struct oracle_counts oc;
	struct sink_ctx s;
};

static struct {
	const struct bench *b[MAX_BENCH];
	unsigned n;
	int aggregated;
	struct result bsp[MAX_BENCH], sib[MAX_BENCH];
} run;

static void mix(uint64_t *h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		*h ^= (v >> (8 * i)) & 0xff;
		*h *= FNV_PRIME;
	}
}

/* Stack addresses differ between the processors (each has its own
 * stack); everything else of an event is the benchmark's. */
static void digest_sink(const struct insn_event *e, void *ctx)
{
	struct sink_ctx *s = ctx;

	s->events++;
	s->on_sibling += smp_on_sibling() != 0;
	mix(&s->digest, e->rip);
	mix(&s->digest, e->next_rip);
	mix(&s->digest, (uint64_t)e->flags << 32 | e->cpl << 8 | e->retired);
	mix(&s->digest, (uint64_t)e->iterations << 32 | e->more);
	mix(&s->digest, (uint64_t)e->loads << 32 | e->stores);
	for (unsigned i = 0; i < e->n_access; i++) {
		const struct mem_access *a = &e->access[i];
		int stack = e->after && a->addr + 4096 > e->after->gpr[4] &&
			    a->addr < e->after->gpr[4] + 4096;

		mix(&s->digest, stack ? 0 : a->addr);
		mix(&s->digest, (uint64_t)a->size << 8 | a->store);
	}
}

static void run_one(const struct bench *b, struct result *r)
{
	struct fault f = { 0 };

	memset(r, 0, sizeof(*r));
	r->s.digest = FNV_OFFSET;
	if (run.aggregated)
		r->ret = oracle_run(b, b->params[1], 0, &r->oc, &f);
	else
		r->ret = bench_exec(b, b->params[1], 0, &r->oc, digest_sink,
				    &r->s, &f);
	r->vector = r->ret > 0 ? f.vector : 0;
}

static void run_all(void *arg)
{
	struct result *out = arg;

	for (unsigned i = 0; i < run.n; i++)
		run_one(run.b[i], &out[i]);
}

/* Every benchmark with a data buffer, prepared here on the BSP (one that
 * cannot have its buffer is left out and the test ends as SKIP). */
static int collect(struct tcase *t)
{
	run.n = 0;
	if (!check(t, &__benches_start[0] < &__benches_end[0],
		   "no benchmarks"))
		return 0;
	for (const struct bench *b = __benches_start; b < __benches_end;
	     b++) {
		if (!check(t, run.n < MAX_BENCH, "more than %d benchmarks",
			   MAX_BENCH))
			return 0;
		if (need_bench_data(t, b))
			run.b[run.n++] = b;
	}
	return run.n > 0;	/* none: a SKIP with the shortfall */
}

static int run_both(struct tcase *t, int aggregated)
{
	char why[WHY];

	if (!sibling_ready(t) || !collect(t))
		return 0;
	run.aggregated = aggregated;
	run_all(run.bsp);
	return check(t, smp_sibling_run(run_all, run.sib, why,
					sizeof(why)) == 0,
		     "smp_sibling_run: %s", why);
}

static void compare_counts(struct tcase *t, const struct bench *b,
			   const struct result *p, const struct result *s)
{
	for (int c = 0; c < SEM_NR; c++)
		check(t, p->oc.c[0][c] == s->oc.c[0][c] &&
		      p->oc.steps_with[0][c] == s->oc.steps_with[0][c],
		      "%s %s: BSP %llu (%llu steps), sibling %llu (%llu "
		      "steps)", b->name, sem_name((enum sem)c),
		      (unsigned long long)p->oc.c[0][c],
		      (unsigned long long)p->oc.steps_with[0][c],
		      (unsigned long long)s->oc.c[0][c],
		      (unsigned long long)s->oc.steps_with[0][c]);
	check(t, p->oc.unclassified[0] == s->oc.unclassified[0] &&
	      p->oc.outside == s->oc.outside, "%s: unclassified %llu/%llu, "
	      "outside %llu/%llu (BSP/sibling)", b->name,
	      (unsigned long long)p->oc.unclassified[0],
	      (unsigned long long)s->oc.unclassified[0],
	      (unsigned long long)p->oc.outside,
	      (unsigned long long)s->oc.outside);
}

static int both_ran(struct tcase *t, const struct bench *b,
		    const struct result *p, const struct result *s)
{
	return check(t, p->ret == 0 && s->ret == 0, "%s: BSP run %d (vector "
		     "%u), sibling run %d (vector %u)", b->name, p->ret,
		     p->vector, s->ret, s->vector);
}

static void test_trace(struct tcase *t)
{
	uint64_t events = 0;

	if (!run_both(t, 0))
		return;
	for (unsigned i = 0; i < run.n; i++) {
		const struct bench *b = run.b[i];
		const struct result *p = &run.bsp[i], *s = &run.sib[i];

		if (!both_ran(t, b, p, s))
			continue;
		compare_counts(t, b, p, s);
		events += s->s.events;
		check(t, p->s.events == s->s.events && p->s.events > 0 &&
		      p->s.digest == s->s.digest, "%s: %llu events (digest "
		      "%llx) on the BSP, %llu (%llx) on the sibling", b->name,
		      (unsigned long long)p->s.events,
		      (unsigned long long)p->s.digest,
		      (unsigned long long)s->s.events,
		      (unsigned long long)s->s.digest);
		check(t, s->s.on_sibling == s->s.events &&
		      p->s.on_sibling == 0, "%s: smp_on_sibling() in the sink "
		      "%llu of %llu times on the sibling, %llu on the BSP",
		      b->name, (unsigned long long)s->s.on_sibling,
		      (unsigned long long)s->s.events,
		      (unsigned long long)p->s.on_sibling);
	}
	value(t, "benchmarks", "%u", run.n);
	value(t, "sibling_events", "%llu", (unsigned long long)events);
}

TEST(smp_trace, "smp/trace-on-sibling",
     "bench_exec traced on the sibling sees the BSP's steps; the sink "
     "knows it is on the sibling", test_trace, 0);

static void test_oracle(struct tcase *t)
{
	uint64_t insns = 0;

	if (!run_both(t, 1))
		return;
	for (unsigned i = 0; i < run.n; i++) {
		const struct bench *b = run.b[i];
		const struct result *s = &run.sib[i];
		uint64_t n = b->params[1];

		if (!both_ran(t, b, &run.bsp[i], s))
			continue;
		compare_counts(t, b, &run.bsp[i], s);
		insns += s->oc.c[0][SEM_INSTRUCTIONS];
		for (int c = 0; c < SEM_ARCH_NR; c++) {
			int64_t want = bench_expect(b, (enum sem)c, n);

			check(t, want == BENCH_NOT_ARCH ||
			      s->oc.c[0][c] == (uint64_t)want, "%s n=%llu %s: "
			      "sibling %llu, formula %lld", b->name,
			      (unsigned long long)n, sem_name((enum sem)c),
			      (unsigned long long)s->oc.c[0][c],
			      (long long)want);
		}
	}
	value(t, "benchmarks", "%u", run.n);
	value(t, "sibling_instructions", "%llu", (unsigned long long)insns);
}

TEST(smp_oracle, "smp/oracle-on-sibling",
     "oracle_run on the sibling counts what the BSP and the formulas do",
     test_oracle, 0);
