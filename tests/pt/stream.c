/* pt/stream-*, pt/cpl-filter, pt/cyc-thresh-*: the stream Intel PT writes
 * for a benchmark, decoded by lib/pt/decode.c and lib/pt/timing.c, is
 * what the SDM says the trace's steps make (pt_test.h states the rules
 * and cites them): every conditional branch a TNT bit with its outcome,
 * every compressed RET a taken TNT bit, every other RET and every
 * indirect branch a TIP to its target, in order; each branch at its
 * exact cycle or inside its bounds, exact where the SDM guarantees it
 * (pt_test.h: with CycThresh 0 every TIP and every TNT's first branch),
 * with CycThresh 0 some TNT holding several branches as on hardware, with
 * CycThresh > 0 the CYCs at least the threshold apart.  Every benchmark of the registry
 * runs, at CPL 3 and at CPL 0. */
#include "pt_test.h"
#include "../../arch/x86/ring3.h"

/* The group's one memory block (pt_test.h), kept for the run: the pt/
 * tests ask the firmware once. */
struct pt_mem *pt_test_mem(struct tcase *t)
{
	static struct pt_mem *m;

	if (!m)
		m = need_alloc(t, "the PT output region", sizeof(*m),
			       PT_OUT_BYTES);
	return m;
}

/* A small n: enough branches of each kind, few enough steps. */
static uint64_t small_n(const struct bench *b, uint64_t cap)
{
	return b->params[0] < cap ? b->params[0] : cap;
}

static uint64_t larger_n(const struct bench *b, uint64_t cap)
{
	return b->params[1] < cap ? b->params[1] : cap;
}

/* What one run's stream holds, for the log. */
struct tally {
	unsigned tnt, tip, compressed, psbs, cycs;
	unsigned joined;	/* decoded TNT branches after a TNT's first */
};

/* Runs b at n and cpl under c and checks its stream against the trace;
 * *s what it saw.  Returns 1 when it ran and matched. */
static int match(struct pt_env *v, const struct bench *b, uint64_t n,
		 int cpl, const struct pt_config *c, struct tally *s)
{
	struct pt_want *want = v->m->want;
	unsigned nwant;
	char what[64];
	int64_t cond, rets;
	unsigned conds = 0, ret_tips = 0;

	*s = (struct tally){ 0 };
	fmt_snprintf(what, sizeof(what), "%s n=%llu cpl %d", b->name,
		     (unsigned long long)n, cpl);
	if (cpl == 3 && !check(v->t, ring3_ready(), "ring 3 unavailable"))
		return 0;
	if (!pt_run(v, b, n, cpl, c))
		return 0;
	nwant = pt_sdm_expect(&v->m->tr, c, want, PT_MAX_STEPS,
			      &s->compressed);
	for (unsigned i = 0; i < nwant; i++) {
		s->tnt += want[i].kind == PT_W_TNT;
		s->tip += want[i].kind == PT_W_TIP;
		conds += !want[i].ret && want[i].kind == PT_W_TNT;
		ret_tips += want[i].ret && want[i].kind == PT_W_TIP;
	}
	if (!pt_check_packets(v, what, pt_sdm_thresh_cycles(c->cyc_thresh),
			      &s->psbs, &s->cycs))
		return 0;
	/* The RET rule above keeps one CALL/RET stack for the run: the
	 * stack restarts at a PSB (§36.3.7), so the model's stream of such
	 * a short run must have only the PSB+ of TraceEn. */
	if (pt_model_only(v, PT_MO_PSBS) &&
	    !check(v->t, s->psbs == 1, "%s: %u PSBs with PSBFreq %u in a "
		   "%llu-byte stream", what, s->psbs, c->psb_freq,
		   (unsigned long long)v->len))
		return 0;
	/* the trace against the benchmark's own formulas */
	cond = bench_expect(b, SEM_COND, n);
	rets = bench_expect(b, SEM_RETURNS, n);
	if (pt_sdm_traced(c, cpl) &&
	    (!check(v->t, cond < 0 || conds == (uint64_t)cond, "%s: %u "
		    "conditional branches in the trace, the formula says "
		    "%lld", what, conds, (long long)cond) ||
	     !check(v->t, rets < 0 || ret_tips + s->compressed ==
		    (uint64_t)rets, "%s: %u RETs in the trace, the formula "
		    "says %lld", what, ret_tips + s->compressed,
		    (long long)rets)))
		return 0;
	for (size_t i = 0; i < v->res.branches; i++)
		s->joined += pt_is_tnt(&v->m->br[i]) && v->m->br[i].bit > 0;
	pt_check_pge(v, what, c);
	pt_check_branches(v, what, want, nwant, c);
	check(v->t, v->res.errors == 0, "%s: %llu decode errors, the first "
	      "at offset %llu", what, (unsigned long long)v->res.errors,
	      (unsigned long long)v->res.first_error);
	return 1;
}

static void log_run(struct pt_env *v, const struct bench *b, int cpl,
		    const struct tally *s)
{
	char key[40];

	fmt_snprintf(key, sizeof(key), "%s_cpl%d", b->name, cpl);
	value(v->t, key, "%llu bytes, %llu steps, %u TNT bits (%u RETs "
	      "compressed, %u after a TNT's first), %u TIPs, %u CYCs, %llu "
	      "model cycles%s", (unsigned long long)v->len,
	      (unsigned long long)v->m->tr.steps, s->tnt, s->compressed,
	      s->joined, s->tip, s->cycs,
	      (unsigned long long)(v->m->tr.last_clock - v->m->tr.t0),
	      pmu_on_model() ? "" : " (hardware: not timed)");
}

/* Every benchmark whose data buffer is sized by free memory (sized != 0)
 * or not, at CPL 3 and CPL 0, under cfg with thresh. */
static void all_benches(struct tcase *t, int sized, int disretc)
{
	unsigned joined = 0, runs = 0;
	struct pt_env v;

	if (!pt_begin(t, &v))
		goto out;
	for (const struct bench *b = __benches_start; b < __benches_end;
	     b++) {
		if (!b->data_min != !sized)
			continue;
		for (int cpl = 3; cpl >= 0; cpl -= 3) {
			struct pt_config c = pt_config_for(&v, cpl, 0);
			struct tally s;

			if (disretc && cpl == 0)
				continue;
			c.disretc = disretc;
			if (!match(&v, b, small_n(b, 24), cpl, &c, &s))
				goto out;
			log_run(&v, b, cpl, &s);
			check(t, !disretc || !s.compressed, "DisRETC: %u RETs "
			      "compressed", s.compressed);
			joined += s.joined;
			runs++;
		}
	}
	/* CycThresh 0 does not give every branch a CYC: a TNT's CYC times
	 * its first branch (SDM 36.3.6.2), and hardware packs several
	 * branches into one TNT; so does the model, in a benchmark that
	 * retires Jccs in a row. */
	check(t, !pt_model_only(&v, PT_MO_JOINED) || !runs || joined > 0,
	      "CycThresh 0: no "
	      "TNT of %u runs holds more than one branch", runs);
out:
	pt_end(&v);
}

static void test_matches_trace(struct tcase *t)
{
	all_benches(t, 0, 0);
}

TEST(pt_stream_matches_trace, "pt/stream-matches-trace",
     "BranchEn+CYCEn, CycThresh 0: each benchmark's TNT bits, compressed "
     "RETs and TIPs are its trace's branches; TIPs and each TNT's first "
     "branch at their model cycle, later TNT branches in their bounds",
     test_matches_trace, 0);

/* Apart: its buffer depends on free memory, and where none can be had
 * (docs/reliability.md "Memory") only this test skips. */
static void test_sized_data(struct tcase *t)
{
	all_benches(t, 1, 0);
}

TEST(pt_stream_sized_data, "pt/stream-sized-data",
     "as pt/stream-matches-trace, for the benchmarks whose buffer is sized "
     "by free memory (pointer-chase)", test_sized_data, 0);

static void test_disretc(struct tcase *t)
{
	all_benches(t, 0, 1);
}

TEST(pt_stream_disretc, "pt/stream-disretc",
     "DisRETC: no RET is compressed, every RET is a TIP to its target",
     test_disretc, 0);

/* The CPL filter (§36.2.4.1): with only OS set nothing of a CPL 3 run is
 * traced, with only User nothing of a CPL 0 run.  The model sees the
 * benchmark alone: no branch, no TIP.PGE at all.  Hardware: no IP of the
 * benchmark in any TIP. */
static void filtered(struct pt_env *v, const struct bench *b, int cpl)
{
	struct pt_config c = pt_config_for(v, cpl, 0);
	uint64_t lo = (uint64_t)(uintptr_t)b->fn;
	uint64_t hi = (uint64_t)(uintptr_t)b->end;
	unsigned inside = 0, psbs, cycs;
	char what[48];

	c.os = cpl != 0;
	c.user = cpl == 0;
	fmt_snprintf(what, sizeof(what), "%s at CPL %d, %s only", b->name,
		     cpl, c.os ? "OS" : "User");
	if (cpl == 3 && !check(v->t, ring3_ready(), "ring 3 unavailable"))
		return;
	if (!pt_run(v, b, 9, cpl, &c) ||
	    !pt_check_packets(v, what, 0, &psbs, &cycs))
		return;
	for (size_t i = 0; i < v->res.branches; i++)
		inside += v->m->br[i].ip_valid && v->m->br[i].ip >= lo &&
			  v->m->br[i].ip < hi;
	value(v->t, pt_key(v, "filtered"), "%s: %llu bytes, %llu branches "
	      "(%u into the benchmark)", what, (unsigned long long)v->len,
	      (unsigned long long)v->res.branches, inside);
	check(v->t, pmu_on_model() ? v->res.branches == 0 : inside == 0, "%s: %llu "
	      "branches decoded (%u into the benchmark), expected none",
	      what, (unsigned long long)v->res.branches, inside);
	check(v->t, v->m->tr.steps > 0, "%s: no step ran", what);
}

static void test_cpl_filter(struct tcase *t)
{
	const struct bench *b = bench_find("branch-alternating");
	struct pt_env v;

	if (check(t, b != NULL, "no benchmark branch-alternating") &&
	    pt_begin(t, &v)) {
		filtered(&v, b, 3);
		filtered(&v, b, 0);
	}
	pt_end(&v);
}

TEST(pt_cpl_filter, "pt/cpl-filter",
     "OS only: nothing of a CPL 3 run is traced; User only: nothing of a "
     "CPL 0 run", test_cpl_filter, 0);

/* CycThresh thresh (§36.3.6.3): each branch in its bounds (exact where a
 * CYC precedes it), every CYC at least 2^(thresh-1) cycles after the last
 * and so at most cycles / 2^(thresh-1) of them. */
static void cyc_thresh(struct tcase *t, unsigned thresh)
{
	uint64_t min = pt_sdm_thresh_cycles(thresh);
	unsigned runs = 0, cycs = 0, exact = 0, bounded = 0;
	struct pt_env v;

	if (!pt_begin(t, &v))
		goto out;
	if (!(v.c->ebx0 & SDM_PT_EBX_PSB_CYC) ||
	    !(SDM_PT_CYC_BITMAP(v.c) >> thresh & 1)) {
		skip(t, "CycThresh %u not offered: CPUID.(EAX=14H,ECX=1):"
		     "EBX = 0x%x (14H.0 EBX[1] %u)", thresh, v.c->ebx1,
		     v.c->ebx0 >> 1 & 1);
		goto out;
	}
	for (const struct bench *b = __benches_start; b < __benches_end;
	     b++) {
		struct pt_config c = pt_config_for(&v, 3, thresh);
		uint64_t cycles;
		struct tally s;

		if (b->data_min)
			continue;
		if (!match(&v, b, larger_n(b, 100), 3, &c, &s))
			goto out;
		cycles = v.m->tr.last_clock - v.m->tr.t0;
		check(t, !pt_model_only(&v, PT_MO_CYCS) ||
		      s.cycs <= cycles / min, "%s: %u "
		      "CYCs in %llu cycles, CycThresh %u allows at most %llu",
		      b->name, s.cycs, (unsigned long long)cycles, thresh,
		      (unsigned long long)(cycles / min));
		/* the trace's branches: TIP.PGE and TIP.PGD aside */
		for (size_t i = 0; i < v.res.branches; i++) {
			const struct pt_branch *g = &v.m->br[i];

			if (g->type == PT_PKT_TIP_PGE ||
			    g->type == PT_PKT_TIP_PGD)
				continue;
			exact += g->exact;
			bounded += !g->exact;
		}
		cycs += s.cycs;
		runs++;
	}
	value(t, "runs", "%u benchmarks at CPL 3: %u CYCs, %u branches "
	      "exact, %u bounded", runs, cycs, exact, bounded);
	/* Each step is one model cycle: with a 1-cycle threshold every TIP
	 * and every TNT's first branch has its cycle's CYC (§36.3.6.3), as
	 * pt_check_branches() holds them; with more, some branches must be
	 * only bounded. */
	check(t, thresh == 1 || !pt_model_only(&v, PT_MO_BOUNDED) ||
	      bounded > 0, "CycThresh "
	      "%u: every branch exact", thresh);
out:
	pt_end(&v);
}

static void test_thresh_1(struct tcase *t)
{
	cyc_thresh(t, 1);
}

static void test_thresh_2(struct tcase *t)
{
	cyc_thresh(t, 2);
}

static void test_thresh_3(struct tcase *t)
{
	cyc_thresh(t, 3);
}

static void test_thresh_5(struct tcase *t)
{
	cyc_thresh(t, 5);
}

TEST(pt_cyc_thresh_1, "pt/cyc-thresh-1",
     "CycThresh 1 (1 cycle): every TIP and TNT's first branch exact, the "
     "rest in their bounds, one CYC per cycle at most",
     test_thresh_1, 0);
TEST(pt_cyc_thresh_2, "pt/cyc-thresh-2",
     "CycThresh 2 (2 cycles): branches in their [last CYC, next CYC) "
     "bounds, CYCs at least 2 cycles apart", test_thresh_2, 0);
TEST(pt_cyc_thresh_3, "pt/cyc-thresh-3",
     "CycThresh 3 (4 cycles): branches in their bounds, CYCs at least 4 "
     "cycles apart", test_thresh_3, 0);
TEST(pt_cyc_thresh_5, "pt/cyc-thresh-5",
     "CycThresh 5 (16 cycles): branches in their bounds, CYCs at least 16 "
     "cycles apart", test_thresh_5, 0);

/* ---- pt/mtc, pt/tsc: the timing packets next to the branches */

/* The MTCFreq to use: the smallest offered of at least 2 (an MTC every
 * 4 cycles or more), else the smallest offered. */
static int mtc_freq(const struct pt_caps *c)
{
	unsigned bm = SDM_PT_MTC_BITMAP(c);

	for (unsigned f = 2; f < 16; f++)
		if (bm >> f & 1)
			return (int)f;
	for (unsigned f = 0; f < 2; f++)
		if (bm >> f & 1)
			return (int)f;
	return -1;
}

/* MTCEn with MTCFreq F (Table 36-6, §36.4.2.16 Table 36-31): an MTC each
 * time ART bit F toggles, its payload CTC = ART[F+7:F], so each MTC's
 * payload is the last one's plus 1 (mod 256).  The model's crystal clock
 * (its ART) is the model clock (docs/pt.md): as many MTCs as bit F of the
 * model clock toggled between TraceEn and the last step, the first
 * carrying ((clock at TraceEn >> F) + 1) & 0xff.  The branches keep their
 * times. */
static void test_mtc(struct tcase *t)
{
	const struct bench *b = bench_find("counted-loop");
	unsigned mtcs = 0, last = 0, bad = 0;
	uint64_t first = 0, toggles;
	struct pt_config c;
	struct pt_env v;
	struct tally s;
	struct pt_dec d;
	struct pt_pkt k;
	int f;

	if (!check(t, b != NULL, "no benchmark counted-loop") ||
	    !pt_begin(t, &v))
		goto out;
	f = mtc_freq(v.c);
	if (!(v.c->ebx0 & SDM_PT_EBX_MTC) || f < 0) {
		skip(t, "no MTC: CPUID.(EAX=14H,ECX=0):EBX[3] = %u, MTC "
		     "periods 0x%x", v.c->ebx0 >> 3 & 1, SDM_PT_MTC_BITMAP(v.c));
		goto out;
	}
	c = pt_config_for(&v, 3, 0);
	c.mtc = 1;
	c.mtc_freq = (unsigned)f;
	if (!match(&v, b, 100, 3, &c, &s))
		goto out;
	pt_dec_init(&d, v.m->out, v.len);
	while (pt_dec_next(&d, &k) != PT_PKT_NONE) {
		if (k.type != PT_PKT_MTC)
			continue;
		if (!mtcs++)
			first = k.payload;
		else
			bad += k.payload != ((last + 1) & 0xff);
		last = (unsigned)k.payload;
	}
	toggles = (v.m->tr.last_clock >> f) - (v.m->tr.t0 >> f);
	value(t, "mtc", "MTCFreq %d: %u MTCs, the first 0x%llx; model clock "
	      "%llu..%llu, bit %d toggled %llu times", f, mtcs,
	      (unsigned long long)first, (unsigned long long)v.m->tr.t0,
	      (unsigned long long)v.m->tr.last_clock, f,
	      (unsigned long long)toggles);
	check(t, mtcs > 0, "no MTC in %llu model cycles with MTCFreq %d",
	      (unsigned long long)(v.m->tr.last_clock - v.m->tr.t0), f);
	check(t, !pt_model_only(&v, PT_MO_MTC) || !bad, "%u MTCs whose "
	      "CTC is not the last one's + 1", bad);
	check(t, !pt_model_only(&v, PT_MO_MTC) || (mtcs == toggles &&
	      first == (((v.m->tr.t0 >> f) + 1) & 0xff)), "%u MTCs, the "
	      "first CTC 0x%llx; the model clock's bit %d toggled %llu times "
	      "from %llu, first to CTC 0x%llx", mtcs,
	      (unsigned long long)first, f, (unsigned long long)toggles,
	      (unsigned long long)v.m->tr.t0,
	      (unsigned long long)(((v.m->tr.t0 >> f) + 1) & 0xff));
out:
	pt_end(&v);
}

TEST(pt_mtc, "pt/mtc",
     "MTCEn: one MTC each time ART bit MTCFreq toggles, its CTC one more "
     "than the last; branch times unchanged", test_mtc, 0);

/* TSCEn (Table 36-50 row 2b, §36.4.2.11-12): the PSB+ at TraceEn holds a
 * TSC, and with MTCEn a TMA right after it.  The model's TSC and crystal
 * clock are its clock (docs/pt.md): TSC = the model clock at TraceEn
 * (bits 55:0), TMA CTC = its bits 15:0 and FastCounter 0. */
static void test_tsc(struct tcase *t)
{
	const struct bench *b = bench_find("branch-alternating");
	int f, mtc, tsc_at = -1, tma_at = -1, i = 0;
	struct pt_pkt k, tsc = { 0 }, tma = { 0 };
	struct pt_config c;
	struct pt_env v;
	struct tally s;
	struct pt_dec d;
	uint64_t t0;

	if (!check(t, b != NULL, "no benchmark branch-alternating") ||
	    !pt_begin(t, &v))
		goto out;
	f = mtc_freq(v.c);
	mtc = (v.c->ebx0 & SDM_PT_EBX_MTC) && f >= 0;
	c = pt_config_for(&v, 3, 0);
	c.tsc = 1;
	c.mtc = (unsigned)mtc;
	c.mtc_freq = mtc ? (unsigned)f : 0;
	if (!match(&v, b, 9, 3, &c, &s))
		goto out;
	pt_dec_init(&d, v.m->out, v.len);
	while (pt_dec_next(&d, &k) != PT_PKT_NONE && k.type != PT_PKT_PSBEND) {
		if (k.type == PT_PKT_TSC && tsc_at < 0) {
			tsc_at = i;
			tsc = k;
		}
		if (k.type == PT_PKT_TMA && tma_at < 0) {
			tma_at = i;
			tma = k;
		}
		i++;
	}
	t0 = v.m->tr.t0;
	value(t, "psb_plus", "TSC 0x%llx (packet %d), TMA ctc 0x%llx fc "
	      "0x%x (packet %d), model clock at TraceEn %llu",
	      (unsigned long long)tsc.payload, tsc_at,
	      (unsigned long long)tma.payload, tma.fc, tma_at,
	      (unsigned long long)t0);
	if (!check(t, tsc_at > 0, "no TSC in the PSB+ of TraceEn with TSCEn"))
		goto out;
	check(t, mtc ? tma_at == tsc_at + 1 : tma_at < 0, "TMA at packet %d, "
	      "TSC at %d: with MTCEn %d a TMA %s", tma_at, tsc_at, mtc,
	      mtc ? "right after the TSC" : "none");
	check(t, !pt_model_only(&v, PT_MO_TSC) ||
	      tsc.payload == (t0 & ((1ull << 56) - 1)),
	      "TSC 0x%llx, the model clock at TraceEn %llu",
	      (unsigned long long)tsc.payload, (unsigned long long)t0);
	check(t, !pt_model_only(&v, PT_MO_TSC) || !mtc ||
	      (tma.payload == (t0 & 0xffff) &&
	      tma.fc == 0), "TMA CTC 0x%llx FC 0x%x, the model clock at "
	      "TraceEn %llu (CTC its bits 15:0, FC 0)",
	      (unsigned long long)tma.payload, tma.fc,
	      (unsigned long long)t0);
out:
	pt_end(&v);
}

TEST(pt_tsc, "pt/tsc",
     "TSCEn: a TSC in the PSB+ of TraceEn (with MTCEn a TMA after it); "
     "branch times unchanged", test_tsc, 0);
