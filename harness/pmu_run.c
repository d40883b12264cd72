/* pmu_run: programming, running and checking for PMU tests (pmu_run.h). */
#include "pmu_run.h"
#include "need.h"
#include "tcase.h"
#include "../pmu/backend.h"
#include "../pmu/generation.h"
#include "../pmu/inject.h"
#include "../pmu/window.h"
#include "../pmu/noise.h"
#include "../arch/x86/cpu.h"
#include "../arch/x86/pmi.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

/* Rules already noted in the running test's YAML (bit n: rule n). */
static uint32_t inject_noted;

/* The first hit of each injected rule in a test becomes one YAML value,
 * "injected_msr_0x11: WRMSR 0x11=0x16 raised injected #GP (vector 13)",
 * so every result under inject= names the register and the vector that
 * made it fail or skip, whatever the failing check's own words. */
static void note_injected(void *ctx, const struct inject_hit *h)
{
	const struct inject_table *it = backend_injected();
	unsigned n = (unsigned)(h->rule - it->rule);
	char k[32], text[160];

	if (inject_noted >> n & 1)
		return;
	inject_noted |= 1u << n;
	if (h->rule->target == INJECT_RDPMC)
		fmt_snprintf(k, sizeof(k), "injected_rdpmc");
	else
		fmt_snprintf(k, sizeof(k), "injected_msr_0x%x", h->rule->msr);
	inject_hit_text(h, text, sizeof(text));
	value(ctx, k, "%s", text);
}

/* Every PMU test starts here: the injection notes go to this test. */
static void observe_injection(struct tcase *t)
{
	struct inject_table *it = backend_injected();

	if (!it)
		return;
	inject_noted = 0;
	it->observe = note_injected;
	it->observe_ctx = t;
}

const struct pmu_driver *pmu_ready(struct tcase *t, enum pmu_kind k)
{
	const struct cpu_info *ci = cpu_info();
	const struct pmu_driver *d = pmu_driver_for(k);

	observe_injection(t);
	if (ci->pmu != k) {
		skip(t, "kind=%s: this CPU has no %s PMU",
		     pmu_kind_name(ci->pmu), pmu_kind_name(k));
		return NULL;
	}
	if (!d) {
		skip(t, "no driver for kind=%s yet", pmu_kind_name(k));
		return NULL;
	}
	if (backend_current()->id == BE_NONE) {
		skip(t, "no backend for the %s PMU", d->name);
		return NULL;
	}
	return d;
}

int pmu_on_model(void)
{
	return backend_current()->id == BE_MODEL;
}

uint64_t pmu_ring3_edges(void)
{
	return pmu_on_model() ? 0 : PMU_RING3_EDGES;
}

/* "<label>_<name>": keys stay unique when a test runs several times. */
static const char *key(const struct pmu_run *r, const char *name)
{
	static char buf[48];

	if (r->label)
		fmt_snprintf(buf, sizeof(buf), "%s_%s", r->label, name);
	else
		fmt_snprintf(buf, sizeof(buf), "cpl%d_%s", r->cpl, name);
	return buf;
}

/* Counter c takes part in r (pmu_run.h: n_ctrs, idle). */
static int in_run(const struct pmu_run *r, unsigned c)
{
	return !(r->idle >> c & 1);
}

static int setup(struct tcase *t, const struct pmu_driver *d,
		 struct pmu_run *r)
{
	struct pmu_err e;

	for (unsigned c = 0; c < r->n_ctrs; c++) {
		if (!in_run(r, c))
			continue;
		if (!check(t, d->program(c, &r->cfg[c], &e) == 0, "program "
			   "counter %u: %s", c, e.msg) ||
		    !check(t, d->reset(c, r->preset[c], &e) == 0, "preset "
			   "counter %u: %s", c, e.msg))
			return 0;
	}
	for (unsigned c = 0; c < r->n_ctrs; c++) {
		if (!in_run(r, c))
			continue;
		if (!check(t, d->start(c, &e) == 0, "start counter %u: %s", c,
			   e.msg))
			return 0;
		r->seg_from[c] = window_segment();	/* its last write's */
	}
	return !r->started || r->started(t, r);
}

static int finish(struct tcase *t, const struct pmu_driver *d,
		  struct pmu_run *r)
{
	struct pmu_err e;

	for (unsigned c = 0; c < r->n_ctrs; c++) {
		if (!in_run(r, c))
			continue;
		r->seg_to[c] = window_segment();	/* its first write ends it */
		if (!check(t, d->stop(c, &e) == 0, "stop counter %u: %s", c,
			   e.msg))
			return 0;
	}
	for (unsigned c = 0; c < r->n_ctrs; c++)
		if (in_run(r, c) && !check(t, d->read(c, &r->got[c], &e) == 0,
					   "read counter %u: %s", c, e.msg))
			return 0;
	return 1;
}

static void log_run(struct tcase *t, const struct pmu_driver *d,
		    const struct pmu_run *r)
{
	/* a NetBurst config names its ESCR and CCCR fields: ~130 bytes */
	char name[24], cfg[160];

	value(t, key(r, "run"), "%s n=%llu cpl=%d backend=%s", r->bench,
	      (unsigned long long)r->n, r->cpl, backend_current()->name);
	for (unsigned c = 0; c < r->n_ctrs; c++) {
		if (!in_run(r, c))
			continue;
		d->config_name(&r->cfg[c], cfg, sizeof(cfg));
		fmt_snprintf(name, sizeof(name), "ctr%u_config", c);
		value(t, key(r, name), "%s", cfg);
	}
	for (unsigned i = 0; i < r->n_seen && i < PMU_RUN_SEEN; i++)
		value(t, key(r, r->seen[i].name), "0x%llx (read back while "
		      "counting)", (unsigned long long)r->seen[i].v);
}

/* The register writes of the setup, "msr=value" in order, a few per
 * YAML value: what the driver wrote, hardware and model alike. */
static void flush_writes(struct tcase *t, const struct pmu_run *r,
			 char *line, unsigned *len, unsigned *part)
{
	char name[24];

	if (!*len)
		return;
	fmt_snprintf(name, sizeof(name), *part ? "wrmsr%u" : "wrmsr",
		     *part + 1);
	value(t, key(r, name), "%s", line);
	++*part;
	*len = 0;
	line[0] = 0;
}

static void log_writes(struct tcase *t, const struct pmu_run *r,
		       const struct be_log *log)
{
	char line[224] = "", one[40];
	unsigned len = 0, part = 0;

	for (unsigned i = 0; i < log->used; i++) {
		const struct be_access *a = &log->a[i];
		unsigned n;

		if (a->op != BE_OP_WRMSR)
			continue;
		n = (unsigned)fmt_snprintf(one, sizeof(one), "0x%x=0x%llx%s",
					   a->reg, (unsigned long long)a->value,
					   a->vector ? "(#)" : "");
		if (len + n + 1 >= sizeof(line))
			flush_writes(t, r, line, &len, &part);
		len += (unsigned)fmt_snprintf(line + len, sizeof(line) - len,
					      "%s%s", len ? " " : "", one);
	}
	if (log->lost && len + 20 < sizeof(line))
		len += (unsigned)fmt_snprintf(line + len, sizeof(line) - len,
					      " (+%u not logged)", log->lost);
	flush_writes(t, r, line, &len, &part);
}

/* backend=emulated: what the counting window traced outside the
 * benchmark, retired instructions by CPL, before its first step and after
 * its last: the code a silicon counter counts besides the benchmark. */
/* The semantic counts the composition line names (pmu/sem.h). */
static const enum sem composed[] = {
	SEM_INSTRUCTIONS, SEM_BRANCHES, SEM_TAKEN, SEM_CALLS, SEM_RETURNS,
	SEM_FAR, SEM_LOADS, SEM_STORES,
};

/* What the whole window traced besides the benchmark, per CPL (0; 1-3)
 * and semantic count: "cpl0 instructions=995 branches=102 ...; cpl3
 * instructions=2 ...", the code each counter's window_driver share is
 * taken from. */
static void log_composition(struct tcase *t, const struct pmu_run *r)
{
	static const unsigned sides[2] = { PMU_CPL0, PMU_CPLS_1_3 };
	char line[300];
	unsigned len = 0;
	const char *why;
	uint64_t n;

	for (unsigned c = 0; c < 2; c++) {
		len += (unsigned)fmt_snprintf(line + len, sizeof(line) - len,
					      "%scpl%s", c ? "; " : "",
					      c ? "3" : "0");
		for (unsigned i = 0; i < sizeof(composed) / sizeof(composed[0]);
		     i++) {
			if (window_sum(r->window_run, 0, window_segment(),
				       sides[c], SEM_BIT(composed[i]), &n,
				       &why))
				return;
			len += (unsigned)fmt_snprintf(line + len,
						      sizeof(line) - len,
						      " %s=%llu",
						      sem_name(composed[i]),
						      (unsigned long long)n);
		}
	}
	value(t, key(r, "window_composition"), "%s", line);
}

static void log_window(struct tcase *t, const struct pmu_run *r)
{
	struct trace_window_counts w;

	if (backend_current()->id != BE_EMULATED)
		return;
	trace_window_counts(&w);
	if (!w.before[0] && !w.after[0] && !w.before[3] && !w.after[3] &&
	    !w.inside[r->cpl & 3])
		return;		/* no counter counted: no window opened */
	log_composition(t, r);
	value(t, key(r, "window"), "counters=%u cpl0 before=%llu after=%llu "
	      "near=%llu+%llu, cpl3 before=%llu after=%llu, benchmark cpl%d "
	      "%llu (traced)", pmu_run_counters(r),
	      (unsigned long long)w.before[0], (unsigned long long)w.after[0],
	      (unsigned long long)w.near_before[0],
	      (unsigned long long)w.near_after[0],
	      (unsigned long long)w.before[3], (unsigned long long)w.after[3],
	      r->cpl, (unsigned long long)w.inside[r->cpl & 3]);
	/* the hardware tolerances (pmu_run.h) hold what was traced */
	check(t, w.before[0] + w.after[0] < PMU_HW_CPL0(pmu_run_counters(r)),
	      "the driver's CPL 0 code in the window, %llu instructions, "
	      "exceeds the stated bound %u counters x %u",
	      (unsigned long long)(w.before[0] + w.after[0]),
	      pmu_run_counters(r), pmu_per_counter());
	check(t, w.before[3] + w.after[3] == (r->cpl ? PMU_RING3_EDGES : 0),
	      "CPL 3 code outside the benchmark: %llu instructions, the "
	      "trampoline has %u", (unsigned long long)(w.before[3] +
	      w.after[3]), r->cpl ? PMU_RING3_EDGES : 0);
}

/* backend=hw and emulated: the model's count of the same run (pmu_run.h).
 * The run's setup writes are replayed in their order (the model judges a
 * write hardware refused as it would), then the benchmark is traced into
 * the model at the run's CPL, and each counter read through the driver. */
static void predict(struct pmu_run *r, const struct pmu_driver *d,
		    const struct bench *b, const struct be_log *log)
{
	struct pmu_err e;
	struct fault f;

	r->predicted = 0;
	r->model_why[0] = 0;
	if (pmu_on_model())
		return;		/* the counts are the model's */
	if (log->lost) {
		fmt_snprintf(r->model_why, sizeof(r->model_why), "the setup's "
			     "writes were not all kept (%u lost)", log->lost);
		return;
	}
	if (backend_predict_begin(r->model_why, sizeof(r->model_why)))
		return;
	for (unsigned i = 0; i < log->used; i++)
		if (log->a[i].op == BE_OP_WRMSR)
			(void)be_wrmsr(log->a[i].reg, log->a[i].value);
	if (bench_exec(b, r->n, r->cpl, NULL, backend_current()->sink, NULL,
		       &f)) {
		fmt_snprintf(r->model_why, sizeof(r->model_why), "the traced "
			     "run faulted (vector %u)", f.vector);
		goto out;
	}
	for (unsigned c = 0; c < r->n_ctrs; c++)
		if (in_run(r, c) && d->read(c, &r->model[c], &e)) {
			fmt_snprintf(r->model_why, sizeof(r->model_why),
				     "read counter %u: %s", c, e.msg);
			goto out;
		}
	r->predicted = 1;
out:
	backend_predict_end();
}

int pmu_run(struct tcase *t, struct pmu_run *r)
{
	static struct be_access acc[64];
	struct be_log log;
	int ok;
	const struct pmu_driver *d = pmu_driver_for(cpu_info()->pmu);
	const struct bench *b = bench_find(r->bench);
	trace_sink sink = backend_current()->sink;
	struct pmu_err e;
	struct fault f;

	if (!check(t, d != NULL, "no PMU driver") ||
	    !check(t, b != NULL, "no benchmark %s", r->bench) ||
	    !need_bench_data(t, b) ||
	    !check(t, r->n_ctrs <= PMU_MAX_COUNTERS, "%u counters",
		   r->n_ctrs) ||
	    !check(t, d->init(&e) == 0, "init: %s", e.msg))
		return 0;
	/* Hardware: the oracle's trace must not run while counters count. */
	if (!sink && !check(t, oracle_run(b, r->n, r->cpl, &r->oc, &f) == 0,
			    "oracle run of %s failed", b->name))
		return 0;
	trace_window_range((struct trace_range){ (const void *)b->fn,
						 b->end });
	r->window_run = backend_current()->id == BE_EMULATED ?
			window_begin((uintptr_t)b->fn, (uintptr_t)b->end) : 0;
	r->tsc_span = rdtsc();
	r->interrupts = pmi_count();
	be_log_open(&log, acc, sizeof(acc) / sizeof(acc[0]));
	ok = setup(t, d, r);
	be_log_close();
	/* Nothing is logged while the counters count: on hardware the
	 * logging code would count too (backend=emulated measured ~17000
	 * instructions at CPL 0 for one line, docs/emulators.md). */
	ok = ok && check(t, bench_exec(b, r->n, r->cpl, &r->oc, sink, NULL,
				       &f) == 0, "run of %s failed (vector "
			 "%u)", b->name, f.vector) &&
	     finish(t, d, r);
	r->tsc_span = rdtsc() - r->tsc_span;
	r->interrupts = pmi_count() - r->interrupts;
	log_writes(t, r, &log);
	if (!ok)
		return 0;
	predict(r, d, b, &log);
	log_run(t, d, r);
	log_window(t, r);
	return 1;
}

int pmu_oracle_first(struct tcase *t, const char *name, uint64_t n,
		     struct oracle_counts *oc)
{
	const struct bench *b = bench_find(name);
	struct fault f;

	if (!check(t, b != NULL, "no benchmark %s", name) ||
	    !need_bench_data(t, b))
		return 0;
	return backend_current()->sink ||
	       check(t, oracle_run(b, n, 3, oc, &f) == 0, "oracle run of %s "
		     "failed", name);
}

int pmu_exec(struct tcase *t, const char *name, uint64_t n,
	     struct oracle_counts *oc)
{
	const struct bench *b = bench_find(name);
	struct fault f;

	if (!check(t, b != NULL, "no benchmark %s", name) ||
	    !need_bench_data(t, b))
		return 0;
	return check(t, bench_exec(b, n, 3, oc, backend_current()->sink, NULL,
				   &f) == 0, "%s faulted (vector %u)", name,
		     f.vector);
}

unsigned pmu_run_counters(const struct pmu_run *r)
{
	unsigned n = 0;

	for (unsigned c = 0; c < r->n_ctrs; c++)
		n += in_run(r, c);
	return n;
}

/* The live PMU's generation's bound, else the default (pmu_run.h). */
unsigned pmu_per_counter(void)
{
	const struct pmu_generation *g = pmu_generation_for(cpu_info()->pmu);

	return g && g->per_counter ? g->per_counter : PMU_DRIVER_PER_COUNTER;
}

/* At most, per semantic (pmu_run.h pmu_ring3_sem_edges). */
static const uint8_t ring3_sem_edges[SEM_ARCH_NR] = {
	[SEM_INSTRUCTIONS] = 2, [SEM_BRANCHES] = 2, [SEM_TAKEN] = 2,
	[SEM_COND] = 0, [SEM_CALLS] = 1, [SEM_RETURNS] = 0, [SEM_FAR] = 1,
	[SEM_LOADS] = 0, [SEM_STORES] = 6, [SEM_SEGLOADS] = 2,
};

int pmu_pmi_exact(void)
{
	return backend_model_backed() && !noise_on();
}

/* Of those, before the benchmark's first instruction: the CALL
 * (pmu_run.h pmu_ring3_lead). */
static const uint8_t ring3_sem_lead[SEM_ARCH_NR] = {
	[SEM_INSTRUCTIONS] = 1, [SEM_BRANCHES] = 1, [SEM_TAKEN] = 1,
	[SEM_CALLS] = 1, [SEM_STORES] = 1,
};

uint64_t pmu_ring3_lead(enum sem s)
{
	return pmu_on_model() || s >= SEM_ARCH_NR ? 0 : ring3_sem_lead[s];
}

uint64_t pmu_ring3_sem_edges(uint32_t sem_mask)
{
	uint64_t n = 0;

	if (pmu_on_model())
		return 0;
	for (unsigned s = 0; s < SEM_ARCH_NR; s++)
		if (sem_mask & SEM_BIT(s))
			n += ring3_sem_edges[s];
	return n;
}

static struct pmu_expect expect_edges(uint64_t n, unsigned cpls,
				      unsigned counters, uint64_t edges)
{
	static char why[200];
	struct pmu_expect x = { n, n, NULL };
	unsigned len = 0;

	if (pmu_on_model())
		return x;
	if (cpls & PMU_CPL0) {
		x.hi += PMU_HW_CPL0(counters);
		len += (unsigned)fmt_snprintf(why, sizeof(why), "+%llu: the "
			"driver's CPL 0 code, <= %u counters x %u (measured "
			"under backend=emulated) + 1 disabling WRMSR",
			(unsigned long long)PMU_HW_CPL0(counters), counters,
			pmu_per_counter());
	}
	if ((cpls & (PMU_CPL(1) | PMU_CPL(2) | PMU_CPL(3))) && edges) {
		x.hi += edges;
		fmt_snprintf(why + len, sizeof(why) - len, "%s+%llu: the "
			     "ring-3 trampoline's CALL and INT", len ? "; " :
			     "", (unsigned long long)edges);
	}
	x.tolerance = x.hi > x.lo ? why : NULL;
	return x;
}

struct pmu_expect pmu_expect_window(uint64_t n, unsigned cpls,
				    unsigned counters)
{
	return expect_edges(n, cpls, counters, PMU_RING3_EDGES);
}

struct pmu_expect pmu_expect_sem(uint64_t n, uint32_t sem_mask,
				 unsigned cpls, unsigned counters)
{
	return expect_edges(n, cpls, counters, pmu_ring3_sem_edges(sem_mask));
}

/* The allowance for interrupts taken while counting (pmu/noise.h, Weaver
 * et al.): under emulated_noise=1 what the noise added to counter ctr
 * (pmu/window.h); on hardware one retired instruction per interrupt the
 * run took. */
static const char *interrupt_allowance(const struct pmu_run *r, unsigned ctr,
				       uint32_t sem_mask, unsigned cpls,
				       uint64_t *extra)
{
	static char why[120];
	const char *err;

	*extra = 0;
	if (backend_current()->id == BE_EMULATED) {
		if (!noise_on() ||
		    window_noise_sum(r->window_run, r->seg_from[ctr],
				     r->seg_to[ctr], cpls, sem_mask, extra,
				     &err) || !*extra)
			return NULL;
	} else if (sem_mask & SEM_BIT(SEM_INSTRUCTIONS)) {
		*extra = r->interrupts;
	}
	if (!*extra)
		return NULL;
	fmt_snprintf(why, sizeof(why), "+%llu: %llu interrupt(s) taken while "
		     "counting, each counted as a retired instruction (Weaver "
		     "et al., ISPASS 2013)", (unsigned long long)*extra,
		     (unsigned long long)*extra);
	return why;
}

struct pmu_expect pmu_expect_counter(const struct pmu_run *r, unsigned ctr,
				     uint64_t n, uint32_t sem_mask,
				     unsigned cpls)
{
	struct pmu_expect x = pmu_expect_sem(n, sem_mask, cpls,
					     pmu_run_counters(r));
	const char *why = "the run was not made by pmu_run()";
	uint64_t drv, extra;

	if (pmu_on_model())
		return x;
	if (backend_current()->id != BE_EMULATED) {
		static char both[320];
		const char *more = interrupt_allowance(r, ctr, sem_mask, cpls,
						       &extra);

		if (more) {
			fmt_snprintf(both, sizeof(both), "%s%s%s",
				     x.tolerance ? x.tolerance : "",
				     x.tolerance ? "; " : "", more);
			x.tolerance = both;
			x.hi += extra;
		}
		return x;
	}
	if (r->window_run && ctr < PMU_MAX_COUNTERS &&
	    !window_sum(r->window_run, r->seg_from[ctr], r->seg_to[ctr], cpls,
			sem_mask, &drv, &why)) {
		x = (struct pmu_expect){ .lo = n + drv, .hi = n + drv,
					 .traced = 1, .driver = drv };
		x.tolerance = interrupt_allowance(r, ctr, sem_mask, cpls,
						  &extra);
		x.hi += extra;
		return x;
	}
	x.window_why = why;
	return x;
}

/* The counters' width of driver d, as a mask. */
static uint64_t width_mask(const struct pmu_driver *d)
{
	struct pmu_shape s;

	d->shape(cpu_info(), &s);
	return s.width >= 64 ? ~0ull : (1ull << s.width) - 1;
}

void pmu_log_model_as(struct tcase *t, const struct pmu_run *r, unsigned ctr,
		      const char *counted)
{
	char k[64];
	uint64_t diff, mask;

	if (pmu_on_model())
		return;
	mask = width_mask(pmu_driver_for(cpu_info()->pmu));
	fmt_snprintf(k, sizeof(k), "%s_model", counted);
	if (!r->predicted) {
		value(t, k, "none (%s)", r->model_why);
		return;
	}
	value(t, k, "%llu", (unsigned long long)r->model[ctr]);
	diff = (r->got[ctr] - r->model[ctr]) & mask;
	fmt_snprintf(k, sizeof(k), "%s_model_delta", counted);
	if (diff > mask / 2)
		value(t, k, "-%llu", (unsigned long long)(mask - diff) + 1);
	else
		value(t, k, diff ? "+%llu" : "%llu", (unsigned long long)diff);
}

void pmu_log_model(struct tcase *t, const struct pmu_run *r, unsigned ctr)
{
	char name[24], counted[48];

	fmt_snprintf(name, sizeof(name), "ctr%u", ctr);
	fmt_snprintf(counted, sizeof(counted), "%s", key(r, name));
	pmu_log_model_as(t, r, ctr, counted);
}

int pmu_check_window(struct tcase *t, const char *counted, unsigned ctr,
		     const struct pmu_expect *x)
{
	char k[64];

	if (x->traced) {
		fmt_snprintf(k, sizeof(k), "%s_window_driver", counted);
		value(t, k, "%llu", (unsigned long long)x->driver);
	}
	return check(t, !x->window_why, "counter %u: under backend=emulated "
		     "its count is held exactly, but what the window traced "
		     "for it is unknown: %s", ctr, x->window_why);
}

void pmu_check_counter(struct tcase *t, const struct pmu_driver *d,
		       const struct pmu_run *r, unsigned ctr,
		       const struct pmu_expect *x)
{
	uint64_t mask = width_mask(d), got = r->got[ctr], inc;
	char name[24];

	inc = (got - r->preset[ctr]) & mask;
	fmt_snprintf(name, sizeof(name), "ctr%u", ctr);
	value(t, key(r, name), "%llu", (unsigned long long)got);
	fmt_snprintf(name, sizeof(name), "ctr%u_oracle", ctr);
	if (x->lo == x->hi)
		value(t, key(r, name), "%llu", (unsigned long long)
		      ((r->preset[ctr] + x->lo) & mask));
	else
		value(t, key(r, name), "increment %llu..%llu (%s)",
		      (unsigned long long)x->lo, (unsigned long long)x->hi,
		      x->tolerance);
	fmt_snprintf(name, sizeof(name), "ctr%u", ctr);
	pmu_check_window(t, key(r, name), ctr, x);
	pmu_log_model(t, r, ctr);
	check(t, inc >= x->lo && inc <= x->hi, "counter %u: read %llu (+%llu "
	      "over its preset), oracle %llu..%llu", ctr,
	      (unsigned long long)got, (unsigned long long)inc,
	      (unsigned long long)x->lo, (unsigned long long)x->hi);
}
