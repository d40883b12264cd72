/* p5_run: programming, running and checking for the P5 tests. */
#include "p5_run.h"
#include "../../pmu/backend.h"
#include "../../pmu/detect.h"
#include "../../lib/fmt.h"

/*
 * Hardware tolerance: when a counter also counts CPL 0, the driver's own
 * instructions between enabling and disabling the counter (WRMSR paths,
 * the call into the benchmark) are counted too; P5_HW_SLACK bounds them.
 * Clocks on hardware are real cycles: a Pentium retires at most two
 * instructions per clock (two pipes, SDM Vol. 3B §18.23), so clocks are at
 * least half the instructions.
 */
#define P5_HW_SLACK 512

int p5_ready(struct tcase *t)
{
	const struct backend *be = backend_current();

	if (cpu_info()->pmu != PMU_P5) {
		skip(t, "kind=%s: this CPU has no P5 PMU",
		     pmu_kind_name(cpu_info()->pmu));
		return 0;
	}
	if (be->id == BE_NONE) {
		skip(t, "no backend for the P5 PMU");
		return 0;
	}
	return 1;
}

/* "<label>_<name>": keys stay unique when a test runs several times. */
static const char *key(const struct p5_run *r, const char *name)
{
	static char buf[48];

	if (r->label)
		fmt_snprintf(buf, sizeof(buf), "%s_%s", r->label, name);
	else
		fmt_snprintf(buf, sizeof(buf), "cpl%d_%s", r->cpl, name);
	return buf;
}

static uint64_t source_count(const struct p5_event *ev,
			     const struct oracle_counts *oc, int cpl)
{
	const uint64_t *c = oc->c[cpl];

	switch (ev->src) {
	case P5_SRC_INSTRUCTIONS: return c[BC_INSTRUCTIONS];
	case P5_SRC_LOADS: return c[BC_LOADS];
	case P5_SRC_STORES: return c[BC_STORES];
	case P5_SRC_LOADS_STORES: return c[BC_LOADS] + c[BC_STORES];
	case P5_SRC_BRANCHES: return c[BC_BRANCHES] + c[BC_FAR];
	case P5_SRC_TAKEN: return c[BC_TAKEN] + c[BC_FAR];
	case P5_SRC_RETURNS: return c[BC_RETURNS];
	case P5_SRC_SEGLOADS: return c[BC_SEGLOADS];
	default: return 0;
	}
}

/*
 * The counter-control codes as seed 001 lists them, written out here
 * rather than taken from the driver, so a wrong rule there cannot also
 * make the expectation wrong: { counts at CPL 0-2, counts at CPL 3,
 * counts clocks }.
 */
static const struct {
	uint8_t os, usr, clocks;
} seed_cc[8] = {
	[0] = { 0, 0, 0 },	/* 000 count nothing */
	[1] = { 1, 0, 0 },	/* 001 event, CPL 0, 1, 2 */
	[2] = { 0, 1, 0 },	/* 010 event, CPL 3 */
	[3] = { 1, 1, 0 },	/* 011 event, any CPL */
	[4] = { 0, 0, 0 },	/* 100 count nothing */
	[5] = { 1, 0, 1 },	/* 101 clocks, CPL 0, 1, 2 */
	[6] = { 0, 1, 1 },	/* 110 clocks, CPL 3 */
	[7] = { 1, 1, 1 },	/* 111 clocks, any CPL */
};

static int seed_counts_at(unsigned cc, int cpl)
{
	return cpl == 3 ? seed_cc[cc & 7].usr : seed_cc[cc & 7].os;
}

uint64_t p5_expected(const struct p5_run *r, unsigned ctr, int *exact)
{
	const struct p5_half *h = &r->h[ctr];
	const struct p5_event *ev;
	uint64_t n = 0;

	*exact = 1;
	if (seed_counts_at(h->cc, r->cpl)) {
		if (seed_cc[h->cc & 7].clocks) {
			n = r->oc.steps[r->cpl];	/* the model clock */
			*exact = backend_current()->id == BE_MODEL;
		} else {
			ev = p5_event_for(h->es, ctr, p5_has_rdpmc());
			n = ev ? source_count(ev, &r->oc, r->cpl) : 0;
			*exact = ev && ev->src != P5_SRC_NONE;
		}
	}
	return (r->preset[ctr] + n) & P5_CTR_MASK;
}

/* The CESR the seed's Figure 18-61 gives for two halves, written out
 * independently of the driver's cesr_set_half(): ES0 bits 0-5, CC0 6-8,
 * PC0 9, ES1 16-21, CC1 22-24, PC1 25. */
static uint32_t seed_cesr(const struct p5_half *h0, const struct p5_half *h1)
{
	return h0->es | h0->cc << 6 | h0->pc << 9 |
	       h1->es << 16 | h1->cc << 22 | h1->pc << 25;
}

static int program(struct tcase *t, struct p5_run *r)
{
	struct p5_err e;
	struct p5_half off;

	for (unsigned c = 0; c < P5_COUNTERS; c++) {
		off = r->h[c];
		off.cc = P5_CC_NONE;
		if (!check(t, p5_program(c, &off, &e) == 0, "stop CTR%u: %s",
			   c, e.msg) ||
		    !check(t, p5_write(c, r->preset[c], &e) == 0, "preset "
			   "CTR%u: %s", c, e.msg))
			return 0;
	}
	for (unsigned c = 0; c < P5_COUNTERS; c++)
		if (!check(t, p5_program(c, &r->h[c], &e) == 0, "program "
			   "CTR%u: %s", c, e.msg))
			return 0;
	if (!check(t, p5_read_cesr(&r->cesr, &e) == 0, "%s", e.msg))
		return 0;
	return check(t, r->cesr == seed_cesr(&r->h[0], &r->h[1]),
		     "CESR reads 0x%08x, the seed's layout gives 0x%08x",
		     r->cesr, seed_cesr(&r->h[0], &r->h[1]));
}

static int run_bench(struct tcase *t, struct p5_run *r, const struct bench *b)
{
	const struct backend *be = backend_current();
	struct fault f;
	int ret;

	if (be->sink)	/* model: counts come from this very trace */
		return check(t, oracle_run(b, r->n, r->cpl, &r->oc, be->sink,
					   0, &f) == 0, "traced run of %s "
			     "failed (vector %u)", b->name, f.vector);
	ret = oracle_run(b, r->n, r->cpl, &r->oc, 0, 0, &f);
	if (!check(t, ret == 0, "oracle run of %s failed", b->name))
		return 0;
	if (!program(t, r))	/* counters start after the oracle's run */
		return 0;
	return check(t, bench_exec(b, r->n, r->cpl, 0, 0, &f) == 0,
		     "run of %s faulted", b->name);
}

int p5_run(struct tcase *t, struct p5_run *r)
{
	const struct bench *b = bench_find(r->bench);
	struct p5_err e;

	if (!check(t, b != NULL, "no benchmark %s", r->bench) ||
	    !check(t, p5_init(&e) == 0, "init: %s", e.msg))
		return 0;
	if (backend_current()->sink && !program(t, r))
		return 0;
	if (!run_bench(t, r, b))
		return 0;
	for (unsigned c = 0; c < P5_COUNTERS; c++) {
		struct p5_half off = r->h[c];

		off.cc = P5_CC_NONE;
		if (!check(t, p5_program(c, &off, &e) == 0, "stop CTR%u: %s",
			   c, e.msg) ||
		    !check(t, p5_read(c, &r->ctr[c], &e) == 0, "read CTR%u: "
			   "%s", c, e.msg))
			return 0;
	}
	value(t, key(r, "run"), "%s n=%llu cpl=%d backend=%s", r->bench,
	      (unsigned long long)r->n, r->cpl, backend_current()->name);
	value(t, key(r, "cesr"), "0x%08x", r->cesr);
	return 1;
}

void p5_check_counter(struct tcase *t, const struct p5_run *r, unsigned ctr)
{
	int exact;
	uint64_t want = p5_expected(r, ctr, &exact), got = r->ctr[ctr];
	const struct p5_half *h = &r->h[ctr];
	char name[24];
	int ok;

	fmt_snprintf(name, sizeof(name), "ctr%u", ctr);
	value(t, key(r, name), "%llu", (unsigned long long)got);
	fmt_snprintf(name, sizeof(name), "ctr%u_oracle", ctr);
	value(t, key(r, name), "%llu%s", (unsigned long long)want,
	      exact ? "" : " (a bound on this backend)");
	if (exact && (backend_current()->id == BE_MODEL ||
		      !seed_counts_at(h->cc, 0))) {
		ok = got == want;
	} else if (seed_cc[h->cc & 7].clocks) {
		uint64_t insn = r->oc.c[r->cpl][BC_INSTRUCTIONS];

		ok = ((got - r->preset[ctr]) & P5_CTR_MASK) >= insn / 2;
		value(t, key(r, "tolerance"), "clocks >= instructions/2 "
		      "(two pipes)");
	} else {
		ok = got >= want && got - want <= P5_HW_SLACK;
		value(t, key(r, "tolerance"), "+%u for the driver's CPL 0 code",
		      P5_HW_SLACK);
	}
	check(t, ok, "CTR%u (CC=%u%u%u ES=0x%02x): read %llu, oracle %llu",
	      ctr, h->cc >> 2 & 1, h->cc >> 1 & 1, h->cc & 1, h->es,
	      (unsigned long long)got, (unsigned long long)want);
}
