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

/* Programs, presets and starts the run's counters; with mark, notes the
 * window's segment each start() left (pmu_run.h seg_from). */
static int setup(struct tcase *t, const struct pmu_driver *d,
		 struct pmu_run *r, int mark)
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
		if (mark)	/* its last write's */
			r->seg_from[c] = window_segment();
	}
	return !r->started || r->started(t, r);
}

/* Stops and reads the run's counters; with mark, notes the window's
 * segment each stop() began in (pmu_run.h seg_to). */
static int finish(struct tcase *t, const struct pmu_driver *d,
		  struct pmu_run *r, int mark)
{
	struct pmu_err e;

	for (unsigned c = 0; c < r->n_ctrs; c++) {
		if (!in_run(r, c))
			continue;
		if (mark)	/* its first write ends it */
			r->seg_to[c] = window_segment();
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

/* The setup's writes as the window cut at them against those the
 * backend logged: the same registers in the same order (a write that
 * faulted ends the comparison: the setup failed), else the window's
 * segments, and every share taken from them, do not describe the run. */
static void check_cuts(struct tcase *t, const struct pmu_run *r,
		       const struct be_log *log)
{
	unsigned seg = 0;
	uint32_t msr = 0;

	for (unsigned i = 0; i < log->used && !log->lost; i++) {
		const struct be_access *a = &log->a[i];

		if (a->op != BE_OP_WRMSR)
			continue;
		if (a->vector)
			return;
		seg++;
		if (!check(t, !window_write(r->window_run, seg, &msr) &&
			   msr == a->reg, "the window's cut %u is not the "
			   "setup's write %u (WRMSR 0x%x): the shares "
			   "taken from the window do not describe this run",
			   seg, seg, a->reg))
			return;
	}
	check(t, seg == r->setup_segs, "the window cut the setup at %u "
	      "writes, the setup made %u: the shares taken from it do not "
	      "describe this run", r->setup_segs, seg);
}

/* What the window traced outside the benchmark, logged beside the run:
 * under backend=emulated the run's own window, on backend=hw the
 * rehearsal's (pmu_run.h); either way the cuts must be the setup's
 * writes and the CPL 3 code the trampoline's. */
static void log_window(struct tcase *t, const struct pmu_run *r,
		       const struct be_log *log)
{
	struct trace_window_counts w;
	uint64_t cpl3 = 0;
	const char *why;

	if (!r->window_run)
		return;
	if (backend_current()->id == BE_EMULATED) {
		trace_window_counts(&w);
		if (!w.before[0] && !w.after[0] && !w.before[3] &&
		    !w.after[3] && !w.inside[r->cpl & 3])
			return;	/* no counter counted: no window opened */
		log_composition(t, r);
		value(t, key(r, "window"), "counters=%u cpl0 before=%llu "
		      "after=%llu near=%llu+%llu, cpl3 before=%llu after=%llu, "
		      "benchmark cpl%d %llu (traced)", pmu_run_counters(r),
		      (unsigned long long)w.before[0],
		      (unsigned long long)w.after[0],
		      (unsigned long long)w.near_before[0],
		      (unsigned long long)w.near_after[0],
		      (unsigned long long)w.before[3],
		      (unsigned long long)w.after[3], r->cpl,
		      (unsigned long long)w.inside[r->cpl & 3]);
	} else {
		value(t, key(r, "rehearsal"), "the run traced once before it "
		      "ran, through the same accessors, presets 0: %u writes "
		      "in the setup, %llu PMI(s)", r->setup_segs,
		      (unsigned long long)r->rehearsal_pmis);
		log_composition(t, r);
	}
	check_cuts(t, r, log);
	if (!window_sum(r->window_run, 0, window_segment(), PMU_CPLS_1_3,
			SEM_BIT(SEM_INSTRUCTIONS), &cpl3, &why))
		check(t, cpl3 == (r->cpl ? PMU_RING3_EDGES : 0), "CPL 3 code "
		      "outside the benchmark: %llu instructions, the "
		      "trampoline has %u", (unsigned long long)cpl3,
		      r->cpl ? PMU_RING3_EDGES : 0);
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

/* backend=hw: the run once under the window before it runs on silicon
 * (pmu_run.h "rehearsed"): the same driver calls, accessors and
 * benchmark, every step traced and sorted (window_rehearse_feed), the
 * presets 0 so that no counter overflows into a PMI the real run would
 * not take; then the driver's init() again, so the real run starts from
 * the state the rehearsal started from. */
static int rehearse(struct tcase *t, const struct pmu_driver *d,
		    const struct bench *b, struct pmu_run *r)
{
	uint64_t preset[PMU_MAX_COUNTERS], pmis = pmi_count();
	struct pmu_err e;
	struct fault f;
	int ok;

	memcpy(preset, r->preset, sizeof(preset));
	memset(r->preset, 0, sizeof(r->preset));
	r->rehearsal_why = NULL;
	r->window_run = window_begin((uintptr_t)b->fn, (uintptr_t)b->end);
	if (trace_window_open(window_rehearse_feed, NULL)) {
		r->window_run = 0;
		r->rehearsal_why = "the run could not be rehearsed: a DR7 "
				   "breakpoint is armed (or a trace runs)";
		memcpy(r->preset, preset, sizeof(preset));
		return 1;
	}
	ok = setup(t, d, r, 1);
	r->setup_segs = window_segment();
	ok = ok && check(t, bench_exec(b, r->n, r->cpl, NULL, NULL, NULL,
				       &f) == 0, "rehearsal: run of %s failed "
			 "(vector %u)", b->name, f.vector) &&
	     finish(t, d, r, 1);
	trace_window_close();
	memcpy(r->preset, preset, sizeof(preset));
	r->rehearsal_pmis = pmi_count() - pmis;
	return ok && check(t, d->init(&e) == 0, "init after the rehearsal: "
			   "%s", e.msg);
}

int pmu_run(struct tcase *t, struct pmu_run *r)
{
	static struct be_access acc[64];
	struct be_log log;
	int ok, emulated = backend_current()->id == BE_EMULATED;
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
	r->window_run = 0;
	r->rehearsal_why = "the backend traces no window";
	if (backend_current()->id == BE_HW && !rehearse(t, d, b, r))
		return 0;
	if (emulated)
		r->window_run = window_begin((uintptr_t)b->fn,
					     (uintptr_t)b->end);
	r->tsc_span = rdtsc();
	r->interrupts = pmi_count();
	be_log_open(&log, acc, sizeof(acc) / sizeof(acc[0]));
	ok = setup(t, d, r, emulated);
	be_log_close();
	if (emulated)
		r->setup_segs = window_segment();
	/* Nothing is logged while the counters count: on hardware the
	 * logging code would count too (backend=emulated measured ~17000
	 * instructions at CPL 0 for one line, docs/emulators.md). */
	ok = ok && check(t, bench_exec(b, r->n, r->cpl, &r->oc, sink, NULL,
				       &f) == 0, "run of %s failed (vector "
			 "%u)", b->name, f.vector) &&
	     finish(t, d, r, emulated);
	r->tsc_span = rdtsc() - r->tsc_span;
	r->interrupts = pmi_count() - r->interrupts;
	log_writes(t, r, &log);
	if (!ok)
		return 0;
	predict(r, d, b, &log);
	log_run(t, d, r);
	log_window(t, r, &log);
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

/* backend=hw (pmu_run.h "rehearsed"): n plus the rehearsal's share of
 * counter ctr, widened only by what silicon leaves open, each said. */
static struct pmu_expect expect_rehearsed(const struct pmu_run *r,
					  unsigned ctr, uint64_t n,
					  uint32_t sem_mask, unsigned cpls)
{
	static char why[520];
	struct pmu_expect x = { .lo = n, .hi = n };
	const char *err = r->rehearsal_why, *more;
	uint64_t drv, out, in, wr, extra;
	unsigned len;

	if (!r->window_run || ctr >= PMU_MAX_COUNTERS ||
	    window_sum(r->window_run, r->seg_from[ctr], r->seg_to[ctr], cpls,
		       sem_mask, &drv, &err) ||
	    window_crossings(r->window_run, r->seg_from[ctr], r->seg_to[ctr],
			     cpls, sem_mask, &out, &in, &err)) {
		x.window_why = err ? err : "the run was not made by pmu_run()";
		return x;
	}
	/* the enabling WRMSR is in the share (a step at CPL 0), the
	 * disabling one is not; an instruction each, nothing else */
	wr = (cpls & PMU_CPL0) && (sem_mask & SEM_BIT(SEM_INSTRUCTIONS));
	x.traced = 1;
	x.driver = drv;
	x.lo = n + drv - wr - out;
	x.hi = n + drv + wr + in;
	len = (unsigned)fmt_snprintf(why, sizeof(why), "%llu + %llu "
				     "rehearsed", (unsigned long long)n,
				     (unsigned long long)drv);
	if (wr)
		len += (unsigned)fmt_snprintf(why + len, sizeof(why) - len,
			"; -1 +1: either edge WRMSR may count itself (SDM "
			"silent)");
	if (out || in)
		len += (unsigned)fmt_snprintf(why + len, sizeof(why) - len,
			"; -%llu +%llu: INT, IRET changing CPL may count at "
			"either (SDM silent)", (unsigned long long)out,
			(unsigned long long)in);
	if ((more = interrupt_allowance(r, ctr, sem_mask, cpls, &extra))) {
		fmt_snprintf(why + len, sizeof(why) - len, "; %s", more);
		x.hi += extra;
	}
	x.tolerance = x.hi > x.lo ? why : NULL;
	return x;
}

struct pmu_expect pmu_expect_counter(const struct pmu_run *r, unsigned ctr,
				     uint64_t n, uint32_t sem_mask,
				     unsigned cpls)
{
	struct pmu_expect x = { .lo = n, .hi = n };
	const char *why = "the run was not made by pmu_run()";
	uint64_t drv, extra;

	if (pmu_on_model())
		return x;
	if (backend_current()->id != BE_EMULATED)
		return expect_rehearsed(r, ctr, n, sem_mask, cpls);
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
	return check(t, !x->window_why, "counter %u: its expectation is the "
		     "benchmark's count plus what the window traced for it "
		     "(backend=emulated: the run's own; backend=hw: the "
		     "rehearsal's), which is unknown: %s", ctr, x->window_why);
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
