/* pt/stream-*, pt/cpl-filter, pt/cyc-thresh-*: the stream Intel PT writes
 * for a benchmark, decoded by lib/pt/decode.c and lib/pt/timing.c, is
 * what the SDM says the trace's steps make (the rules below, with their
 * citations): every conditional branch a TNT bit with its outcome,
 * every compressed RET a taken TNT bit, every other RET and every
 * indirect branch a TIP to its target, in order; each branch at its
 * exact cycle or inside its bounds, exact where the SDM guarantees it
 * (below: with CycThresh 0 every TIP and every TNT's first branch),
 * with CycThresh 0 some TNT holding several branches as on hardware, with
 * CycThresh > 0 the CYCs at least the threshold apart.  Every benchmark of the registry
 * runs, at CPL 3 and at CPL 0. */
#include "pt_test.h"
#include "../../arch/x86/ring3.h"

/* ---- the stream rules: the packets the SDM says a run's steps make,
 * written out here from Intel SDM Vol. 3C, order no. 326019-060US,
 * chapter 36, rather than taken from the driver, the model or its
 * generator (pmu/pt*.c), so that a wrong rule there cannot make an
 * expectation wrong too:
 *
 *   - a conditional branch (Jcc, JrCXZ, LOOP) is one TNT bit, 1 = taken
 *     (§36.4.2.1, Table 36-16);
 *   - a near RET whose target is the next IP of the CALL on top of the
 *     CALL/RET stack (64 entries, the oldest dropped; zero-length CALLs
 *     are not pushed) is "compressed": one TNT bit, taken; every other
 *     RET, and every RET with DisRETC set, is a TIP to its target
 *     (§36.4.2.2 "Indirect Transfer Compression for Returns (RET)",
 *     IA32_RTIT_CTL.DisRETC in Table 36-6); the stack holds CALLs of this
 *     run only (it starts empty at TraceEn);
 *   - an indirect near JMP or CALL, and a far transfer, is a TIP to the
 *     target (§36.2.1.2 "Indirect Transfer COFI", §36.2.1.3);
 *   - a direct near JMP or CALL makes no packet (§36.2.1.1);
 *   - a branch is traced when the CPL it ran at is one IA32_RTIT_CTL.OS
 *     (CPL 0) or .User (CPL > 0) selects (§36.2.4.1);
 *   - cycle-accurate mode (§36.3.6.2, §36.4.2.14 Table 36-33): with
 *     CycThresh 0 "a CYC packet will be generated in any cycle in which
 *     any CYC-eligible packet is generated" and precedes that cycle's
 *     packets; a TIP is CYC-eligible, and a TNT's CYC "applies to the
 *     first branch in the TNT packet", so a TIP and the first branch of a
 *     TNT are timed exactly when no earlier branch shares their cycle
 *     (CycThresh 1, one cycle, lets every new cycle have its CYC too:
 *     §36.3.6.3).  Every other branch - the later branches of a TNT
 *     (hardware packs several into one TNT: Intel's libipt test stream
 *     ptxed-tick has "cyc(4) tnt(t.n)"), all branches with CycThresh > 1
 *     - is only bounded: "at or after the last CYC time, and before the
 *     next CYC time".  An exact time must be the branch's, a bound must
 *     hold it; with CycThresh > 0 two CYCs are at least 2^(CycThresh-1)
 *     cycles apart (§36.3.6.3).
 *
 * The time of a step is what the model's cycle counter says: the model
 * clock after the step (pmu/model.h), minus the model clock when TraceEn
 * was set (docs/pt.md "The model's stream"). */

/* Is a step at cpl traced (§36.2.4.1: OS selects CPL 0, User CPL > 0)? */
static int pt_sdm_traced(const struct pt_config *c, unsigned cpl)
{
	return cpl == 0 ? !!c->os : !!c->user;
}

/* Cycles CycThresh v stands for (§36.2.7.2, Table 36-6: 0 no threshold,
 * else 2^(v-1)). */
static uint64_t pt_sdm_thresh_cycles(unsigned v)
{
	return v ? 1ull << (v - 1) : 0;
}

/* The packets the trace's steps make under c, in order, into out[0, max):
 * returns how many; *compressed counts the RETs that became TNT bits. */
static unsigned pt_sdm_expect(const struct pt_trace *tr,
			      const struct pt_config *c, struct pt_want *out,
			      unsigned max, unsigned *compressed)
{
	uint64_t stack[64];		/* the CALL/RET stack (§36.4.2.2) */
	unsigned depth = 0, n = 0;

	*compressed = 0;
	for (unsigned i = 0; i < tr->n && n < max; i++) {
		const struct pt_step *s = &tr->s[i];
		struct pt_want w = { PT_W_TIP, 0, 0, s->next_rip, s->rip,
				     s->clock - tr->t0 };

		if (!pt_sdm_traced(c, s->cpl))
			continue;
		if (s->flags & DEC_FAR) {
			out[n++] = w;
		} else if (s->flags & DEC_COND) {
			w.kind = PT_W_TNT;
			w.taken = !!(s->flags & EV_TAKEN);
			out[n++] = w;
		} else if (s->flags & DEC_RET) {
			w.ret = 1;
			if (depth && stack[depth - 1] == s->next_rip &&
			    !c->disretc) {
				w.kind = PT_W_TNT;
				w.taken = 1;
				++*compressed;
			}
			if (depth)
				depth--;
			out[n++] = w;
		} else if (s->flags & DEC_CALL) {
			if (s->flags & DEC_INDIRECT)
				out[n++] = w;
			/* a zero-length CALL (to its own next IP) is not
			 * pushed: it has no RET */
			if ((s->flags & DEC_INDIRECT) ||
			    s->next_rip != s->ret_addr) {
				if (depth == 64) {
					memmove(stack, stack + 1,
						sizeof(stack) - sizeof(*stack));
					depth--;
				}
				stack[depth++] = s->ret_addr;
			}
		} else if (s->flags & DEC_INDIRECT) {
			out[n++] = w;	/* JMP through a register/memory */
		}
	}
	return n;
}

/* ---- checks that hold only on the model (see the top of pt_test.h) */

enum {
	PT_MO_TIMES, PT_MO_PGE, PT_MO_PSBS, PT_MO_JOINED, PT_MO_CYCS,
	PT_MO_BOUNDED, PT_MO_MTC, PT_MO_TSC, PT_MO_COUNT
};

/* Each: the YAML key, and why the hardware path cannot make it. */
static const struct {
	const char *key, *why;
} pt_model_only_parts[PT_MO_COUNT] = {
	[PT_MO_TIMES] = { "not_checked_times", "branch times against the "
			  "model clock: the CYCs count this machine's core "
			  "clocks, the trace's steps carry none" },
	[PT_MO_PGE] = { "not_checked_pge", "the TIP.PGE at the benchmark's "
			"first step: PacketEn comes on in the driver's code "
			"after the enabling WRMSR (SDM 36.2.5.1)" },
	[PT_MO_PSBS] = { "not_checked_psbs", "one PSB+ per run: the driver's "
			 "code is traced too, and PSBs follow the bytes of "
			 "all of it (PSBFreq, SDM Table 36-6)" },
	[PT_MO_JOINED] = { "not_checked_tnt_packing", "a TNT with several "
			   "branches: how many a TNT packs is the CPU's "
			   "choice (SDM 36.4.2.1)" },
	[PT_MO_CYCS] = { "not_checked_cyc_count", "at most cycles / "
			 "2^(CycThresh-1) CYCs: the run's cycles are not the "
			 "model clock's" },
	[PT_MO_BOUNDED] = { "not_checked_bounded", "some branch only "
			    "bounded: certain where each step is one model "
			    "cycle, not on a CPU" },
	[PT_MO_MTC] = { "not_checked_mtc_clock", "the MTCs against bit "
			"MTCFreq of the model clock: this machine's crystal "
			"clock is not the model's" },
	[PT_MO_TSC] = { "not_checked_tsc_clock", "TSC and TMA against the "
			"model clock at TraceEn: this machine's clocks are "
			"not the model's" },
};

/* Is the model-only check `part` to be made?  Under the model 1; on the
 * hardware path 0, the part logged once per test as not checked with
 * its reason (a part skipped, never silently). */
static int pt_model_only(struct pt_env *v, unsigned part)
{
	if (pmu_on_model())
		return 1;
	if (!(v->model_only & 1u << part)) {
		v->model_only |= 1u << part;
		value(v->t, pt_model_only_parts[part].key, "hardware path: %s",
		      pt_model_only_parts[part].why);
	}
	return 0;
}

/* ---- comparing */

static int pt_is_tnt(const struct pt_branch *g)
{
	return g->type == PT_PKT_TNT8 || g->type == PT_PKT_TNT64;
}

/* Does decoded branch g carry what w says (kind, outcome or target)?
 * With hw, a RET may be either a compressed one (a taken TNT bit, unless
 * disretc) or a TIP to its target (w->ip, its next IP): the hardware's
 * CALL/RET stack holds the harness's CALLs too and restarts at a PSB. */
static int pt_same(const struct pt_branch *g, const struct pt_want *w, int hw,
		   int disretc)
{
	if (hw && w->ret)
		return (pt_is_tnt(g) && g->taken && !disretc) ||
		       (g->type == PT_PKT_TIP && g->ip_valid &&
			g->ip == w->ip);
	if (pt_is_tnt(g) && w->kind == PT_W_TNT)
		return g->taken == w->taken;
	if (g->type == PT_PKT_TIP && w->kind == PT_W_TIP)
		return g->ip_valid && g->ip == w->ip;
	return 0;
}

static const char *pt_want_str(const struct pt_want *w, char *buf,
			       unsigned size)
{
	if (w->kind == PT_W_TNT)
		fmt_snprintf(buf, size, "%s at 0x%llx: TNT %c", w->ret ?
			     "RET" : "Jcc", (unsigned long long)w->rip,
			     w->taken ? 'T' : 'N');
	else
		fmt_snprintf(buf, size, "%s at 0x%llx: TIP 0x%llx", w->ret ?
			     "RET" : "branch", (unsigned long long)w->rip,
			     (unsigned long long)w->ip);
	return buf;
}

static const char *pt_got_str(const struct pt_branch *g, char *buf,
			      unsigned size)
{
	if (pt_is_tnt(g))
		fmt_snprintf(buf, size, "offset %llu TNT bit %u %c",
			     (unsigned long long)g->offset, g->bit,
			     g->taken ? 'T' : 'N');
	else
		fmt_snprintf(buf, size, "offset %llu %s 0x%llx",
			     (unsigned long long)g->offset,
			     pt_pkt_name((enum pt_pkt_type)g->type),
			     (unsigned long long)g->ip);
	return buf;
}

/* Must g, the trace's branch want[j], have an exact time (the rules
 * above)?  A TIP or a TNT's first branch, with CycThresh 0 or 1,
 * when the trace's previous branch retired in an earlier cycle. */
static int pt_must_be_exact(const struct pt_branch *g,
			    const struct pt_want *want, unsigned j,
			    unsigned thresh)
{
	if (pt_sdm_thresh_cycles(thresh) > 1 ||
	    (j && want[j - 1].time == want[j].time))
		return 0;
	return g->type == PT_PKT_TIP || (pt_is_tnt(g) && g->bit == 0);
}

/* The time rule: an exact time equal to the branch's; a bound [time, hi)
 * holding it, where the SDM guarantees no exact time. */
static int pt_time_ok(const struct pt_branch *g, const struct pt_want *want,
		      unsigned j, unsigned thresh)
{
	if (g->exact)
		return g->time == want[j].time && g->hi == g->time;
	if (pt_must_be_exact(g, want, j, thresh))
		return 0;
	return g->time <= want[j].time &&
	       (g->hi == PT_TIME_OPEN || want[j].time < g->hi);
}

/* Hardware path: the index of the first decoded branch after the first
 * TIP to the entry of v's benchmark (see the top of pt_test.h), or the
 * number of branches when there is none. */
static size_t pt_bench_part(const struct pt_env *v)
{
	uint64_t entry = (uint64_t)(uintptr_t)v->bench->fn;

	for (size_t i = 0; i < v->res.branches; i++) {
		const struct pt_branch *g = &v->m->br[i];

		if (g->type == PT_PKT_TIP && g->ip_valid && g->ip == entry)
			return i + 1;
	}
	return v->res.branches;
}

/* The decoded branches of v's last run (TIP.PGE and TIP.PGD aside) are
 * want[0, nwant), one for one: under the model the whole stream, with
 * their times; on the hardware path the benchmark's part, from the TIP
 * to its entry on (the driver's packets around it are the CPU's), times
 * not compared (pt_model_only()). */
static void pt_check_branches(struct pt_env *v, const char *what,
			      const struct pt_want *want, unsigned nwant,
			      const struct pt_config *c)
{
	const struct pt_branch *br = v->m->br;
	int hw = !pmu_on_model(), open = 0;
	unsigned thresh = c->cyc_thresh;
	char gs[64], ws[80];
	unsigned j = 0;
	size_t i = 0;

	if (hw) {
		i = pt_bench_part(v);
		(void)pt_model_only(v, PT_MO_TIMES);
		if (!check(v->t, i < v->res.branches || !nwant, "%s: no TIP "
			   "to the benchmark's entry 0x%llx in the %llu "
			   "decoded branches (it is called through a "
			   "pointer: SDM 36.2.1.2)", what,
			   (unsigned long long)(uintptr_t)v->bench->fn,
			   (unsigned long long)v->res.branches))
			return;
	}
	for (; i < v->res.branches && !(hw && j == nwant); i++) {
		const struct pt_branch *g = &br[i];

		if (g->type == PT_PKT_TIP_PGE || g->type == PT_PKT_TIP_PGD)
			continue;
		if (!check(v->t, j < nwant, "%s: %s: the trace has no more "
			   "branches (%u)", what, pt_got_str(g, gs,
							     sizeof(gs)),
			   nwant) ||
		    !check(v->t, pt_same(g, &want[j], hw, c->disretc),
			   "%s: branch %u: %s, the SDM says %s", what, j,
			   pt_got_str(g, gs, sizeof(gs)),
			   pt_want_str(&want[j], ws, sizeof(ws))) ||
		    !check(v->t, hw || (pt_time_ok(g, want, j, thresh) &&
			   !(open && g->hi != PT_TIME_OPEN)),
			   "%s: branch %u (%s): time %s%llu hi %lld, the "
			   "model clock says %llu (CycThresh %u)", what, j,
			   pt_got_str(g, gs, sizeof(gs)),
			   g->exact ? "" : "lo ", (unsigned long long)g->time,
			   g->hi == PT_TIME_OPEN ? -1ll : (long long)g->hi,
			   (unsigned long long)want[j].time, thresh))
			return;
		open = g->hi == PT_TIME_OPEN && !g->exact;
		j++;
	}
	check(v->t, j == nwant, "%s: %u of the trace's %u branches %s", what,
	      j, nwant, hw ? "follow the TIP to the benchmark's entry "
	      "(hardware path)" : "are in the stream");
}

/* Under the model the first TIP.PGE goes to the first traced step
 * (PacketEn comes on there: §36.2.5.1, §36.4.2.3), and there is none when
 * no step was traced.  (Hardware: PacketEn comes on in the harness's own
 * code after the WRMSR.) */
static void pt_check_pge(struct pt_env *v, const char *what,
			 const struct pt_config *c)
{
	const struct pt_trace *tr = &v->m->tr;
	uint64_t first = 0;
	int traced = 0;
	size_t i;

	if (!pt_model_only(v, PT_MO_PGE))
		return;
	for (unsigned cpl = 0; cpl < 4; cpl++)
		if (tr->steps_at[cpl] && pt_sdm_traced(c, cpl)) {
			traced = 1;
			first = tr->first_rip[cpl];
		}
	for (i = 0; i < v->res.branches; i++)
		if (v->m->br[i].type == PT_PKT_TIP_PGE)
			break;
	if (!traced) {
		check(v->t, i == v->res.branches, "%s: a TIP.PGE although no step ran "
		      "at a CPL the config traces", what);
		return;
	}
	check(v->t, i < v->res.branches && v->m->br[i].ip_valid &&
	      v->m->br[i].ip == first, "%s: TIP.PGE %s0x%llx, the first "
	      "traced step is at 0x%llx", what, i < v->res.branches ? "" : "(none) ",
	      i < v->res.branches ? (unsigned long long)v->m->br[i].ip : 0ull,
	      (unsigned long long)first);
}

/* ---- the tests */

/* "run<N>_<name>": keys stay unique when a test runs several times. */
static const char *pt_key(const struct pt_env *v, const char *name)
{
	static char buf[48];

	fmt_snprintf(buf, sizeof(buf), "run%u_%s", v->runs, name);
	return buf;
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
