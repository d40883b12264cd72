/* harness/pebs_run.c: see pebs_run.h. */
#include "pebs_run.h"
#include "need.h"
#include "pmi_run.h"
#include "pmu_run.h"
#include "../arch/x86/apic.h"
#include "../arch/x86/cpu.h"
#include "../arch/x86/xmm.h"
#include "../bench/oracle.h"
#include "../lib/string.h"
#include "../pmu/backend.h"
#include "../pmu/perfmon/caps.h"
#include "../pmu/perfmon/driver.h"
#include "../pmu/perfmon/regs.h"
#include "../pmu/perfmon/ds/driver.h"
#include "../pmu/perfmon/ds/regs.h"
#include "../pmu/perfmon/pebs/regs.h"

#define BUF_BYTES (256u * 1024)

static uint8_t ds_area[1024] __attribute__((aligned(64)));

/* The trace sink of the run: the model's (inner) first, then the
 * rules, whose records go into r->exp while there is room. */
struct tap {
	struct pebs_run *r;
	trace_sink inner;
	struct pebs_expect x;
};

static void tap_sink(const struct insn_event *e, void *ctx)
{
	struct tap *p = ctx;
	struct pebs_run *r = p->r;
	struct pebs_step *s = r->n_exp < PEBS_RUN_MAX ? &r->exp[r->n_exp] : 0;

	if (p->inner)
		p->inner(e, 0);
	if (pebs_expect_step(&p->x, e, s))
		r->n_exp++;
}

static void tap_start(struct tap *p, struct pebs_run *r, trace_sink inner)
{
	p->r = r;
	p->inner = inner;
	r->n_exp = 0;
	pebs_expect_start(&p->x, r->ctr, r->n_ctr, r->debugctl);
}

/* ---- PMIs */

static struct pebs_run *pmi_r;

static void on_pmi(const struct pmi_record *rec, void *ctx)
{
	(void)rec;
	(void)ctx;
	if (pmi_r->pmis++)
		return;
	pmi_r->lvtpc_in_pmi = apic_lvtpc();
	(void)be_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS, &pmi_r->status_in_pmi);
}

/* ---- set-up */

static uint64_t top_of(const struct perfmon_caps *c, unsigned bit)
{
	unsigned w = bit >= GLOBAL_FIXED_SHIFT ? c->fixed_width : c->gp_width;

	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static unsigned ctr_of(unsigned bit)
{
	return bit >= GLOBAL_FIXED_SHIFT ?
	       perfmon_fixed_ctr(bit - GLOBAL_FIXED_SHIFT) : bit;
}

static int program(struct tcase *t, const struct perfmon_caps *c,
		   const struct pebs_ctr *k)
{
	uint64_t sel = k->sel | (k->adaptive && k->bit < GLOBAL_FIXED_SHIFT ?
				 EVTSEL_ADAPTIVE : 0);
	struct pmu_err e;

	return check(t, perfmon_driver.program(ctr_of(k->bit),
			&(struct pmu_config){ sel, 0 }, &e) == 0 &&
		     perfmon_driver.reset(ctr_of(k->bit),
					  top_of(c, k->bit) - k->period + 1,
					  &e) == 0, "counter bit %u: %s",
		     k->bit, e.msg);
}

static int any_adaptive(const struct pebs_run *r)
{
	for (unsigned c = 0; c < r->n_ctr; c++)
		if (r->ctr[c].adaptive)
			return 1;
	return 0;
}

static int install(struct tcase *t, const struct perfmon_caps *c,
		   struct pebs_run *r)
{
	static uint8_t *buf;
	struct perfmon_ds s = { .area = ds_area, .use_pebs = 1 };
	uint64_t base;
	struct pmu_err e;

	if (!buf && !(buf = need_alloc(t, "the PEBS buffer", BUF_BYTES, 4096)))
		return 0;
	r->record_size = perfmon_pebs_record_size(r->cfg, any_adaptive(r));
	if (!check(t, r->record_size && r->capacity * r->record_size <=
		   BUF_BYTES, "%u records of %u bytes", r->capacity,
		   r->record_size))
		return 0;
	r->buf = buf;
	r->area = ds_area;
	base = r->base = (uintptr_t)buf;
	s.pebs = (struct ds_buffer){ base, base,
		base + (uint64_t)r->capacity * r->record_size,
		base + (uint64_t)(r->thresh ? r->thresh : r->capacity) *
		       r->record_size };
	for (unsigned k = 0; k < r->n_ctr; k++) {
		const struct pebs_ctr *p = &r->ctr[k];
		uint64_t v = top_of(c, p->bit) - p->reload + 1;

		if (p->bit >= GLOBAL_FIXED_SHIFT)
			s.fixed_reset[p->bit - GLOBAL_FIXED_SHIFT] = v;
		else
			s.gp_reset[p->bit] = v;
	}
	return check(t, perfmon_ds_install(&s, &e) == 0, "DS install: %s",
		     e.msg);
}

/* Fixed counters' Adaptive_Record bits, which the driver's fields lack. */
static int fixed_adaptive(struct tcase *t, const struct pebs_run *r)
{
	uint64_t ctrl, add = 0;

	for (unsigned k = 0; k < r->n_ctr; k++)
		if (r->ctr[k].adaptive && r->ctr[k].bit >= GLOBAL_FIXED_SHIFT)
			add |= 1ull << (FIXED_CTRL_ADAPTIVE_SHIFT + 4 *
					(r->ctr[k].bit - GLOBAL_FIXED_SHIFT));
	return !add ||
	       check(t, be_rdmsr(MSR_IA32_FIXED_CTR_CTRL, &ctrl) == 0 &&
		     be_wrmsr(MSR_IA32_FIXED_CTR_CTRL, ctrl | add) == 0,
		     "FIXED_CTR_CTRL adaptive bits 0x%llx",
		     (unsigned long long)add);
}

static int arm(struct tcase *t, const struct perfmon_caps *c,
	       struct pebs_run *r, uint64_t *mask)
{
	struct pmu_err e;
	uint64_t dbg = 0;

	*mask = 0;
	for (unsigned k = 0; k < r->n_ctr; k++) {
		if (!program(t, c, &r->ctr[k]))
			return 0;
		*mask |= 1ull << r->ctr[k].bit;
	}
	if (!install(t, c, r))
		return 0;
	for (unsigned k = 0; k < r->n_ctr; k++)
		if (!check(t, perfmon_driver.start(ctr_of(r->ctr[k].bit),
						   &e) == 0, "start: %s",
			   e.msg))
			return 0;
	if (!fixed_adaptive(t, r) ||
	    !check(t, perfmon_pebs_enable(*mask, r->cfg, &e) == 0,
		   "PEBS enable 0x%llx: %s", (unsigned long long)*mask, e.msg))
		return 0;
	return !r->debugctl ||
	       check(t, be_rdmsr(MSR_IA32_DEBUGCTL, &dbg) == 0 &&
		     be_wrmsr(MSR_IA32_DEBUGCTL, dbg | r->debugctl) == 0,
		     "DEBUGCTL |= 0x%llx", (unsigned long long)r->debugctl);
}

/* ---- the run */

struct exec {
	struct tcase *t;
	struct pebs_run *r;
	const struct bench *b;
	struct tap *tap;
	int ok;
};

static void exec_bench(void *arg)
{
	struct exec *x = arg;
	struct fault f;
	trace_sink sink = backend_current()->sink;

	pmi_set_callback(on_pmi, 0);
	if (x->r->xmm)
		xmm_load_all(x->r->xmm);
	x->r->tsc0 = rdtsc();
	x->ok = bench_exec(x->b, x->r->n, x->r->cpl, 0, sink ? tap_sink : 0,
			   x->tap, &f) == 0;
	x->r->tsc1 = rdtsc();
}

static void finish(struct tcase *t, struct pebs_run *r)
{
	struct pmu_err e;
	const struct ds_layout *l = 0;
	struct ds_layout lay;

	for (unsigned k = 0; k < r->n_ctr; k++) {
		(void)perfmon_driver.stop(ctr_of(r->ctr[k].bit), &e);
		(void)perfmon_driver.read(ctr_of(r->ctr[k].bit),
					  &r->count_after[k], &e);
	}
	if (r->debugctl)
		(void)be_wrmsr(MSR_IA32_DEBUGCTL, 0);
	if (perfmon_ds_layout(&lay, &e) == 0)
		l = &lay;
	r->index = l ? ds_get(ds_area, l, DS_PEBS_INDEX) : 0;
	check(t, perfmon_ds_remove(&e) == 0, "DS remove: %s", e.msg);
	value(t, "pebs_records", "%u expected by the trace, %u fit, index "
	      "+0x%llx, record %u bytes", r->n_exp, pebs_run_written(r),
	      (unsigned long long)(r->index - r->base), r->record_size);
	value(t, "pebs_pmis", "%u", r->pmis);
}

int pebs_run(struct tcase *t, struct pebs_run *r)
{
	const struct perfmon_caps *c = perfmon_caps(0);
	const struct bench *b = bench_find(r->bench);
	trace_sink sink = backend_current()->sink;
	struct tap tap;
	struct exec x = { t, r, b, &tap, 0 };
	struct pmu_err e;
	struct fault f;
	uint64_t mask;
	int rc;

	r->pmis = 0;
	if (!check(t, c && b, "no capabilities or no bench %s", r->bench) ||
	    !need_bench_data(t, b) ||
	    !check(t, perfmon_driver.init(&e) == 0, "init: %s", e.msg) ||
	    !apic_ready(t))
		return 0;
	r->range_lo = (uintptr_t)b->fn;
	r->range_hi = (uintptr_t)b->end;
	tap_start(&tap, r, sink);
	/* hardware: the trace first, while nothing counts */
	if (!sink && !check(t, bench_exec(b, r->n, r->cpl, 0, tap_sink, &tap,
					  &f) == 0, "trace of %s", b->name))
		return 0;
	if (!arm(t, c, r, &mask)) {
		(void)perfmon_ds_remove(&e);
		return 0;
	}
	pmi_r = r;
	rc = pmi_run(PMI_PATH_NMI, exec_bench, &x, &f);
	finish(t, r);
	(void)perfmon_driver.init(&e);
	return check(t, rc == 0 && x.ok, "run of %s: pmi_run %d, ran %d",
		     b->name, rc, x.ok);
}

unsigned pebs_run_written(const struct pebs_run *r)
{
	return r->n_exp < r->capacity ? r->n_exp : r->capacity;
}

uint64_t pebs_run_field(const struct pebs_run *r, unsigned i, unsigned off)
{
	uint64_t v;

	memcpy(&v, r->buf + (uint64_t)i * r->record_size + off, sizeof(v));
	return v;
}
