/* tests/pebs/pebs_run.c: see pebs_run.h. */
#include "pebs_run.h"
#include "../../harness/need.h"
#include "../../harness/pmi_run.h"
#include "../../harness/pmu_run.h"
#include "../../arch/x86/apic.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/xmm.h"
#include "../../bench/oracle.h"
#include "../../lib/string.h"
#include "../../pmu/backend.h"
#include "../../pmu/window.h"
#include "../../pmu/perfmon/caps.h"
#include "../../pmu/perfmon/sample.h"

#define BUF_BYTES (256u * 1024)
/* Guard bytes past the absolute maximum: the processor "never writes
 * past the PEBS absolute maximum" (SDM Vol. 3B §18.8.1.1), so every one
 * must read back as written.  4 KiB is more than two of the largest
 * records (adaptive, every group and 32 LBRs: basic 32, memory info 32,
 * GPRs 144, XMMs 256, LBRs 24 each: 1232 bytes, docs/pebs.md). */
#define GUARD_BYTES 4096u
#define GUARD_BYTE 0xa5u
#define GLOBAL_STATUS 0x38eu	/* IA32_PERF_GLOBAL_STATUS (Vol. 4 Table 2-2) */
#define PEBS_DATA_CFG 0x3f2u	/* MSR_PEBS_DATA_CFG (Vol. 4, the Ice Lake
				 * MSR table): adaptive PEBS only */

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
	(void)pebs_sample_status(&pmi_r->status_in_pmi);
}

/* ---- set-up */

/* The PEBS buffer for r's capacity of records of the driver's size. */
static int buffer(struct tcase *t, struct pebs_run *r, struct pebs_sample *s)
{
	static uint8_t *buf;

	if (!buf && !(buf = need_alloc(t, "the PEBS buffer", BUF_BYTES, 4096)))
		return 0;
	r->record_size = pebs_sample_record_size(r->cfg, r->ctr, r->n_ctr);
	if (!check(t, r->record_size && r->capacity * r->record_size +
		   GUARD_BYTES <= BUF_BYTES, "%u records of %u bytes",
		   r->capacity, r->record_size))
		return 0;
	memset(buf, GUARD_BYTE, r->capacity * r->record_size + GUARD_BYTES);
	r->buf = buf;
	r->area = ds_area;
	r->base = (uintptr_t)buf;
	*s = (struct pebs_sample){ .ctr = r->ctr, .n_ctr = r->n_ctr,
				   .cfg = r->cfg, .debugctl = r->debugctl,
				   .area = ds_area, .base = r->base,
				   .capacity = r->capacity,
				   .thresh = r->thresh,
				   .record_size = r->record_size };
	return 1;
}

static int arm(struct tcase *t, struct pebs_run *r, struct pebs_sample *s)
{
	char why[240];

	return buffer(t, r, s) &&
	       check(t, pebs_sample_arm(s, why, sizeof(why)) == 0, "%s", why);
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
	x->ok = bench_exec(x->b, x->r->n, x->r->cpl, 0, sink ? tap_sink : 0,
			   x->tap, &f) == 0;
}

/* Every guard byte past the absolute maximum as written before the run;
 * the first that is not is named. */
static void check_guard(struct tcase *t, const struct pebs_run *r)
{
	const uint8_t *g = r->buf + (uint64_t)r->capacity * r->record_size;

	for (unsigned i = 0; i < GUARD_BYTES; i++)
		if (g[i] != GUARD_BYTE) {
			check(t, 0, "byte %u past the absolute maximum is 0x%02x"
			      ", not the guard 0x%02x: written past it", i,
			      g[i], GUARD_BYTE);
			return;
		}
}

static void finish(struct tcase *t, struct pebs_run *r,
		   const struct pebs_sample *s)
{
	struct pmu_err e;

	r->status_after = 0;
	if (perfmon_caps(0)->version >= 2)
		check(t, be_rdmsr(GLOBAL_STATUS, &r->status_after) == 0,
		      "RDMSR IA32_PERF_GLOBAL_STATUS");
	/* the DATA_CFG the run used, read before the DS area goes (the
	 * asked one may have been refused or replaced) */
	r->data_cfg_used = 0;
	if (perfmon_pebs_baseline(perfmon_caps(0)))
		check(t, be_rdmsr(PEBS_DATA_CFG, &r->data_cfg_used) == 0,
		      "RDMSR MSR_PEBS_DATA_CFG");
	check(t, pebs_sample_end(s, r->count_after, &r->index, &e) == 0,
	      "DS remove: %s", e.msg);
	r->tsc1 = rdtsc();	/* the counters stopped */
	value(t, "pebs_records", "%u expected by the trace, %u fit, index "
	      "+0x%llx, record %u bytes", r->n_exp, pebs_run_written(r),
	      (unsigned long long)(r->index - r->base), r->record_size);
	value(t, "pebs_pmis", "%u", r->pmis);
	check_guard(t, r);
	pebs_log_run(t, r);
}

int pebs_run(struct tcase *t, struct pebs_run *r)
{
	const struct perfmon_caps *c = perfmon_caps(0);
	const struct bench *b = bench_find(r->bench);
	trace_sink sink = backend_current()->sink;
	int emulated = backend_current()->id == BE_EMULATED;
	struct tap tap;
	struct exec x = { t, r, b, &tap, 0 };
	struct pebs_sample s;
	struct pmu_err e;
	struct fault f;
	int rc;

	r->pmis = 0;
	if (!check(t, c && b, "no capabilities or no bench %s", r->bench) ||
	    !need_bench_data(t, b) ||
	    !check(t, pebs_sample_reset(&e) == 0, "init: %s", e.msg) ||
	    !apic_ready(t))
		return 0;
	r->range_lo = (uintptr_t)b->fn;
	r->range_hi = (uintptr_t)b->end;
	tap_start(&tap, r, sink);
	/* backend=emulated: the tap reads the counting window, everything
	 * the counters count (pmu/window.h), so the model's records are held
	 * exactly; hardware: the trace first, while nothing counts */
	if (emulated)
		window_tap(tap_sink, &tap);
	else if (!sink && !check(t, bench_exec(b, r->n, r->cpl, 0, tap_sink,
					       &tap, &f) == 0, "trace of %s",
				 b->name))
		return 0;
	r->tsc0 = rdtsc();	/* the counters start in arm() */
	if (!arm(t, r, &s)) {
		window_tap(NULL, NULL);
		(void)pebs_sample_abort(&e);
		return 0;
	}
	pmi_r = r;
	rc = pmi_run(PMI_PATH_NMI, exec_bench, &x, &f);
	for (unsigned k = 0; k < r->n_ctr; k++)
		r->left_after[k] = tap.x.left[k];
	finish(t, r, &s);
	window_tap(NULL, NULL);
	(void)pebs_sample_reset(&e);
	if (rc == 0 && x.ok)
		pebs_predict(t, r);
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

struct pebs_run *pebs_run_mem(void)
{
	static struct pebs_run r;

	return &r;
}
