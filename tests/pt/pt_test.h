/* pt_test: what the pt/ tests share - a single-range output region, a
 * benchmark run with Intel PT on while the trace records the same steps,
 * and the packets the SDM says those steps make, written out here from
 * Intel SDM Vol. 3C, order no. 326019-060US, chapter 36, rather than taken
 * from the driver, the model or its generator (pmu/pt*.c), so that a wrong
 * rule there cannot make an expectation wrong too:
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
 * was set (docs/pt.md "The model's stream").
 *
 * Under the model backend the benchmark runs single-stepped into
 * pt_sink(): the model (the backend's sink) first, then the record of the
 * same step, so the stream must hold exactly the trace's branches, one for
 * one, with their times.
 *
 * On the hardware path (pmu_on_model() false: backend=hw, and
 * backend=emulated, whose model traces every instruction from the
 * enabling WRMSR to the disabling one as silicon does) the trace runs
 * first with PT off, then the benchmark at full speed with PT on.  The
 * stream then also holds the driver's and the harness's code around the
 * benchmark, at the CPLs the config traces (§36.2.4.1 filters by CPL, not
 * by routine).  The benchmark's part is found by its IP: it is entered
 * through a pointer (an indirect CALL: a TIP to its entry, §36.2.1.2) with
 * maskable interrupts off (bench/oracle.c full_speed, ring3_run), so after
 * the first TIP to its entry come its branches, one for one, and then the
 * harness's.  A RET there may be a taken TNT bit or a TIP to its target
 * whatever the trace's stack says (unless DisRETC: a TIP): the hardware's
 * CALL/RET stack also holds the harness's CALLs and restarts at every PSB
 * (§36.3.7), neither of which the trace sees.  What holds only on the
 * model (times against the model clock, the TIP.PGE's IP, ...) is not
 * checked there, and the log says so (pt_model_only()). */
#ifndef TESTS_PT_PT_TEST_H
#define TESTS_PT_PT_TEST_H

#include "../../harness/pmu_run.h"
#include "../../harness/need.h"
#include "../../pmu/backend.h"
#include "../../pmu/model.h"
#include "../../pmu/pt/regs.h"
#include "../../pmu/pt/caps.h"
#include "../../pmu/pt/driver.h"
#include "../../bench/oracle.h"
#include "../../arch/x86/decode.h"
#include "../../lib/pt/packet.h"
#include "../../lib/pt/timing.h"
#include "../../arch/x86/trap.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

/* ---- CPUID leaf 14H as §36.3.1 (Table 36-11 of this revision) defines
 * it: sub-leaf 0 EBX/ECX feature bits, sub-leaf 1 the encodings. */
#define SDM_PT_EBX_CR3FILTER (1u << 0)
#define SDM_PT_EBX_PSB_CYC (1u << 1)	/* PSBFreq, CYCEn, CycThresh */
#define SDM_PT_EBX_MTC (1u << 3)
#define SDM_PT_EBX_PTWRITE (1u << 4)
#define SDM_PT_EBX_POWER (1u << 5)
#define SDM_PT_ECX_TOPA (1u << 0)
#define SDM_PT_ECX_SINGLE (1u << 2)
#define SDM_PT_ECX_TRANSPORT (1u << 3)
/* sub-leaf 1: EAX[2:0] address ranges, EAX[31:16] MTC period (MTCFreq)
 * bitmap, EBX[15:0] CycThresh bitmap, EBX[31:16] PSBFreq bitmap */
#define SDM_PT_RANGES(c) ((c)->eax1 & 7u)
#define SDM_PT_MTC_BITMAP(c) ((c)->eax1 >> 16)
#define SDM_PT_CYC_BITMAP(c) ((c)->ebx1 & 0xffffu)
#define SDM_PT_PSB_BITMAP(c) ((c)->ebx1 >> 16)

/* IA32_RTIT_CTL (Table 36-6): the fields this file writes itself. */
#define SDM_CTL_TRACEEN (1ull << 0)
#define SDM_CTL_CYCEN (1ull << 1)
#define SDM_CTL_DISRETC (1ull << 11)
#define SDM_CTL_MTCEN (1ull << 9)
#define SDM_CTL_CYCTHRESH_SHIFT 19	/* bits 22:19 */
#define SDM_CTL_PSBFREQ_SHIFT 24	/* bits 27:24 */
#define SDM_CTL_MTCFREQ_SHIFT 14	/* bits 17:14 */
/* IA32_RTIT_STATUS (Table 36-7) */
#define SDM_STATUS_CONTEXTEN (1ull << 1)
#define SDM_STATUS_TRIGGEREN (1ull << 2)
#define SDM_STATUS_ERROR (1ull << 4)
#define SDM_STATUS_STOPPED (1ull << 5)

/* The output region: a power of two, aligned to its size (§36.2.7.7: the
 * base of a single range is aligned with its size). */
#define PT_OUT_BYTES (64u * 1024)
#define PT_GUARD_BYTE 0xa5
#define PT_MAX_STEPS 2048u		/* branch steps one run keeps */
#define PT_MAX_BRANCHES 2048u		/* decoded branches one run keeps */

/* One branch step of the trace (any near branch or far transfer). */
struct pt_step {
	uint64_t rip, next_rip;
	uint64_t ret_addr;		/* CALL: its next IP (rip + length) */
	uint64_t clock;			/* model clock after the step */
	uint16_t flags;			/* DEC_* | EV_* */
	uint8_t cpl;
};

/* The trace of one run. */
struct pt_trace {
	trace_sink model;		/* the backend's sink, fed first */
	uint64_t t0;			/* model clock when TraceEn was set */
	uint64_t steps;			/* every step of the run */
	uint64_t first_rip[4];		/* per CPL: the first step's RIP */
	uint64_t steps_at[4];		/* per CPL: steps */
	uint64_t last_clock;		/* model clock after the last step */
	struct pt_step s[PT_MAX_STEPS];
	unsigned n;
	uint64_t lost;
};

/* What the SDM says one traced branch step makes. */
enum { PT_W_TNT, PT_W_TIP };
struct pt_want {
	uint8_t kind;			/* PT_W_TNT or PT_W_TIP */
	uint8_t taken;			/* TNT: the outcome */
	uint8_t ret;			/* a near RET */
	uint64_t ip;			/* TIP: the target */
	uint64_t rip;			/* the branch, for messages */
	uint64_t time;			/* its cycle time (the model) */
};

/* One memory block for the whole group (tests/pt/stream.c). */
struct pt_mem {
	uint8_t out[PT_OUT_BYTES];	/* the output region: first, so that
					 * it has the block's alignment */
	struct pt_branch br[PT_MAX_BRANCHES];
	struct pt_branch br2[PT_MAX_BRANCHES];	/* a second decode */
	struct pt_want want[PT_MAX_STEPS];
	struct pt_trace tr;
};
struct pt_mem *pt_test_mem(struct tcase *t);

struct pt_env {
	struct tcase *t;
	const struct pt_caps *c;
	struct pt_mem *m;
	uint64_t base;			/* of the output region */
	uint64_t len;			/* bytes written by the last run */
	unsigned runs;			/* pt_run()s so far: YAML keys */
	int steps_only;			/* pt_run: the trace need not keep
					 * every branch step (the stream is
					 * not compared with it) */
	unsigned errata;		/* PT_ERRATUM_* of this CPU: the
					 * decoder's workarounds */
	const struct bench *bench;	/* of the last pt_run() */
	unsigned model_only;		/* PT_MO_* already logged */
	struct pt_timing_result res;
};

/* ---- checks that hold only on the model (see the top of this file) */

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
static inline int pt_model_only(struct pt_env *v, unsigned part)
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

/* ---- the stream rules, from the SDM (see the top of this file) */

/* Is a step at cpl traced (§36.2.4.1: OS selects CPL 0, User CPL > 0)? */
static inline int pt_sdm_traced(const struct pt_config *c, unsigned cpl)
{
	return cpl == 0 ? !!c->os : !!c->user;
}

/* Cycles CycThresh v stands for (§36.2.7.2, Table 36-6: 0 no threshold,
 * else 2^(v-1)). */
static inline uint64_t pt_sdm_thresh_cycles(unsigned v)
{
	return v ? 1ull << (v - 1) : 0;
}

/* The packets the trace's steps make under c, in order, into out[0, max):
 * returns how many; *compressed counts the RETs that became TNT bits. */
static inline unsigned pt_sdm_expect(const struct pt_trace *tr,
				     const struct pt_config *c,
				     struct pt_want *out, unsigned max,
				     unsigned *compressed)
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

/* Records the step after the model saw it (the backend's sink first). */
static inline void pt_sink(const struct insn_event *e, void *ctx)
{
	struct pt_trace *tr = ctx;
	struct pt_step *s;
	unsigned cpl = e->cpl & 3;

	if (tr->model)
		tr->model(e, NULL);
	tr->steps++;
	if (!tr->steps_at[cpl]++)
		tr->first_rip[cpl] = e->rip;
	if (tr->model)
		tr->last_clock = model_clock();
	if (!(e->flags & (DEC_BRANCH | DEC_FAR)))
		return;
	if (tr->n == PT_MAX_STEPS) {
		tr->lost++;
		return;
	}
	s = &tr->s[tr->n++];
	*s = (struct pt_step){ e->rip, e->next_rip, 0, tr->last_clock,
			       e->flags, cpl };
	if (e->flags & DEC_CALL)
		s->ret_addr = e->rip +
			decode_insn((const uint8_t *)(uintptr_t)e->rip).length;
}

/* ---- running */

static inline const char *pt_key(const struct pt_env *v, const char *name)
{
	static char buf[48];

	fmt_snprintf(buf, sizeof(buf), "run%u_%s", v->runs, name);
	return buf;
}

/* The decoder's errata workarounds in force, by name ("none"). */
static inline void pt_log_errata(struct tcase *t, unsigned errata)
{
	char names[32] = "";
	size_t n = 0;

	for (unsigned bit = 1; bit <= PT_ERRATUM_SKZ84; bit <<= 1)
		if (errata & bit) {
			fmt_snprintf(names + n, sizeof(names) - n, "%s%s",
				     n ? "," : "", pt_erratum_name(bit));
			n = str_len(names);
		}
	value(t, "pt_errata", "%s", names[0] ? names : "none");
}

/* A backend, this CPU's PT with single-range output, and the group's
 * memory; else SKIP (the CPU has no PT) or FAIL, and 0. */
static inline int pt_begin(struct tcase *t, struct pt_env *v)
{
	const char *why = "unknown";
	struct pmu_err e;

	*v = (struct pt_env){ .t = t };
	if (!pmu_ready(t, PMU_ARCH))
		return 0;
	v->c = pt_caps(&why);
	if (!v->c) {
		skip(t, "no Intel PT: %s", why);
		return 0;
	}
	if (!(v->c->ecx0 & SDM_PT_ECX_SINGLE)) {
		skip(t, "Intel PT without single-range output "
		     "(CPUID.(EAX=14H,ECX=0):ECX[2] = 0)");
		return 0;
	}
	if (!(v->m = pt_test_mem(t)))
		return 0;
	v->base = (uint64_t)(uintptr_t)v->m->out;
	value(t, "pt_caps", "%s 14H.0 ebx=0x%x ecx=0x%x 14H.1 eax=0x%x "
	      "ebx=0x%x", v->c->source, v->c->ebx0, v->c->ecx0, v->c->eax1,
	      v->c->ebx1);
	/* the streams are decoded with the workarounds of the errata the
	 * CPU that wrote them has (lib/pt/errata.c: SKD007 on the Skylake
	 * client parts, SKZ84 on the server parts with it), as a decoder
	 * of a real machine's trace must */
	v->errata = pt_errata_for_cpu(cpu_info()->sig.family,
				      cpu_info()->sig.model);
	pt_log_errata(t, v->errata);
	return check(t, pt_stop(&e) == 0, "TraceEn off: %s", e.msg);
}

/* Tracing off, whatever a test left. */
static inline void pt_end(struct pt_env *v)
{
	struct pmu_err e;

	if (v->m)
		(void)pt_stop(&e);
}

/* The largest PSBFreq the CPU offers (few PSBs in a short run), 0 when
 * PSBFreq is not configurable. */
static inline unsigned pt_psb_freq_max(const struct pt_caps *c)
{
	unsigned f = 0;

	if (!(c->ebx0 & SDM_PT_EBX_PSB_CYC))
		return 0;
	for (unsigned i = 0; i < 16; i++)
		if (SDM_PT_PSB_BITMAP(c) >> i & 1)
			f = i;
	return f;
}

/* A config that traces cpl with BranchEn + CYCEn, CycThresh thresh. */
static inline struct pt_config pt_config_for(const struct pt_env *v,
					     int cpl, unsigned thresh)
{
	return (struct pt_config){ .os = cpl == 0, .user = cpl != 0,
				   .cyc = 1, .cyc_thresh = thresh,
				   .psb_freq = pt_psb_freq_max(v->c) };
}

/* Set up the output region (filled with the guard byte), start PT with c,
 * run bench n at cpl into tr, stop; v->len the bytes written.  Hardware:
 * the trace first with PT off.  Returns 1 when it ran. */
static inline int pt_run(struct pt_env *v, const struct bench *b,
			 uint64_t n, int cpl, const struct pt_config *c)
{
	struct pt_trace *tr = &v->m->tr;
	trace_sink sink = backend_current()->sink;
	struct pmu_err e;
	struct fault f = { 0 };
	uint64_t off = 0;
	int rc;

	memset(tr, 0, sizeof(*tr));
	tr->model = sink;
	v->len = 0;
	v->bench = b;
	v->runs++;
	if (!need_bench_data(v->t, b))
		return 0;
	/* hardware: the trace first, with PT off */
	if (!sink && !check(v->t, bench_exec(b, n, cpl, NULL, pt_sink, tr,
					     &f) == 0, "trace of %s faulted "
			    "(vector %u)", b->name, f.vector))
		return 0;
	memset(v->m->out, PT_GUARD_BYTE, sizeof(v->m->out));
	if (!check(v->t, pt_setup_output(v->base, PT_OUT_BYTES, &e) == 0,
		   "single-range output at 0x%llx, %u bytes: %s",
		   (unsigned long long)v->base, PT_OUT_BYTES, e.msg) ||
	    !check(v->t, pt_start(c, &e) == 0, "start PT (os %u user %u cyc "
		   "%u thresh %u disretc %u psbfreq %u): %s", c->os, c->user,
		   c->cyc, c->cyc_thresh, c->disretc, c->psb_freq, e.msg))
		return 0;
	tr->t0 = tr->last_clock = sink ? model_clock() : 0;
	rc = bench_exec(b, n, cpl, NULL, sink ? pt_sink : NULL, tr, &f);
	if (!check(v->t, pt_stop(&e) == 0, "stop PT: %s", e.msg) ||
	    !check(v->t, pt_output_offset(&off, &e) == 0, "output offset: "
		   "%s", e.msg) ||
	    !check(v->t, rc == 0, "%s n=%llu at CPL %d: %d (vector %u)",
		   b->name, (unsigned long long)n, cpl, rc, f.vector) ||
	    !check(v->t, tr->lost == 0 || v->steps_only, "%s: %llu branch "
		   "steps past the %u the test keeps", b->name,
		   (unsigned long long)tr->lost, PT_MAX_STEPS) ||
	    !check(v->t, off > 0 && off < PT_OUT_BYTES, "%s: output offset "
		   "%llu: expected packets, less than the %u-byte region",
		   b->name, (unsigned long long)off, PT_OUT_BYTES))
		return 0;
	v->len = off;
	/* nothing written past the offset (the model) */
	for (uint64_t i = off; sink && i < PT_OUT_BYTES; i++)
		if (v->m->out[i] != PT_GUARD_BYTE)
			return check(v->t, 0, "%s: byte base+%llu (0x%02x) "
				     "written past the output offset %llu",
				     b->name, (unsigned long long)i,
				     v->m->out[i], (unsigned long long)off);
	pt_timing_errata(v->m->out, v->len, v->errata, v->m->br,
			 PT_MAX_BRANCHES, &v->res);
	return check(v->t, v->res.lost == 0, "%s: %llu decoded branches past "
		     "the %u the test keeps", b->name,
		     (unsigned long long)v->res.lost, PT_MAX_BRANCHES);
}

/* ---- comparing */

static inline int pt_is_tnt(const struct pt_branch *g)
{
	return g->type == PT_PKT_TNT8 || g->type == PT_PKT_TNT64;
}

/* Does decoded branch g carry what w says (kind, outcome or target)?
 * With hw, a RET may be either a compressed one (a taken TNT bit, unless
 * disretc) or a TIP to its target (w->ip, its next IP): the hardware's
 * CALL/RET stack holds the harness's CALLs too and restarts at a PSB. */
static inline int pt_same(const struct pt_branch *g, const struct pt_want *w,
			  int hw, int disretc)
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

static inline const char *pt_want_str(const struct pt_want *w, char *buf,
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

static inline const char *pt_got_str(const struct pt_branch *g, char *buf,
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

/* Must g, the trace's branch want[j], have an exact time (see the top
 * of this file)?  A TIP or a TNT's first branch, with CycThresh 0 or 1,
 * when the trace's previous branch retired in an earlier cycle. */
static inline int pt_must_be_exact(const struct pt_branch *g,
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
static inline int pt_time_ok(const struct pt_branch *g,
			     const struct pt_want *want, unsigned j,
			     unsigned thresh)
{
	if (g->exact)
		return g->time == want[j].time && g->hi == g->time;
	if (pt_must_be_exact(g, want, j, thresh))
		return 0;
	return g->time <= want[j].time &&
	       (g->hi == PT_TIME_OPEN || want[j].time < g->hi);
}

/* Hardware path: the index of the first decoded branch after the first
 * TIP to the entry of v's benchmark (see the top of this file), or the
 * number of branches when there is none. */
static inline size_t pt_bench_part(const struct pt_env *v)
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
static inline void pt_check_branches(struct pt_env *v, const char *what,
				     const struct pt_want *want,
				     unsigned nwant,
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

/* Every packet of the stream: no error; the first a PSB at 0; *psbs and
 * *cycs counted; each CYC at least min_cyc (0: no minimum). */
static inline int pt_check_packets(struct pt_env *v, const char *what,
				   uint64_t min_cyc, unsigned *psbs,
				   unsigned *cycs)
{
	struct pt_dec d;
	struct pt_pkt k;

	*psbs = *cycs = 0;
	pt_dec_init(&d, v->m->out, v->len);
	d.errata = v->errata;
	while (pt_dec_next(&d, &k) != PT_PKT_NONE) {
		if (!check(v->t, k.type != PT_PKT_ERROR, "%s: offset %llu: "
			   "%s", what, (unsigned long long)k.offset,
			   pt_err_name((enum pt_err)k.err)) ||
		    !check(v->t, k.offset || k.type == PT_PKT_PSB, "%s: the "
			   "stream starts with %s, not PSB (SDM 36.2.7.3: a "
			   "PSB+ at TraceEn)", what,
			   pt_pkt_name((enum pt_pkt_type)k.type)))
			return 0;
		*psbs += k.type == PT_PKT_PSB;
		if (k.type != PT_PKT_CYC)
			continue;
		++*cycs;
		if (!check(v->t, k.payload >= min_cyc, "%s: CYC %llu at "
			   "offset %llu: CycThresh allows none below %llu "
			   "(SDM 36.3.6.3)", what, (unsigned long long)k.payload,
			   (unsigned long long)k.offset,
			   (unsigned long long)min_cyc))
			return 0;
	}
	return 1;
}

/* Under the model the first TIP.PGE goes to the first traced step
 * (PacketEn comes on there: §36.2.5.1, §36.4.2.3), and there is none when
 * no step was traced.  (Hardware: PacketEn comes on in the harness's own
 * code after the WRMSR.) */
static inline void pt_check_pge(struct pt_env *v, const char *what,
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

#endif
