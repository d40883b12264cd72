/* pebs/records-*: every field of every PEBS record the PMU writes,
 * against the trace at the instruction that caused it (pebs_test.h has
 * the layouts), for the precise events of the modelled generation; the
 * records fall at the events period + 1 + k * (reload + 1) (the event
 * after each overflow, pebs_expect.h) and the index advances
 * by the SDM's record size (SDM Vol. 3B §18.8.1.1: "After a PEBS record
 * has been written, the processor also updates this field with the
 * address of the next PEBS record to be written"). */
#include "pebs_test.h"
#include "../../bench/gpr_values.h"
#include "../../lib/string.h"

/* The encoding number of the register a formats 0-3 field holds:
 * RAX 0, RCX 1, RDX 2, RBX 3, RSP 4, RBP 5, RSI 6, RDI 7, R8-R15. */
static int sdm_pebs_reg(unsigned f)
{
	static const int reg[S_R8] = { -1, -1, 0, 3, 1, 2, 6, 7, 5, 4 };

	if (f < S_R8)
		return reg[f];
	return f < S_STATUS ? (int)(f - S_R8) + 8 : -1;
}

/* IA32_PERF_CAPABILITIES.PEBS_TRAP, bit 6 (SDM Vol. 3B §18.6.2.4 /
 * §18.8.1.1, the IA32_PERF_CAPABILITIES figure). */
static int sdm_pebs_trap(uint64_t perf_caps)
{
	return !!(perf_caps & (1ull << 6));
}

#define OVF_BUF (1ull << 62)

void pebs_log_caps(struct tcase *t)
{
	const struct perfmon_caps *c = perfmon_caps(0);

	if (!c)
		return;
	value(t, "pebs_format", "%u", sdm_pebs_format(c->perf_caps));
	value(t, "pebs_trap", "%d", sdm_pebs_trap(c->perf_caps));
	value(t, "pebs_caps", "%s", c->source ? c->source : "?");
}

static const struct perfmon_caps *ready(struct tcase *t, unsigned *fmt,
					int *trap, int log)
{
	const struct pmu_driver *d = pmu_ready(t, PMU_ARCH);
	const struct perfmon_caps *c;

	if (!d)
		return 0;
	c = perfmon_caps(0);
	if (!check(t, c != 0, "no capabilities"))
		return 0;
	if (!perfmon_pebs_available()) {
		skip(t, "no PEBS: IA32_MISC_ENABLE bit 12 (PEBS unavailable) "
		     "is set on this PMU (v%u)", c->version);
		return 0;
	}
	*fmt = sdm_pebs_format(c->perf_caps);
	*trap = sdm_pebs_trap(c->perf_caps);
	if (log)
		pebs_log_caps(t);
	return c;
}

const struct perfmon_caps *pebs_ready(struct tcase *t, unsigned *fmt,
				      int *trap)
{
	return ready(t, fmt, trap, 1);
}

const struct perfmon_caps *pebs_ready_quiet(struct tcase *t, unsigned *fmt,
					    int *trap)
{
	return ready(t, fmt, trap, 0);
}

static uint64_t fld(const struct pebs_run *r, unsigned i, unsigned off)
{
	return pebs_run_field(r, i, off);
}

/* One field: a check with the record, the field and both values. */
static int want(struct tcase *t, unsigned i, const char *name, uint64_t got,
		uint64_t exp)
{
	return check(t, got == exp, "record %u %s: 0x%llx, the trace says "
		     "0x%llx", i, name, (unsigned long long)got,
		     (unsigned long long)exp);
}

static const struct step_regs *regs_of(const struct pebs_step *s, int trap)
{
	static const struct step_regs none;

	if (trap)
		return &s->after;
	return s->have_before ? &s->before : &none;
}

static uint64_t addr_of(const struct pebs_step *s, int data)
{
	return data == 1 ? s->load : data == 2 ? s->store : 0;
}

static void check_tsc(struct tcase *t, const struct pebs_run *r, unsigned i,
		      uint64_t tsc, uint64_t *last)
{
	check(t, tsc >= r->tsc0 && tsc <= r->tsc1 && tsc > *last, "record "
	      "%u TSC 0x%llx: outside the run [0x%llx, 0x%llx] or not after "
	      "the previous record's 0x%llx", i, (unsigned long long)tsc,
	      (unsigned long long)r->tsc0, (unsigned long long)r->tsc1,
	      (unsigned long long)*last);
	*last = tsc;
}

static const char *const sdm_names[S_NR] = {
	"RFLAGS", "RIP", "RAX", "RBX", "RCX", "RDX", "RSI", "RDI", "RBP",
	"RSP", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	"GLOBAL_STATUS/applicable", "data linear address", "data source",
	"latency", "eventing IP", "TSX", "TSC",
};

static unsigned thresh_of(const struct pebs_run *r)
{
	return r->thresh ? r->thresh : r->capacity - 1;
}

static uint64_t want_fixed(const struct pebs_run *r, const struct pebs_want *w,
			   unsigned i, unsigned f)
{
	const struct pebs_step *s = &r->exp[i];
	const struct step_regs *g = regs_of(s, w->trap);
	int reg = sdm_pebs_reg(f);

	if (reg >= 0)
		return g->gpr[reg];
	switch (f) {
	case S_FLAGS: return g->rflags;
	case S_IP: return w->trap ? s->next_rip : s->rip;
	case S_STATUS:
		if (w->fmt >= 3)
			return s->applicable;
		return s->applicable | w->status_extra |
		       (i >= thresh_of(r) ? OVF_BUF : 0);
	case S_DLA: return addr_of(s, w->data);
	case S_EIP: return s->rip;
	default: return 0;	/* DSE, latency, TSX: not modelled */
	}
}

static void check_fixed(struct tcase *t, const struct pebs_run *r,
			const struct pebs_want *w, unsigned i, uint64_t *tsc)
{
	for (unsigned f = 0; f < S_NR; f++) {
		int off = sdm_pebs_offset(w->fmt, f);

		if (off < 0)
			continue;
		if (f == S_TSC) {
			check_tsc(t, r, i, fld(r, i, (unsigned)off), tsc);
			continue;
		}
		if (f == S_DLA && w->data && !r->exp[i].access_known)
			continue;
		want(t, i, sdm_names[f], fld(r, i, (unsigned)off),
		     want_fixed(r, w, i, f));
	}
}

/* A 4-byte field of the 32-bit record. */
static uint32_t fld32(const struct pebs_run *r, unsigned i, unsigned off)
{
	uint32_t v;

	memcpy(&v, r->buf + (size_t)i * r->record_size + off, sizeof(v));
	return v;
}

/* The 32-bit record: ten 4-byte fields, the same state as formats 0-3
 * (bits 31:0 of it). */
static void check_fixed32(struct tcase *t, const struct pebs_run *r,
			  const struct pebs_want *w, unsigned i)
{
	static const char *const names32[S_R8] = {
		"EFLAGS", "EIP", "EAX", "EBX", "ECX", "EDX", "ESI", "EDI",
		"EBP", "ESP",
	};

	for (unsigned f = S_FLAGS; f < S_R8; f++)
		want(t, i, names32[f],
		     fld32(r, i, (unsigned)sdm_pebs32_offset(f)),
		     (uint32_t)want_fixed(r, w, i, f));
}

static void check_gprs(struct tcase *t, const struct pebs_run *r,
		       const struct pebs_want *w, unsigned i, unsigned at)
{
	const struct pebs_step *s = &r->exp[i];
	const struct step_regs *g = regs_of(s, w->trap);
	static const char *const reg[16] = {
		"RAX", "RCX", "RDX", "RBX", "RSP", "RBP", "RSI", "RDI", "R8",
		"R9", "R10", "R11", "R12", "R13", "R14", "R15" };

	want(t, i, "GPRs RFLAGS", fld(r, i, at), g->rflags);
	want(t, i, "GPRs RIP", fld(r, i, at + 8),
	     w->trap ? s->next_rip : s->rip);
	for (unsigned k = 0; k < 16; k++)
		want(t, i, reg[k], fld(r, i, at + 16 + 8 * k), g->gpr[k]);
}

static void check_groups(struct tcase *t, const struct pebs_run *r,
			 const struct pebs_want *w, unsigned i,
			 const struct sdm_adaptive *a)
{
	const struct pebs_step *s = &r->exp[i];

	if (a->meminfo) {
		if (!w->data || s->access_known)
			want(t, i, "meminfo address", fld(r, i, a->meminfo),
			     addr_of(s, w->data));
		for (unsigned k = 1; k < 4; k++)	/* not modelled */
			want(t, i, "meminfo aux/latency/TSX",
			     fld(r, i, a->meminfo + 8 * k), 0);
	}
	if (a->gprs)
		check_gprs(t, r, w, i, a->gprs);
	for (unsigned k = 0; a->xmms && r->xmm && k < 32; k++)
		want(t, i, "XMM quadword", fld(r, i, a->xmms + 8 * k),
		     r->xmm[k]);
	/* entries past the run's own branches hold older ones (the LBR
	 * stack keeps what it recorded before the run): not checked; nor
	 * the cycle count of the run's oldest (since an update before the
	 * run) nor, on hardware, any cycle count (the model's clock is one
	 * cycle per step, pmu/model.h) */
	for (unsigned k = 0; k < a->n_lbr && k < s->n_branches &&
			     k < PEBS_RUN_LBR; k++) {
		unsigned at = a->lbrs + SDM_LBR * k;
		uint64_t keep = k + 1 < s->n_branches &&
				backend_model_backed() ? ~0ull : ~0xffffull;

		want(t, i, "LBR from", fld(r, i, at), s->from[k]);
		want(t, i, "LBR to", fld(r, i, at + 8), s->to[k]);
		want(t, i, "LBR info", fld(r, i, at + 16) & keep,
		     s->info[k] & keep);
	}
}

static void check_adaptive(struct tcase *t, const struct pebs_run *r,
			   const struct pebs_want *w, unsigned i,
			   const struct sdm_adaptive *a, uint64_t *tsc)
{
	const struct pebs_step *s = &r->exp[i];

	want(t, i, "format_size", fld(r, i, 0),
	     (uint64_t)a->size << 48 | a->cfg);
	want(t, i, "basic IP", fld(r, i, 8), s->rip);
	want(t, i, "applicable counters", fld(r, i, 16), s->applicable);
	check_tsc(t, r, i, fld(r, i, 24), tsc);
	check_groups(t, r, w, i, a);
}

void pebs_check_records(struct tcase *t, const struct pebs_run *r,
			const struct pebs_want *w)
{
	struct sdm_adaptive a = sdm_adaptive_of(r);
	unsigned size = pebs_ds32() ? SDM_PEBS32_SIZE :
			w->fmt >= 4 ? a.size : sdm_pebs_size(w->fmt);
	unsigned n = pebs_run_written(r);
	uint64_t tsc = 0;

	if (!r->log_settings_only)
		value(t, "not_modelled", "data source, latency, TSX and LBR "
		      "info are written 0 by the model");
	if (!backend_model_backed()) {	/* hardware: docs/pebs.md */
		pebs_check_hw(t, r, w->fmt, size, pebs_run_written(r));
		return;
	}
	if (!check(t, r->index == r->base + (uint64_t)n * size, "PEBS index "
		   "+0x%llx after %u records of %u bytes (SDM size)",
		   (unsigned long long)(r->index - r->base), n, size))
		return;
	for (unsigned i = 0; i < n && i < PEBS_RUN_MAX; i++) {
		if (pebs_ds32())
			check_fixed32(t, r, w, i);
		else if (w->fmt >= 4)
			check_adaptive(t, r, w, i, &a, &tsc);
		else
			check_fixed(t, r, w, i, &tsc);
	}
}

/* ---- the record tests */

/* A run of bench with one PEBS counter on GP counter 0 at CPL cpl. */
static void one_counter(struct pebs_run *r, const struct sdm_event *ev,
			const char *bench, uint64_t n, int cpl,
			uint64_t period)
{
	*r = (struct pebs_run){ .bench = bench, .n = n, .cpl = cpl,
		.n_ctr = 1, .capacity = 24 };
	r->ctr[0] = (struct pebs_ctr){ .bit = 0, .sem = ev->sem,
		.sel = sdm_gp_sel(ev, cpl == 3, cpl == 0),
		.period = period, .reload = period };
}

static void run_event(struct tcase *t, int which, const char *bench,
		      uint64_t n, int cpl, uint64_t period)
{
	struct pebs_run *r = pebs_run_mem();
	struct sdm_event ev = { 0 };
	unsigned fmt;
	int trap, have;

	if (!pebs_ready(t, &fmt, &trap))
		return;
	have = which == 0 ? sdm_inst_event(fmt, &ev) :
	       which == 1 ? sdm_branch_event(fmt, &ev) :
	       sdm_mem_event(fmt, which == 3, &ev);
	if (!have) {
		skip(t, "format %u (Core 2) has no precise event of this kind "
		     "(SDM Vol. 3B 18.6.2.4: its PEBS events are "
		     "instructions, x87/SIMD and load misses)", fmt);
		return;
	}
	one_counter(r, &ev, bench, n, cpl, period);
	/* PMC1 and PDIR where C0H/01H is PREC_DIST */
	if (which == 0 && sdm_inst_ctr(fmt, &r->ctr[0], period, cpl == 3,
				       cpl == 0) == SDM_INST_BRANCHES) {
		skip(t, "format %u in the 32-bit DS format: PEBS on PMC0 only, "
		     "and instructions are INST_RETIRED.PREC_DIST here, PMC1 "
		     "only (SDM Vol. 3B 17.4.9, 18.9.4.4)", fmt);
		return;
	}
	if (!pebs_run(t, r))
		return;
	value(t, "period", "%llu", (unsigned long long)period);
	check(t, r->n_exp >= 2, "the run gave %u records: too few to check",
	      r->n_exp);
	/* the hardware path counts the driver's code too: a CPL 0 run's
	 * records may fill the buffer, whose first `capacity` are held */
	check(t, r->n_exp <= r->capacity || !pmu_on_model(), "%u records for "
	      "%u slots", r->n_exp, r->capacity);
	pebs_check_records(t, r, &(struct pebs_want){ .fmt = fmt,
			   .trap = trap, .data = ev.data });
}

static void test_inst(struct tcase *t)
{
	run_event(t, 0, "counted-loop", 20, 3, 7);
}

static void test_inst_cpl0(struct tcase *t)
{
	run_event(t, 0, "counted-loop", 20, 0, 9);
}

static void test_branches(struct tcase *t)
{
	run_event(t, 1, "call-ret", 12, 3, 3);
}

static void test_loads(struct tcase *t)
{
	run_event(t, 2, "load-stream", 10, 3, 5);
}

static void test_stores(struct tcase *t)
{
	run_event(t, 3, "store-stream", 10, 3, 5);
}

TEST(pebs_rec_inst, "pebs/records-instructions",
     "instructions retired, period 7, CPL 3: every field of every record",
     test_inst, 0);
TEST(pebs_rec_inst0, "pebs/records-instructions-cpl0",
     "instructions retired, period 9, CPL 0: every field of every record",
     test_inst_cpl0, 0);
TEST(pebs_rec_br, "pebs/records-branches",
     "branches retired, period 3: every field of every record",
     test_branches, 0);
TEST(pebs_rec_ld, "pebs/records-loads",
     "retired loads, period 5: records carry the load's linear address",
     test_loads, 0);
TEST(pebs_rec_st, "pebs/records-stores",
     "retired stores, period 5: records carry the store's linear address",
     test_stores, 0);

/* pebs/gpr-values: the gpr-values benchmark holds known constants
 * (bench/gpr_values.h) in every GPR but RSP in its marker loop; every
 * record whose registers belong to a boundary inside the loop holds
 * them, on hardware as on the model - a check that needs no trace. */
static void test_gprs(struct tcase *t)
{
	struct pebs_run *r = pebs_run_mem();
	struct sdm_event ev = { 0 };
	unsigned fmt, seen = 0;
	int trap;

	if (!pebs_ready(t, &fmt, &trap))
		return;
	if (fmt >= 4 && !pebs_ds32()) {
		skip(t, "format %u: the GPRs are in the adaptive GPR group, "
		     "checked by pebs/adaptive-*", fmt);
		return;
	}
	sdm_inst_event(fmt, &ev);
	one_counter(r, &ev, "gpr-values", 8, 3, 3);
	sdm_inst_ctr(fmt, &r->ctr[0], 3, 1, 0);	/* PMC1 on PDIR rows */
	if (!pebs_run(t, r))
		return;
	for (unsigned i = 0; i < pebs_run_written(r); i++) {
		unsigned fsz = pebs_ds32() ? 4 : 8;
		uint64_t ip = pebs_ds32() ? fld32(r, i, 4) : fld(r, i, 8);

		if (ip < (uintptr_t)bench_gprs_marker ||
		    ip >= (uintptr_t)bench_gprs_marker_end)
			continue;
		seen++;
		for (unsigned f = S_AX; f < S_STATUS; f++) {
			int reg = sdm_pebs_reg(f);

			if (f >= S_R8 && pebs_ds32())
				break;
			if (reg != 4)
				want(t, i, sdm_names[f],
				     fsz == 4 ? fld32(r, i, f * 4) :
				     fld(r, i, f * 8),
				     fsz == 4 ? (uint32_t)bench_gpr_values[reg] :
				     bench_gpr_values[reg]);
		}
	}
	value(t, "records_in_marker_loop", "%u", seen);
	check(t, seen > 0, "no record inside the marker loop");
}

TEST(pebs_gprs, "pebs/gpr-values",
     "records inside gpr-values' marker loop hold its register constants",
     test_gprs, 0);
