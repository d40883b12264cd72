/* bts_test: what the bts/ tests share - a DS area with a BTS buffer, a
 * benchmark run with BTS on, and the taken branches the trace saw, written
 * out from the SDM (Vol. 3B, order no. 253669-060US, §17.4.5 "Branch
 * Trace Store (BTS)", §17.4.9 "BTS and DS Save Area", Figure 17-6 "64-bit
 * Branch Trace Record Format", §17.4.9.3 "Setting Up the BTS Buffer",
 * §17.4.9.4 "Setting Up CPL-Qualified BTS") rather than taken from the
 * driver or the model, so that a wrong rule there cannot make an
 * expectation wrong too.
 *
 * Under the model backend the benchmark runs single-stepped into
 * bts_sink(): the model (the backend's sink) first, then the expectation
 * from the same step, so the records must be the trace's taken branches
 * one for one.  On hardware the trace runs first with BTS off, then the
 * benchmark at full speed with BTS on: the buffer also holds records of
 * the harness's own code between enabling and disabling BTS (CPL 0, and
 * at CPL 3 the ring-3 entry and exit path), so the checks there are that
 * the benchmark's branches appear in order as a subsequence. */
#ifndef TESTS_BTS_BTS_TEST_H
#define TESTS_BTS_BTS_TEST_H

#include "../perfmon/perfmon_test.h"
#include "../../pmu/perfmon/ds/regs.h"
#include "../../arch/x86/cpu.h"
#include "../../harness/need.h"
#include "../../pmu/perfmon/bts/driver.h"
#include "../../pmu/perfmon/ds/driver.h"
#include "../../bench/oracle.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

/* The facts the tests read the buffer and IA32_DEBUGCTL by, restated
 * from the SDM (not pmu/perfmon/ds/regs.h):
 *   - IA32_DEBUGCTL (§17.4.1, Figure 17-3): TR bit 6, BTS bit 7, BTINT
 *     bit 8, BTS_OFF_OS bit 9, BTS_OFF_USR bit 10, FREEZE_PERFMON_ON_PMI
 *     bit 12;
 *   - the DS format (§17.4.9.1): 64-bit fields in IA-32e mode or with
 *     CPUID.01H:ECX.DTES64 (bit 2), else 32-bit ones;
 *   - the DS save area (§17.4.9, Figures 17-7 and 17-8): BTS base,
 *     index, absolute maximum, threshold at field 0, 1, 2, 3 - the BTS
 *     index at 08H (64-bit) or 04H (32-bit). */
#define SDM_DEBUGCTL_TR (1ull << 6)
#define SDM_DEBUGCTL_BTS (1ull << 7)
#define SDM_DEBUGCTL_BTINT (1ull << 8)
#define SDM_DEBUGCTL_BTS_OFF_OS (1ull << 9)
#define SDM_DEBUGCTL_BTS_OFF_USR (1ull << 10)
#define SDM_DEBUGCTL_FREEZE_PERFMON (1ull << 12)

static inline int sdm_ds64(void)
{
	return sizeof(void *) == 8 || (cpu_info()->f1_ecx & (1u << 2));
}

static inline unsigned sdm_ds_field(void)
{
	return sdm_ds64() ? 8u : 4u;
}

/* Bytes of one BTS record in the DS format in use (bts_begin sets it):
 * 24 in the 64-bit format {from 00H, to 08H, flags 10H} (§17.4.9.1), 12
 * in the 32-bit one {from 0, to 4, flags 8} (§17.4.9), which the i386
 * build uses on a CPU without DTES64. */
static unsigned bts_rec_bytes __attribute__((unused)) = 24;
#define BTS_REC bts_rec_bytes
#define BTS_REC_MAX 24u
/* Every IA32_DEBUGCTL bit BTS gives meaning to (§17.4.1, Figure 17-3). */
#define BTS_SDM_BITS (SDM_DEBUGCTL_TR | SDM_DEBUGCTL_BTS |                  \
		      SDM_DEBUGCTL_BTINT | SDM_DEBUGCTL_BTS_OFF_OS |            \
		      SDM_DEBUGCTL_BTS_OFF_USR)
#define BTS_BUF_RECORDS 1024u
/* Records past every buffer's maximum, to see that none is written. */
#define BTS_GUARD_RECORDS 4u
#define BTS_GUARD_BYTE 0xa5
#define BTS_MAX_BRANCHES 512u
/* Records of the harness's own code at CPL 3 that hardware may add at
 * either end of a CPL 3 benchmark run (the ring-3 entry and exit). */
#define BTS_HW_EDGE 8u

struct bts_branch {
	uint64_t from, to;
	uint16_t flags;			/* the step's DEC_* | EV_* */
	uint8_t cpl;
};

/* The taken branches of one run, in order. */
struct bts_trace {
	trace_sink model;		/* the backend's sink, fed first */
	struct bts_branch b[BTS_MAX_BRANCHES];
	unsigned n;
	uint64_t lost;			/* taken branches past b[] */
};

struct bts_mem {
	uint8_t area[1024] __attribute__((aligned(64)));
	/* the BTS buffer the processor (or the model) writes */
	uint8_t buf[(BTS_BUF_RECORDS + BTS_GUARD_RECORDS) * BTS_REC_MAX]
		__attribute__((aligned(64)));
	/* its records decoded (bts_decode), whatever the format */
	struct bts_record rec[BTS_BUF_RECORDS + BTS_GUARD_RECORDS];
};

struct bts_env {
	struct tcase *t;
	const struct perfmon_caps *c;
	const struct pmu_driver *d;
	struct ds_layout l;
	struct bts_mem *m;
	uint64_t base;			/* of the BTS buffer */
	unsigned runs;			/* bts_run()s so far: YAML keys */
};

/* "run<N>_<name>": keys stay unique when a test runs several times. */
static inline const char *bts_key(const struct bts_env *v, const char *name)
{
	static char buf[40];

	fmt_snprintf(buf, sizeof(buf), "run%u_%s", v->runs, name);
	return buf;
}

/* A taken branch as the trace reports it: a near branch that transferred
 * control (the benchmarks make no far transfer). */
static inline void bts_sink(const struct insn_event *e, void *ctx)
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

/* Does a branch at cpl make a record under the DEBUGCTL flags
 * (§17.4.9.4: BTS_OFF_OS none at CPL 0, BTS_OFF_USR none at CPL > 0)? */
static inline int bts_sdm_records(uint64_t flags, unsigned cpl)
{
	if (cpl == 0)
		return !(flags & SDM_DEBUGCTL_BTS_OFF_OS);
	return !(flags & SDM_DEBUGCTL_BTS_OFF_USR);
}

/* The trace's branches that make records under flags, into out. */
static inline unsigned bts_expected(const struct bts_trace *tr,
				    uint64_t flags, struct bts_branch *out)
{
	unsigned n = 0;

	for (unsigned i = 0; i < tr->n; i++)
		if (bts_sdm_records(flags, tr->b[i].cpl))
			out[n++] = tr->b[i];
	return n;
}

/* One memory block per test file, from the page allocator, reused by each
 * of its tests (bts_begin clears it). */
static inline struct bts_mem *bts_mem(struct tcase *t)
{
	static struct bts_mem *m;

	if (!m)
		m = need_alloc(t, "the DS area", sizeof(*m), 4096);
	return m;
}

/* The driver, the DS layout of this CPU and mode (64-bit in IA-32e mode
 * or with DTES64, else 32-bit: SDM Vol. 3B §17.4.9.1), BTS available, no
 * DS area installed, and a clean buffer; else SKIP or FAIL and 0. */
static inline int bts_begin(struct tcase *t, struct bts_env *v)
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
	bts_rec_bytes = 3 * sdm_ds_field();
	memset(v->m, 0, sizeof(*v->m));
	memset(v->m->buf, BTS_GUARD_BYTE, sizeof(v->m->buf));
	v->base = (uint64_t)(uintptr_t)v->m->buf;
	return 1;
}

/* Installs the DS area with a BTS buffer of k records, threshold at
 * record thresh (index at the base). */
static inline int bts_install(struct bts_env *v, unsigned k, unsigned thresh)
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

static inline uint64_t bts_index(const struct bts_env *v)
{
	uint64_t x = 0;

	memcpy(&x, v->m->area + 1 * sdm_ds_field(), sdm_ds_field());
	return x;
}

/* m->rec[] from the buffer's bytes: each record's three fields, 8 or 4
 * bytes each by the layout. */
static inline void bts_decode(struct bts_env *v)
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

/* The log of one record: run<N>_record<i>_from / _to / _predicted, the
 * branch addresses as <benchmark>+0xNN inside a benchmark (else hex),
 * predicted: bit 4 of the third field, "Branch Predicted" in the record
 * figures of §17.4.9 (Figure 17-6 "64-bit Branch Trace Record Format";
 * the 32-bit record has it at the same bit). */
static inline void bts_log_record(const struct bts_env *v, unsigned i)
{
	const struct bts_record *r = &v->m->rec[i];
	char key[40], addr[64];

	fmt_snprintf(key, sizeof(key), "run%u_record%u_from", v->runs, i);
	value(v->t, key, "%s", bench_addr_str(r->from, addr, sizeof(addr)));
	fmt_snprintf(key, sizeof(key), "run%u_record%u_to", v->runs, i);
	value(v->t, key, "%s", bench_addr_str(r->to, addr, sizeof(addr)));
	fmt_snprintf(key, sizeof(key), "run%u_record%u_predicted", v->runs,
		     i);
	value(v->t, key, "%u", (unsigned)(r->flags >> 4 & 1));
}

/* Records 0, 1 and the last one before the index after a run (docs/
 * pebs.md "Records in the log"); where the buffer wrapped, the last
 * ones since the wrap. */
static inline void bts_log_records(const struct bts_env *v)
{
	uint64_t index = bts_index(v);
	uint64_t n = index > v->base ? (index - v->base) / BTS_REC : 0;

	if (n > BTS_BUF_RECORDS)
		n = BTS_BUF_RECORDS;
	for (unsigned i = 0; i < n; i++)
		if (i < 2 || i == n - 1)
			bts_log_record(v, i);
}

/* backend=hw and emulated: the reference model's BTS records of bench n
 * at cpl with flags, the benchmark alone, logged beside the run's
 * (run<N>_model_bts_index, run<N>_model_record0_from/_to:
 * bts_predict.c); nothing on the model.  bts_run() calls it. */
void bts_predict(struct bts_env *v, const char *bench, uint64_t n, int cpl,
		 uint64_t flags);

/* Runs bench n at cpl with BTS on (flags: BTINT, BTS_OFF_*), the taken
 * branches into *tr.  IA32_DEBUGCTL must read TR, BTS and the flags on
 * top of its other bits while on, and those bits alone after.  Returns 1
 * when it ran. */
static inline int bts_run(struct bts_env *v, const char *bench, uint64_t n,
			  int cpl, uint64_t flags, struct bts_trace *tr)
{
	const struct bench *b = bench_find(bench);
	trace_sink sink = backend_current()->sink;
	uint64_t ctl[3] = { 0 };	/* DEBUGCTL before, on, after */
	struct pmu_err e;
	struct fault f = { 0 };
	int rc;

	tr->model = sink;
	tr->n = 0;
	tr->lost = 0;
	if (!check(v->t, b != NULL, "no benchmark %s", bench) ||
	    !need_bench_data(v->t, b))
		return 0;
	/* hardware: the trace first, with BTS off */
	if (!sink && !check(v->t, bench_exec(b, n, cpl, NULL, bts_sink, tr,
					     &f) == 0, "trace of %s faulted "
			    "(vector %u)", bench, f.vector))
		return 0;
	if (!check(v->t, be_rdmsr(MSR_IA32_DEBUGCTL, &ctl[0]) == 0,
		   "RDMSR IA32_DEBUGCTL") ||
	    !check(v->t, perfmon_bts_enable(flags, &e) == 0, "enable BTS "
		   "(flags 0x%llx): %s", (unsigned long long)flags, e.msg))
		return 0;
	(void)be_rdmsr(MSR_IA32_DEBUGCTL, &ctl[1]);
	rc = bench_exec(b, n, cpl, NULL, sink ? bts_sink : NULL, tr, &f);
	if (!check(v->t, perfmon_bts_disable(&e) == 0, "disable BTS: %s",
		   e.msg))
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

/* BTS off, no DS area, the driver as init leaves it. */
static inline void bts_end(struct bts_env *v)
{
	struct pmu_err e;

	if (!v->d)
		return;
	(void)perfmon_bts_disable(&e);
	(void)perfmon_ds_remove(&e);
	(void)v->d->init(&e);
}

/* The records [0, n) written since the base (no wrap). */
static inline unsigned bts_written(struct tcase *t, const struct bts_env *v,
				   uint64_t max)
{
	uint64_t index = bts_index(v);

	value(t, bts_key(v, "bts_index"), "base+%llu",
	      (unsigned long long)(index - v->base));
	if (!check(t, index >= v->base && index <= max &&
		   (index - v->base) % BTS_REC == 0, "BTS index base+%lld: "
		   "outside [base, max = base+%llu] or not on a record",
		   (long long)(index - v->base),
		   (unsigned long long)(max - v->base)))
		return 0;
	return (unsigned)((index - v->base) / BTS_REC);
}

static inline int bts_same(const struct bts_record *r,
			   const struct bts_branch *b)
{
	return r->from == b->from && r->to == b->to;
}

/* On hardware, record r is the trace's branch b: the same source and
 * target; but the benchmark's closing RET (the trace's last branch)
 * returns to whoever called it, and at CPL 0 the traced run and the
 * measured one call it from different places (the tracer, bench_exec):
 * that one is matched by its source alone.  (At CPL 3 both return into
 * the ring-3 trampoline, so the target matches too.) */
static inline int bts_same_hw(const struct bts_record *r,
			      const struct bts_branch *b, int last)
{
	if (last && (b->flags & DEC_RET))
		return r->from == b->from;
	return bts_same(r, b);
}

/* Under the model: records [0, n) are exactly want[0, nwant), flags 0
 * (the model does not model prediction).  On hardware: want appears in
 * order as a subsequence of the records (the harness's own code adds
 * records around it), flags not checked. */
static inline void bts_check_records(struct tcase *t, const char *what,
				     const struct bts_record *r, unsigned n,
				     const struct bts_branch *want,
				     unsigned nwant)
{
	unsigned i, j = 0;

	if (!pmu_on_model()) {
		for (i = 0; i < n && j < nwant; i++)
			j += bts_same_hw(&r[i], &want[j], j == nwant - 1);
		check(t, j == nwant, "%s: only the first %u of the trace's %u "
		      "branches appear in order among %u records (hardware: "
		      "a subsequence)", what, j, nwant, n);
		return;
	}
	check(t, n == nwant, "%s: %u records, the trace has %u taken "
	      "branches", what, n, nwant);
	for (i = 0; i < n && i < nwant; i++)
		if (!check(t, bts_same(&r[i], &want[i]) && r[i].flags == 0,
			   "%s: record %u {from 0x%llx, to 0x%llx, flags "
			   "0x%llx}, the trace's branch {0x%llx -> 0x%llx}, "
			   "flags 0", what, i, (unsigned long long)r[i].from,
			   (unsigned long long)r[i].to,
			   (unsigned long long)r[i].flags,
			   (unsigned long long)want[i].from,
			   (unsigned long long)want[i].to))
			return;
}

/* Records [first, first + count) still hold the fill bts_begin gave
 * them: nothing was written there (past the maximum: the guard). */
static inline void bts_check_untouched(struct tcase *t,
				       const struct bts_env *v,
				       unsigned first, unsigned count)
{
	const uint8_t *p = v->m->buf + (size_t)first * BTS_REC;

	for (unsigned i = 0; i < count * BTS_REC; i++)
		if (!check(t, p[i] == BTS_GUARD_BYTE, "byte base+%u was "
			   "written (0x%02x): no record belongs there",
			   first * BTS_REC + i, p[i]))
			return;
}

/* Nothing written past a maximum of k records. */
static inline void bts_check_guard(struct tcase *t, const struct bts_env *v,
				   unsigned k)
{
	bts_check_untouched(t, v, k, BTS_GUARD_RECORDS);
}

#endif
