/* tests/bts/bts_run.c: a benchmark run with BTS on (bts_test.h): the
 * group's memory block, the DS area and BTS buffer a test begins with,
 * the trace's taken branches beside the run, the buffer's records decoded
 * whatever the DS format, and the driver left as init leaves it. */
#include "bts_test.h"
#include "../../pmu/window.h"

/* One memory block for the group, from the page allocator, reused by each
 * of its tests (bts_begin clears it). */
static struct bts_mem *bts_mem(struct tcase *t)
{
	static struct bts_mem *m;

	if (!m)
		m = need_alloc(t, "the DS area", sizeof(*m), 4096);
	return m;
}

int bts_begin(struct tcase *t, struct bts_env *v)
{
	struct pmu_err e;

	*v = (struct bts_env){ .t = t };
	v->d = perfmon_ready(t, &v->c);
	if (!v->d)
		return 0;
	if (!check(t, v->d->init(&e) == 0, "init: %s", e.msg))
		return 0;
	if (perfmon_ds_layout(&v->l, &e)) {
		skip(t, "no DS area on this PMU: %s", e.msg);
		return 0;
	}
	if (!perfmon_bts_available()) {
		skip(t, "BTS unavailable (IA32_MISC_ENABLE bit 11)");
		return 0;
	}
	if (!(v->m = bts_mem(t)))
		return 0;
	if (!check(t, v->l.ds64 == sdm_ds64() &&
		   v->l.bts_record == 3 * sdm_ds_field() &&
		   v->l.size <= sizeof(v->m->area), "DS layout: ds64 %d, BTS "
		   "record %u bytes, area %u bytes: expected the %d-bit "
		   "format (%u-byte records)", v->l.ds64, v->l.bts_record,
		   v->l.size, sdm_ds64() ? 64 : 32, 3 * sdm_ds_field()) ||
	    !check(t, perfmon_ds_remove(&e) == 0, "remove: %s", e.msg))
		return 0;
	memset(v->m, 0, sizeof(*v->m));
	memset(v->m->buf, BTS_GUARD_BYTE, sizeof(v->m->buf));
	v->base = (uint64_t)(uintptr_t)v->m->buf;
	return 1;
}

int bts_install(struct bts_env *v, unsigned k, unsigned thresh)
{
	struct perfmon_ds s = {
		.area = v->m->area,
		.use_bts = 1,
		.bts = { .base = v->base, .index = v->base,
			 .max = v->base + (uint64_t)k * BTS_REC,
			 .thresh = v->base + (uint64_t)thresh * BTS_REC },
	};
	struct pmu_err e;

	return check(v->t, perfmon_ds_install(&s, &e) == 0, "install a DS "
		     "area with a %u-record BTS buffer (threshold %u): %s", k,
		     thresh, e.msg);
}

uint64_t bts_index(const struct bts_env *v)
{
	uint64_t x = 0;

	memcpy(&x, v->m->area + 1 * sdm_ds_field(), sdm_ds_field());
	return x;
}

/* m->rec[] from the buffer's bytes: each record's three fields, 8 or 4
 * bytes each by the layout. */
static void bts_decode(struct bts_env *v)
{
	unsigned f = sdm_ds_field();

	for (unsigned i = 0; i < BTS_BUF_RECORDS + BTS_GUARD_RECORDS; i++) {
		const uint8_t *p = v->m->buf + (size_t)i * BTS_REC;
		uint64_t x[3] = { 0, 0, 0 };

		for (unsigned k = 0; k < 3; k++)
			memcpy(&x[k], p + k * f, f);	/* little-endian */
		v->m->rec[i] = (struct bts_record){ x[0], x[1], x[2] };
	}
}

void bts_sink(const struct insn_event *e, void *ctx)
{
	struct bts_trace *tr = ctx;

	if (tr->model)
		tr->model(e, NULL);
	if (!(e->flags & EV_TAKEN))
		return;
	if (tr->n == BTS_MAX_BRANCHES) {
		tr->lost++;
		return;
	}
	tr->b[tr->n++] = (struct bts_branch){ e->rip, e->next_rip, e->flags,
					      e->cpl };
}

int bts_run(struct bts_env *v, const char *bench, uint64_t n, int cpl,
	    uint64_t flags, struct bts_trace *tr)
{
	const struct bench *b = bench_find(bench);
	trace_sink sink = backend_current()->sink;
	uint64_t ctl[3] = { 0 };	/* DEBUGCTL before, on, after */
	struct pmu_err e;
	struct fault f = { 0 };
	int rc, rc_off;

	tr->model = sink;
	tr->n = 0;
	tr->lost = 0;
	if (!check(v->t, b != NULL, "no benchmark %s", bench) ||
	    !need_bench_data(v->t, b))
		return 0;
	/* backend=emulated: the trace is the counting window's, every taken
	 * branch from the write that enables BTS to the one that disables
	 * it, the driver's included (pmu/window.h), so the records are held
	 * one for one; hardware: the trace first, with BTS off */
	if (backend_current()->id == BE_EMULATED)
		window_tap(bts_sink, tr);
	else if (!sink && !check(v->t, bench_exec(b, n, cpl, NULL, bts_sink,
						  tr, &f) == 0, "trace of %s "
				 "faulted (vector %u)", bench, f.vector))
		return 0;
	if (!check(v->t, be_rdmsr(MSR_IA32_DEBUGCTL, &ctl[0]) == 0,
		   "RDMSR IA32_DEBUGCTL") ||
	    !check(v->t, perfmon_bts_enable(flags, &e) == 0, "enable BTS "
		   "(flags 0x%llx): %s", (unsigned long long)flags, e.msg)) {
		window_tap(NULL, NULL);
		return 0;
	}
	(void)be_rdmsr(MSR_IA32_DEBUGCTL, &ctl[1]);
	rc = bench_exec(b, n, cpl, NULL, sink ? bts_sink : NULL, tr, &f);
	rc_off = perfmon_bts_disable(&e);
	window_tap(NULL, NULL);
	if (!check(v->t, rc_off == 0, "disable BTS: %s", e.msg))
		return 0;
	(void)be_rdmsr(MSR_IA32_DEBUGCTL, &ctl[2]);
	ctl[0] &= ~BTS_SDM_BITS;
	if (!check(v->t, ctl[1] == (ctl[0] | SDM_DEBUGCTL_TR | SDM_DEBUGCTL_BTS |
				    flags) && ctl[2] == ctl[0],
		   "IA32_DEBUGCTL 0x%llx with BTS on (flags 0x%llx), 0x%llx "
		   "after: expected TR, BTS and the flags on 0x%llx, then "
		   "0x%llx", (unsigned long long)ctl[1],
		   (unsigned long long)flags, (unsigned long long)ctl[2],
		   (unsigned long long)ctl[0], (unsigned long long)ctl[0]) ||
	    !check(v->t, rc == 0, "%s at CPL %d: %d (vector %u)", bench, cpl,
		   rc, f.vector) ||
	    !check(v->t, tr->lost == 0, "%llu taken branches past the %u "
		   "the test keeps", (unsigned long long)tr->lost,
		   BTS_MAX_BRANCHES))
		return 0;
	bts_decode(v);
	v->runs++;
	value(v->t, bts_key(v, "run"), "%s n=%llu cpl=%d flags=0x%llx "
	      "backend=%s: %u taken branches", bench, (unsigned long long)n,
	      cpl, (unsigned long long)flags, backend_current()->name, tr->n);
	bts_log_records(v);
	bts_predict(v, bench, n, cpl, flags);
	return 1;
}

void bts_end(struct bts_env *v)
{
	struct pmu_err e;

	if (!v->d)
		return;
	(void)perfmon_bts_disable(&e);
	(void)perfmon_ds_remove(&e);
	(void)v->d->init(&e);
}
