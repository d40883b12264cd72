/* bts/records-*, call-ret, off-*, tr-without-bts: what a BTS record is and
 * which branches make one (SDM Vol. 3B, order no. 253669-060US):
 *   - with IA32_DEBUGCTL.TR (bit 6) and BTS (bit 7) set, each taken
 *     branch stores a record {from: the branch's address, to: its
 *     target, flags: bit 4 "predicted"} at the BTS index, which moves on
 *     by one record (§17.4.5, §17.4.9, Figure 17-6); a Jcc not taken is
 *     no branch record;
 *   - CALL and RET are branches like any other: a RET's target is the
 *     address after the CALL that made its frame;
 *   - BTS_OFF_OS (bit 9) suppresses records at CPL 0, BTS_OFF_USR
 *     (bit 10) at CPL > 0 (§17.4.9.4);
 *   - TR alone sends branch trace messages to the system bus and stores
 *     nothing (§17.4.5: "TR ... BTS flag ... both set": only then are
 *     messages stored in the BTS buffer).
 * Every run uses a buffer of BTS_BUF_RECORDS records, far more than any
 * run's branches, so nothing wraps. */
#include "bts_test.h"
#include "../../arch/x86/decode.h"

#define BUF_MAX(v) ((v)->base + (uint64_t)BTS_BUF_RECORDS * BTS_REC)

static struct bts_trace trace;
static struct bts_branch want[BTS_MAX_BRANCHES];

/* The records [0, n) written since the base (no wrap). */
static unsigned bts_written(struct tcase *t, const struct bts_env *v,
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

/* A fresh buffer, BTS on with flags for one run of bench; the records
 * written into *n. */
static int one_run(struct bts_env *v, const char *bench, uint64_t n,
		   int cpl, uint64_t flags, unsigned *nrec)
{
	memset(v->m->buf, BTS_GUARD_BYTE, sizeof(v->m->buf));
	if (!bts_install(v, BTS_BUF_RECORDS, BTS_BUF_RECORDS - 1) ||
	    !bts_run(v, bench, n, cpl, flags, &trace))
		return 0;
	*nrec = bts_written(v->t, v, BUF_MAX(v));
	bts_check_guard(v->t, v, BTS_BUF_RECORDS);
	return 1;
}

static int in_bench(const struct bench *b, uint64_t addr)
{
	return addr >= (uint64_t)(uintptr_t)b->fn &&
	       addr < (uint64_t)(uintptr_t)b->end;
}

/* Every record equals the trace's taken branch, in order; the count is
 * also the benchmark's formula for taken branches. */
static void match(struct bts_env *v, const char *bench, uint64_t n, int cpl)
{
	const struct bench *b = bench_find(bench);
	char what[48];
	unsigned nrec = 0, nwant;
	int64_t taken;

	if (!one_run(v, bench, n, cpl, 0, &nrec))
		return;
	fmt_snprintf(what, sizeof(what), "%s n=%llu cpl %d", bench,
		     (unsigned long long)n, cpl);
	nwant = bts_expected(&trace, 0, want);
	bts_check_records(v->t, what, v->m->rec, nrec, want, nwant);
	taken = bench_expect(b, SEM_TAKEN, n);
	check(v->t, !pmu_on_model() || (int64_t)nrec == taken, "%s: %u "
	      "records, the benchmark's formula gives %lld taken branches",
	      what, nrec, (long long)taken);
}

static void test_match(struct tcase *t)
{
	struct bts_env v;

	if (bts_begin(t, &v)) {
		match(&v, "branch-alternating", 9, 3);
		match(&v, "branch-alternating", 9, 0);
		match(&v, "counted-loop", 10, 3);
		match(&v, "counted-loop", 10, 0);
	}
	bts_end(&v);
}

TEST(bts_records_match, "bts/records-match-trace",
     "TR+BTS: one record {from, to} per taken branch, in order; none for a "
     "Jcc not taken", test_match, 0);

/* A walk over the records of the benchmark's own code: each CALL is
 * pushed with its return address (its next instruction, by the decoder's
 * length), and a RET must go to the address on top. */
struct call_walk {
	uint64_t stack[8];
	unsigned depth, calls, rets, bad;
};

static void walk_one(struct tcase *t, struct call_walk *w, unsigned i,
		     const struct bts_record *r)
{
	struct insn_class k = decode_insn((const uint8_t *)(uintptr_t)r->from);

	if ((k.flags & DEC_CALL) && w->depth < 8) {
		w->calls++;
		w->stack[w->depth++] = r->from + k.length;
		return;
	}
	if (!(k.flags & DEC_RET))
		return;
	w->rets++;
	/* the last RET leaves the benchmark: no CALL of its own */
	if (!w->depth || r->to == w->stack[--w->depth] || w->bad++)
		return;
	check(t, 0, "record %u: RET to 0x%llx, the CALL returns to 0x%llx", i,
	      (unsigned long long)r->to,
	      (unsigned long long)w->stack[w->depth]);
}

/* CALL records go to the callee, RET records back after the CALL; as many
 * of each as the benchmark's formulas say. */
static void test_call_ret(struct tcase *t)
{
	const struct bench *b = bench_find("call-ret");
	struct call_walk w = { .depth = 0 };
	unsigned nrec = 0, n = 10;
	int64_t calls, rets;
	struct bts_env v;

	if (!check(t, b != NULL, "no benchmark call-ret") ||
	    !bts_begin(t, &v) || !one_run(&v, "call-ret", n, 3, 0, &nrec))
		goto out;
	bts_check_records(t, "call-ret n=10", v.m->rec, nrec, want,
			  bts_expected(&trace, 0, want));
	for (unsigned i = 0; i < nrec; i++)
		if (in_bench(b, v.m->rec[i].from))
			walk_one(t, &w, i, &v.m->rec[i]);
	calls = bench_expect(b, SEM_CALLS, n);
	rets = bench_expect(b, SEM_RETURNS, n);
	value(t, "call_records", "%u", w.calls);
	value(t, "ret_records", "%u", w.rets);
	check(t, w.calls == calls && w.rets == rets, "%u CALL and %u RET "
	      "records in the benchmark; its formulas: %lld and %lld",
	      w.calls, w.rets, (long long)calls, (long long)rets);
	check(t, w.depth == 0, "%u CALL records without their RET", w.depth);
out:
	bts_end(&v);
}

TEST(bts_call_ret, "bts/call-ret",
     "CALL and RET records: to the callee, and back after the CALL",
     test_call_ret, 0);

/* Of the trace's branches at CPL cpl (1-3 alike), how many the rule keeps
 * under flags (bts_expected). */
static unsigned kept_at(uint64_t flags, int cpl)
{
	static struct bts_trace at;
	static struct bts_branch out[BTS_MAX_BRANCHES];

	at.n = 0;
	for (unsigned i = 0; i < trace.n; i++)
		if ((trace.b[i].cpl == 0) == (cpl == 0))
			at.b[at.n++] = trace.b[i];
	return bts_expected(&at, flags, out);
}

/* With flags, a run at the CPL they suppress leaves no record of the
 * benchmark (the model: none at all); one at the other CPL records all
 * its branches. */
static void off(struct tcase *t, uint64_t flags, int off_cpl, int on_cpl)
{
	const struct bench *b = bench_find("branch-alternating");
	unsigned nrec = 0, inside = 0, kept;
	char what[40];
	struct bts_env v;

	if (!check(t, b != NULL, "no benchmark branch-alternating") ||
	    !bts_begin(t, &v))
		goto out;
	if (!v.c->ds_cpl) {
		skip(t, "BTS_OFF_OS / BTS_OFF_USR need CPL-qualified BTS, "
		     "CPUID.01H:ECX.DS-CPL (bit 4), clear here (%s; "
		     "bts/refuse-off-without-ds-cpl checks the refusal)",
		     v.c->source);
		goto out;
	}
	if (!one_run(&v, "branch-alternating", 9, off_cpl, flags, &nrec))
		goto out;
	for (unsigned i = 0; i < nrec; i++)
		inside += in_bench(b, v.m->rec[i].from);
	value(t, bts_key(&v, "records"), "%u (%u from the benchmark)", nrec,
	      inside);
	/* the model: nothing but, under backend=emulated, the driver's
	 * branches at the other CPL, one for one; hardware: none from the
	 * benchmark */
	kept = bts_expected(&trace, flags, want);
	check(t, backend_model_backed() ? nrec == kept : inside == 0, "CPL %d "
	      "with DEBUGCTL 0x%llx: %u records (%u from the benchmark), "
	      "expected %s", off_cpl, (unsigned long long)flags, nrec, inside,
	      backend_model_backed() ? "the trace's at the other CPL" :
	      "none from the benchmark");
	if (backend_model_backed())
		bts_check_records(t, "suppressed CPL", v.m->rec, nrec, want,
				  kept);
	check(t, kept_at(flags, off_cpl) == 0, "the test's own rule keeps %u "
	      "of the CPL %d branches", kept_at(flags, off_cpl), off_cpl);
	if (!one_run(&v, "branch-alternating", 9, on_cpl, flags, &nrec))
		goto out;
	fmt_snprintf(what, sizeof(what), "CPL %d, DEBUGCTL 0x%llx", on_cpl,
		     (unsigned long long)flags);
	bts_check_records(t, what, v.m->rec, nrec, want,
			  bts_expected(&trace, flags, want));
	check(t, trace.n > 0, "no taken branch at CPL %d", on_cpl);
out:
	bts_end(&v);
}

static void test_off_os(struct tcase *t)
{
	off(t, SDM_DEBUGCTL_BTS_OFF_OS, 0, 3);
}

TEST(bts_off_os, "bts/off-os",
     "BTS_OFF_OS: no records at CPL 0, all at CPL 3", test_off_os, 0);

static void test_off_usr(struct tcase *t)
{
	off(t, SDM_DEBUGCTL_BTS_OFF_USR, 3, 0);
}

TEST(bts_off_usr, "bts/off-usr",
     "BTS_OFF_USR: no records at CPL 3, all at CPL 0", test_off_usr, 0);

/* TR alone: IA32_DEBUGCTL written directly (perfmon_bts_enable always
 * sets BTS too); the buffer and the index stay as they were. */
static void test_tr_only(struct tcase *t)
{
	const struct bench *b = bench_find("branch-alternating");
	trace_sink sink = backend_current()->sink;
	uint64_t before = 0, index;
	struct bts_env v;
	struct fault f = { 0 };
	int vec, rc;

	if (!check(t, b != NULL, "no benchmark branch-alternating") ||
	    !bts_begin(t, &v) || !need_bench_data(t, b) ||
	    !bts_install(&v, BTS_BUF_RECORDS, BTS_BUF_RECORDS - 1) ||
	    !check(t, be_rdmsr(MSR_IA32_DEBUGCTL, &before) == 0,
		   "RDMSR IA32_DEBUGCTL"))
		goto out;
	vec = be_wrmsr(MSR_IA32_DEBUGCTL, before | SDM_DEBUGCTL_TR);
	if (!check(t, vec == 0, "WRMSR IA32_DEBUGCTL TR: vector %d", vec))
		goto out;
	trace.model = sink;
	trace.n = 0;
	rc = bench_exec(b, 9, 3, NULL, sink ? bts_sink : NULL, &trace, &f);
	(void)be_wrmsr(MSR_IA32_DEBUGCTL, before);
	index = bts_index(&v);
	check(t, rc == 0, "branch-alternating: %d (vector %u)", rc, f.vector);
	value(t, "taken_branches", "%u%s", trace.n, sink ? "" :
	      " (hardware: not traced)");
	check(t, index == v.base, "BTS index moved to base+%lld with TR "
	      "alone", (long long)(index - v.base));
	bts_check_untouched(t, &v, 0, BTS_BUF_RECORDS + BTS_GUARD_RECORDS);
out:
	bts_end(&v);
}

TEST(bts_tr_only, "bts/tr-without-bts",
     "TR without BTS: branch messages go to the bus, nothing is stored",
     test_tr_only, 0);
