/* trace/...: what the single-step tracer hands a PMU model besides counts
 * (arch/x86/trace.h): the register state each step left (e->after) and the
 * linear addresses of its data accesses (e->access[]).  The benchmarks of
 * bench/ are traced at CPL 0 and 3 with trace_run, every step is
 * recorded, and the record is checked against what the routines do,
 * worked out here independently of the tracer and the decoder:
 *
 *   - the state after MOVABS $imm, %reg (MOV $imm32, %reg in i386) holds
 *     imm in reg and nothing else changed; PUSH and POP move RSP by a
 *     slot (8 bytes, 4 in i386), the pushed value is on the stack and POP
 *     brings it back; each Jcc was taken exactly when its condition holds
 *     in the RFLAGS it left (a Jcc writes no flags);
 *   - the addresses are the benchmark's: the pointer chase's node
 *     addresses, walked here; the streams' lines; REP MOVSB's bytes; and
 *     the stack slots below the RSP the routine was entered with.
 * The routines are the build's (bench/x86_64/ or bench/i386/); where the
 * i386 ones push more, bench/mode.h says how many. */
#include "../../harness/test.h"
#include "../../harness/need.h"
#include "../../bench/oracle.h"
#include "../../bench/gpr_values.h"
#include "../../bench/mode.h"
#include "../../bench/routine.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/ring3.h"
#include "../../arch/x86/safe.h"
#include "../../lib/string.h"

#define MAX_STEPS 4096
/* A stack slot, a pointer, a stream access: the register width. */
#define SLOT ((unsigned)sizeof(ureg_t))
/* The build decodes and runs 64-bit code (else 32-bit). */
#define MODE64 (DEC_MODE_BUILD == DEC_MODE_64)
/* How far below its entry RSP a benchmark's stack accesses may reach. */
#define STACK_WINDOW 256

/* Arithmetic flags: CF PF AF ZF SF OF (SDM Vol. 1 §3.4.3.1, order no.
 * 253665); everything else in RFLAGS is system state the benchmarks do
 * not change. */
#define FLAGS_ARITH 0x8d5ull
#define FLAGS_RF (1ull << 16)

struct step {
	struct insn_event e;	/* e.after is not kept: see after */
	struct step_regs after;
	uint64_t tos;		/* the slot at the after RSP, read
				 * during the step's sink call */
	int has_after;
};

static struct {
	struct step *s;
	unsigned n;
	uint64_t lost;
} rec;

static void record(const struct insn_event *e, void *ctx)
{
	struct step *s;

	(void)ctx;
	if (rec.n == MAX_STEPS) {
		rec.lost++;
		return;
	}
	s = &rec.s[rec.n++];
	s->e = *e;
	s->e.after = NULL;
	s->has_after = e->after != NULL;
	if (e->after) {
		s->after = *e->after;
		/* inside the routine RSP points at its data: at worst at
		 * the return address */
		s->tos = *(const ureg_t *)(uintptr_t)e->after->gpr[4];
	}
}

static const uint8_t *code(const struct step *s)
{
	return (const uint8_t *)(uintptr_t)s->e.rip;
}

/* A traced run of bench name with parameter n at cpl, into rec. */
struct run {
	const struct bench *b;
	uint8_t *data;
	uint64_t n;
	int cpl;
	uint64_t entry_rsp;	/* RSP at the routine's first instruction */
};

/* Traces benchmark name into rec: 1, 0 on a failed check, or -1 when the
 * benchmark's data buffer cannot be had (the test then ends as SKIP with
 * the shortfall, harness/need.h; callers go on with the other benchmarks;
 * 0 without a failed check: rec itself could not be had, also a SKIP). */
static int trace_bench(struct tcase *t, struct run *r, const char *name,
		       uint64_t n, int cpl)
{
	struct fault f;
	int ret;

	r->b = bench_find(name);
	r->n = n;
	r->cpl = cpl;
	if (!check(t, r->b != NULL, "no benchmark %s", name))
		return 0;
	if (!rec.s && !(rec.s = need_alloc(t, "the step record",
					   sizeof(struct step) * MAX_STEPS,
					   4096)))
		return 0;
	if (!(r->data = need_bench_data(t, r->b)))
		return -1;
	if (cpl == 3 && !check(t, ring3_ready(), "ring 3 unavailable"))
		return 0;
	rec.n = 0;
	rec.lost = 0;
	ret = bench_exec(r->b, n, cpl, NULL, record, NULL, &f);
	if (!check(t, ret == 0, "%s n=%llu cpl=%d: run %s (vector %u)", name,
		   (unsigned long long)n, cpl, ret < 0 ? "impossible" :
		   "faulted", ret > 0 ? f.vector : 0) ||
	    !check(t, rec.n > 0 && !rec.lost, "%s cpl=%d: %u steps recorded,"
		   " %llu lost", name, cpl, rec.n,
		   (unsigned long long)rec.lost))
		return 0;
	/* The last step is the routine's RET, which popped the return
	 * address: it was entered with RSP a slot below where the RET left
	 * it, RSP + slot 16-byte aligned as the SysV ABI has it at a call
	 * (and the i386 entries make it); at CPL 0 on this very stack,
	 * below this frame. */
	r->entry_rsp = rec.s[rec.n - 1].after.gpr[4] - SLOT;
	return check(t, code(&rec.s[rec.n - 1])[0] == 0xc3 &&
		     (r->entry_rsp + SLOT) % 16 == 0 &&
		     (cpl == 3 || (r->entry_rsp < (uintptr_t)&ret &&
				   r->entry_rsp > (uintptr_t)&ret - 65536)),
		     "%s cpl=%d: entry RSP 0x%llx (frame at %p), last step at "
		     "0x%llx", name, cpl, (unsigned long long)r->entry_rsp,
		     (void *)&ret, (unsigned long long)rec.s[rec.n - 1].e.rip);
}

/* The state before step i: the one step i-1 left, NULL for the first. */
static const struct step_regs *before(unsigned i)
{
	return i ? &rec.s[i - 1].after : NULL;
}

/* ---- trace/regs-after-step */

/* Jcc condition cc holds in flags f (SDM Vol. 2A Jcc, order no. 253666;
 * Vol. 1 Appendix B, Table B-1). */
static int cc_holds(unsigned cc, uint64_t f)
{
	int cf = f & 1, pf = f >> 2 & 1, zf = f >> 6 & 1, sf = f >> 7 & 1;
	int of = f >> 11 & 1, r;

	switch (cc >> 1) {
	case 0: r = of; break;
	case 1: r = cf; break;
	case 2: r = zf; break;
	case 3: r = cf || zf; break;
	case 4: r = sf; break;
	case 5: r = pf; break;
	case 6: r = sf != of; break;
	default: r = zf || sf != of; break;
	}
	return cc & 1 ? !r : r;
}

/* A Jcc rel8 or rel32 at s: its condition code and length, else 0. */
static unsigned jcc_len(const struct step *s, unsigned *cc)
{
	const uint8_t *p = code(s);

	if (p[0] >= 0x70 && p[0] <= 0x7f) {
		*cc = p[0] & 15;
		return 2;
	}
	if (p[0] == 0x0f && p[1] >= 0x80 && p[1] <= 0x8f) {
		*cc = p[1] & 15;
		return 6;
	}
	return 0;
}

/* Every step, any benchmark: the after-state exists, its RIP is where
 * control went, TF and RF read 0, the system flags are the ones the
 * routine runs with, and a Jcc went where its flags say. */
static unsigned check_every_step(struct tcase *t, const struct run *r,
				 uint64_t sys_flags)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < rec.n; i++) {
		const struct step *s = &rec.s[i];
		uint64_t f = s->after.rflags;
		unsigned cc, len;

		if (!s->has_after) {
			bad += !check(t, 0, "%s cpl=%d step %u: no after-state",
				      r->b->name, r->cpl, i);
			continue;
		}
		bad += !check(t, s->after.rip == s->e.next_rip, "%s cpl=%d "
			      "step %u at 0x%llx: after.rip 0x%llx, next_rip "
			      "0x%llx", r->b->name, r->cpl, i,
			      (unsigned long long)s->e.rip,
			      (unsigned long long)s->after.rip,
			      (unsigned long long)s->e.next_rip);
		bad += !check(t, (f & ~FLAGS_ARITH) == sys_flags, "%s cpl=%d "
			      "step %u: rflags 0x%llx, want 0x%llx plus "
			      "arithmetic flags", r->b->name, r->cpl, i,
			      (unsigned long long)f,
			      (unsigned long long)sys_flags);
		len = jcc_len(s, &cc);
		if (len)
			bad += !check(t, (s->e.next_rip != s->e.rip + len) ==
				      cc_holds(cc, f), "%s cpl=%d step %u: "
				      "Jcc cc=%u %s with rflags 0x%llx",
				      r->b->name, r->cpl, i, cc,
				      s->e.next_rip != s->e.rip + len ?
				      "taken" : "not taken",
				      (unsigned long long)f);
	}
	return bad;
}

/* MOVABS $imm64, %reg (REX.W [+B] B8+r); in i386 MOV $imm32, %reg
 * (B8+r): reg, imm; else -1. */
static int movabs(const struct step *s, uint64_t *imm)
{
	const uint8_t *p = code(s);
	uint32_t imm32;

	if (!MODE64) {
		if ((p[0] & 0xf8) != 0xb8)
			return -1;
		memcpy(&imm32, p + 1, 4);
		*imm = imm32;
		return p[0] & 7;
	}
	if ((p[0] & 0xfe) != 0x48 || (p[1] & 0xf8) != 0xb8)
		return -1;
	memcpy(imm, p + 2, 8);
	return (p[1] & 7) | (p[0] & 1) << 3;
}

/* PUSH/POP r64 (50+r, 58+r, REX.B 41; r32 and no REX in i386): reg, and
 * *pop; else -1. */
static int push_pop(const struct step *s, int *pop)
{
	const uint8_t *p = code(s);
	unsigned rex_b = MODE64 && p[0] == 0x41, op = p[rex_b];

	if (op < 0x50 || op > 0x5f)
		return -1;
	*pop = op >= 0x58;
	return (int)((op & 7) | rex_b << 3);
}

static unsigned check_movabs(struct tcase *t, unsigned i, int reg,
			     uint64_t imm)
{
	const struct step_regs *a = &rec.s[i].after, *b = before(i);
	unsigned bad = 0;

	bad += !check(t, a->gpr[reg] == imm && imm == bench_gpr_values[reg],
		      "step %u: movabs into r%d: after 0x%llx, imm 0x%llx, "
		      "table 0x%llx", i, reg, (unsigned long long)a->gpr[reg],
		      (unsigned long long)imm,
		      (unsigned long long)bench_gpr_values[reg]);
	for (int g = 0; b && g < 16; g++)
		bad += !check(t, g == reg || a->gpr[g] == b->gpr[g], "step "
			      "%u: movabs into r%d changed r%d: 0x%llx -> "
			      "0x%llx", i, reg, g, (unsigned long long)b->gpr[g],
			      (unsigned long long)a->gpr[g]);
	return bad;
}

static unsigned check_push(struct tcase *t, unsigned i, int reg)
{
	const struct step *s = &rec.s[i];
	const struct step_regs *b = before(i);

	if (!b)		/* the first step: only its stack slot known */
		return 0;
	return !check(t, s->after.gpr[4] == b->gpr[4] - SLOT &&
		      s->tos == b->gpr[reg], "step %u: push r%d: rsp 0x%llx -> "
		      "0x%llx, stack 0x%llx, reg 0x%llx", i, reg,
		      (unsigned long long)b->gpr[4],
		      (unsigned long long)s->after.gpr[4],
		      (unsigned long long)s->tos,
		      (unsigned long long)b->gpr[reg]);
}

/* A pop loads the slot the step before left at RSP. */
static unsigned check_pop(struct tcase *t, unsigned i, int reg)
{
	const struct step *s = &rec.s[i];
	const struct step_regs *b = before(i);

	return !check(t, b && s->after.gpr[4] == b->gpr[4] + SLOT &&
		      s->after.gpr[reg] == rec.s[i - 1].tos, "step %u: pop "
		      "r%d: rsp 0x%llx -> 0x%llx, reg 0x%llx, stack 0x%llx", i,
		      reg, b ? (unsigned long long)b->gpr[4] : 0ull,
		      (unsigned long long)s->after.gpr[4],
		      (unsigned long long)s->after.gpr[reg],
		      i ? (unsigned long long)rec.s[i - 1].tos : 0ull);
}

/* gpr-values: the registers the routine sets, pushes and pops; the
 * callee-saved ones come back as they were pushed (RAX pops the loop
 * counter, which the loop changed). */
static unsigned check_gpr_values(struct tcase *t)
{
	uint64_t pushed[8], imm;
	unsigned depth = 0, bad = 0, movs = 0, marker_steps = 0;
	int reg, pop;

	for (unsigned i = 0; i < rec.n; i++) {
		const struct step *s = &rec.s[i];
		const struct step_regs *a = &s->after;

		if ((reg = movabs(s, &imm)) >= 0) {
			bad += check_movabs(t, i, reg, imm);
			movs++;
		} else if ((reg = push_pop(s, &pop)) >= 0 && !pop) {
			bad += check_push(t, i, reg);
			if (depth < 8)
				pushed[depth++] = s->tos;
		} else if (reg >= 0) {
			bad += check_pop(t, i, reg);
			bad += !check(t, depth && (reg == 0 || a->gpr[reg] ==
				      pushed[depth - 1]), "step %u: pop r%d "
				      "got 0x%llx, pushed 0x%llx", i, reg,
				      (unsigned long long)a->gpr[reg],
				      depth ? (unsigned long long)
				      pushed[depth - 1] : 0ull);
			depth -= !!depth;
		}
		if (s->e.rip >= (uintptr_t)bench_gprs_marker &&
		    s->e.rip < (uintptr_t)bench_gprs_marker_end) {
			marker_steps++;
			for (int g = 0; g < 16; g++)
				bad += !check(t, g == 4 || a->gpr[g] ==
					      bench_gpr_values[g], "step %u in "
					      "the marker loop: r%d = 0x%llx",
					      i, g,
					      (unsigned long long)a->gpr[g]);
		}
	}
	bad += !check(t, movs == GPRS_MOVES && depth == 0 && marker_steps > 0,
		      "%u movabs steps, %u pushes left, %u marker steps", movs,
		      depth, marker_steps);
	return bad;
}

/* call-ret: each RET went to the address its CALL stored. */
static unsigned check_call_ret(struct tcase *t)
{
	uint64_t ret_addr = 0;
	unsigned bad = 0, calls = 0;

	for (unsigned i = 1; i < rec.n; i++) {
		const struct step *s = &rec.s[i];
		const struct step_regs *b = before(i);

		if (s->e.flags & DEC_CALL) {
			calls++;
			ret_addr = s->tos;
			bad += !check(t, s->after.gpr[4] == b->gpr[4] - SLOT,
				      "step %u: CALL moved RSP 0x%llx -> "
				      "0x%llx", i, (unsigned long long)b->gpr[4],
				      (unsigned long long)s->after.gpr[4]);
		} else if (code(s)[0] == 0xc3 && i + 1 < rec.n) {
			bad += !check(t, s->after.rip == ret_addr &&
				      s->after.gpr[4] == b->gpr[4] + SLOT,
				      "step %u: RET to 0x%llx (stored 0x%llx), "
				      "RSP 0x%llx -> 0x%llx", i,
				      (unsigned long long)s->after.rip,
				      (unsigned long long)ret_addr,
				      (unsigned long long)b->gpr[4],
				      (unsigned long long)s->after.gpr[4]);
		}
	}
	return bad + !check(t, calls > 0, "no CALL traced");
}

static uint64_t sys_flags_for(int cpl)
{
	/* ring3_run enters with RFLAGS = 0x2 (IF clear); CPL 0 runs with
	 * the harness's flags and IF cleared. */
	if (cpl == 3)
		return 0x2;
	return read_flags() & ~(FLAGS_ARITH | X86_EFLAGS_IF | X86_EFLAGS_TF |
				FLAGS_RF);
}

static void test_regs_after(struct tcase *t)
{
	static const char *const all[] = {
		"gpr-values", "call-ret", "branch-random",
		"branch-alternating", "pointer-chase", "rep-movsb",
		"int-divide", "indirect-jump",
	};
	struct run r;

	for (int cpl = 0; cpl <= 3; cpl += 3) {
		unsigned bad = 0, steps = 0;

		for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
			int k = trace_bench(t, &r, all[i], 20, cpl);

			if (k < 0)
				continue;
			if (!k)
				return;
			steps += rec.n;
			bad += check_every_step(t, &r, sys_flags_for(cpl));
			if (!str_cmp(all[i], "gpr-values"))
				bad += check_gpr_values(t);
			else if (!str_cmp(all[i], "call-ret"))
				bad += check_call_ret(t);
			if (bad)
				return;
		}
		value(t, cpl ? "cpl3_steps" : "cpl0_steps", "%u", steps);
	}
}

TEST(trace_regs_after, "trace/regs-after-step",
     "each step's after-state: RIP, RFLAGS without TF/RF, the GPRs the "
     "routine wrote, RSP after push/pop/call/ret",
     test_regs_after, 0);

/* ---- trace/access-addresses */

static int in(uint64_t a, unsigned size, uint64_t lo, uint64_t hi)
{
	return a >= lo && a + size <= hi;
}

/* Every step of any benchmark: all accesses described, each inside the
 * data buffer or the stack just below the entry RSP. */
static unsigned check_every_access(struct tcase *t, const struct run *r)
{
	uint64_t d = (uintptr_t)r->data, size = bench_data_size(r->b);
	uint64_t sp = r->entry_rsp;
	unsigned bad = 0;

	for (unsigned i = 0; i < rec.n; i++) {
		const struct insn_event *e = &rec.s[i].e;

		bad += !check(t, !(e->flags & EV_ACCESS_UNKNOWN) &&
			      e->n_access == e->loads + e->stores &&
			      e->iterations <= 1, "%s cpl=%d step %u at "
			      "0x%llx: %u accesses described of %u loads + %u "
			      "stores, flags 0x%x, %u iterations", r->b->name,
			      r->cpl, i, (unsigned long long)e->rip,
			      e->n_access, e->loads, e->stores, e->flags,
			      e->iterations);
		for (unsigned k = 0; k < e->n_access && k < EV_MAX_ACCESS;
		     k++) {
			const struct mem_access *m = &e->access[k];

			bad += !check(t, in(m->addr, m->size, d, d + size) ||
				      in(m->addr, m->size, sp - STACK_WINDOW,
					 sp + SLOT), "%s cpl=%d step %u: %s %u "
				      "at 0x%llx: outside data [0x%llx, "
				      "+0x%llx) and stack [0x%llx - %u, +slot)",
				      r->b->name,
				      r->cpl, i, m->store ? "store" : "load",
				      m->size, (unsigned long long)m->addr,
				      (unsigned long long)d,
				      (unsigned long long)size,
				      (unsigned long long)sp, STACK_WINDOW);
		}
	}
	return bad;
}

/* The accesses a routine makes, in order, as the checks below expect. */
struct want {
	unsigned n, bad;
	const struct run *r;
	struct tcase *t;
	unsigned step, k;	/* where the next access is looked for */
};

/* Consumes the next recorded access and compares it. */
static void expect_access(struct want *w, uint64_t addr, unsigned size,
			  unsigned store)
{
	const struct mem_access *m = NULL;

	while (w->step < rec.n) {
		if (w->k < rec.s[w->step].e.n_access) {
			m = &rec.s[w->step].e.access[w->k++];
			break;
		}
		w->step++;
		w->k = 0;
	}
	w->n++;
	if (w->bad > 4)		/* the first few tell the story */
		return;
	w->bad += !check(w->t, m && m->addr == addr && m->size == size &&
			 m->store == store, "%s cpl=%d access %u (step %u): "
			 "got %s %u at 0x%llx, want %s %u at 0x%llx",
			 w->r->b->name, w->r->cpl, w->n - 1, w->step,
			 m ? (m->store ? "store" : "load") : "none",
			 m ? m->size : 0, m ? (unsigned long long)m->addr : 0,
			 store ? "store" : "load", size,
			 (unsigned long long)addr);
}

/* Nothing recorded is left over. */
static void expect_end(struct want *w)
{
	unsigned left = 0;

	for (unsigned i = w->step; i < rec.n; i++)
		left += rec.s[i].e.n_access - (i == w->step ? w->k : 0);
	w->bad += !check(w->t, !left, "%s cpl=%d: %u accesses more than the "
			 "routine makes", w->r->b->name, w->r->cpl, left);
}

/* The slots of `saved` pushes at entry (bench/mode.h), and their pops. */
static void pushes(struct want *w, const struct run *r, unsigned saved)
{
	for (unsigned i = 1; i <= saved; i++)
		expect_access(w, r->entry_rsp - SLOT * i, SLOT, 1);
}

static void pops(struct want *w, const struct run *r, unsigned saved)
{
	for (unsigned i = saved; i >= 1; i--)
		expect_access(w, r->entry_rsp - SLOT * i, SLOT, 0);
}

/* Each node holds the next one's address as 64 bits; the i386 routine
 * loads the low half (bench/i386/memory.S). */
static void pointer_chase(struct want *w, const struct run *r)
{
	uint64_t node = (uintptr_t)r->data;

	for (uint64_t i = 0; i < r->n; i++) {
		expect_access(w, node, SLOT, 0);
		node = *(const uint64_t *)(uintptr_t)node;
	}
}

/* One access per 8 bytes, a register wide. */
static void load_stream(struct want *w, const struct run *r)
{
	for (uint64_t i = 0; i < r->n * 64; i += 8)
		expect_access(w, (uintptr_t)r->data + i, SLOT, 0);
}

static void store_stream(struct want *w, const struct run *r)
{
	for (uint64_t i = 0; i < r->n * 64; i += 8)
		expect_access(w, (uintptr_t)r->data + i, SLOT, 1);
}

static void rep_movsb(struct want *w, const struct run *r)
{
	uint64_t d = (uintptr_t)r->data;

	pushes(w, r, REP_MOVSB_SAVED);
	for (uint64_t i = 0; i < r->n; i++) {
		expect_access(w, d + i, 1, 0);
		expect_access(w, d + REP_MOVSB_MAX + i, 1, 1);
	}
	pops(w, r, REP_MOVSB_SAVED);
}

/* Two CALL/RET pairs per iteration into the same slot. */
static void call_ret(struct want *w, const struct run *r)
{
	for (uint64_t i = 0; i < 2 * r->n; i++) {
		expect_access(w, r->entry_rsp - SLOT, SLOT, 1);
		expect_access(w, r->entry_rsp - SLOT, SLOT, 0);
	}
}

/* The callee-saved pushes and n, SUBQ $1,(%rsp) n + 1 times, the pops. */
static void gpr_values(struct want *w, const struct run *r)
{
	const unsigned p = GPRS_SAVED + 1;
	uint64_t top = r->entry_rsp - p * SLOT;

	pushes(w, r, p);
	for (uint64_t i = 0; i <= r->n; i++) {
		expect_access(w, top, SLOT, 0);
		expect_access(w, top, SLOT, 1);
	}
	pops(w, r, p);
}

/* The jump table written, then read at rdi & 1 for rdi = n-1 ... 0
 * (in i386 between the push and the pop of EBX). */
static void indirect_jump(struct want *w, const struct run *r)
{
	uint64_t d = (uintptr_t)r->data;

	pushes(w, r, INDIRECT_JUMP_SAVED);
	expect_access(w, d, SLOT, 1);
	expect_access(w, d + SLOT, SLOT, 1);
	for (uint64_t rdi = r->n; rdi-- > 0;)
		expect_access(w, d + SLOT * (rdi & 1), SLOT, 0);
	pops(w, r, INDIRECT_JUMP_SAVED);
}

static const struct {
	const char *bench;
	uint64_t n;
	void (*body)(struct want *w, const struct run *r);
} exact[] = {
	{ "pointer-chase", 100, pointer_chase },
	{ "load-stream", 16, load_stream },
	{ "store-stream", 16, store_stream },
	{ "rep-movsb", 64, rep_movsb },
	{ "call-ret", 10, call_ret },
	{ "gpr-values", 10, gpr_values },
	{ "indirect-jump", 7, indirect_jump },
};

/* The routine's accesses in order, then its final RET's load. */
static unsigned check_exact(struct tcase *t, const struct run *r,
			    unsigned which)
{
	struct want w = { 0, 0, r, t, 0, 0 };

	exact[which].body(&w, r);
	expect_access(&w, r->entry_rsp, SLOT, 0);
	expect_end(&w);
	return w.bad;
}

static void test_access_addresses(struct tcase *t)
{
	struct run r;
	unsigned bad = 0, benches = 0;

	for (int cpl = 0; cpl <= 3; cpl += 3) {
		for (unsigned i = 0; i < sizeof(exact) / sizeof(exact[0]);
		     i++) {
			int k = trace_bench(t, &r, exact[i].bench,
					    exact[i].n, cpl);

			if (k < 0)
				continue;
			if (!k)
				return;
			bad += check_every_access(t, &r);
			bad += check_exact(t, &r, i);
		}
		/* the rest: described, and inside the data or the stack */
		for (const struct bench *b = __benches_start;
		     b < __benches_end; b++) {
			int k = trace_bench(t, &r, b->name, 5, cpl);

			if (k < 0)
				continue;
			if (!k)
				return;
			bad += check_every_access(t, &r);
			benches++;
		}
		if (bad)
			return;
	}
	value(t, "benchmarks", "%u", benches / 2);
}

TEST(trace_access_addresses, "trace/access-addresses",
     "each step's load/store addresses are the benchmark's data and stack "
     "slots, in the routine's order",
     test_access_addresses, 0);

/* ---- trace/aggregated-carries-no-state */

static void agg_sink(const struct insn_event *e, void *ctx)
{
	uint64_t *bad = ctx;

	*bad += e->after != NULL || e->n_access != 0 ||
		((e->loads || e->stores) && !(e->flags & EV_ACCESS_UNKNOWN));
}

/* The counting path promises nothing about state: it says so. */
static void test_aggregated(struct tcase *t)
{
	const struct bench *b = bench_find("load-stream");
	struct trace_range range;
	uint64_t bad = 0;
	struct fault f;

	if (!check(t, b != NULL, "no load-stream benchmark") ||
	    !need_bench_data(t, b))
		return;
	range.start = (const void *)b->fn;
	range.end = b->end;
	check(t, trace_run_aggregated(b->fn, 16, bench_data(b), 0, range,
				      agg_sink, &bad, &f) == 0, "run faulted");
	check(t, bad == 0, "%llu aggregated events with an after-state, "
	      "addresses, or accesses not marked unknown",
	      (unsigned long long)bad);
}

TEST(trace_aggregated, "trace/aggregated-carries-no-state",
     "trace_run_aggregated events: after NULL, no addresses, accesses "
     "marked unknown", test_aggregated, 0);

/* ---- trace/segment-and-rip-addresses */

/* The address forms no benchmark uses: an FS and a GS override and a
 * RIP-relative operand (in i386: an absolute disp32).  CPL 0 only (.text,
 * not .text.bench).  The routine and how the bases are set differ by
 * mode, the one #ifdef of this file:
 *   x86-64: void trace_seg_routine(n (rdi, unused), data (rsi)):
 *	rax = fs:8(data); gs:16(data) = rax; rcx = trace_seg_slot(%rip)
 *	with IA32_FS_BASE/GS_BASE set to two halves of seg_area;
 *   i386 (ROUTINE_ABI: data in ECX):
 *	eax = fs:8(data); gs:16(data) = eax; edx = trace_seg_slot (disp32)
 *	with FS and GS as the boot left them: the flat data segment, base 0
 *	(decode.h's assumption), read back from its descriptor by the
 *	tracer; data then points into seg_area itself. */
ROUTINE_ABI void trace_seg_routine(uint64_t n, void *data);
extern const char trace_seg_routine_end[];
uint64_t trace_seg_slot = 0x5eb0c0de5eb0c0deull;

#define SEG_VALUE 0xf5f5000000000f5full

static uint64_t seg_area[512] __attribute__((aligned(4096)));

#if defined(__x86_64__)
__asm__(".pushsection .text\n"
	".globl trace_seg_routine, trace_seg_routine_end\n"
	".hidden trace_seg_routine, trace_seg_routine_end\n"
	"trace_seg_routine:\n"
	"	movq %fs:8(%rsi), %rax\n"
	"	movq %rax, %gs:16(%rsi)\n"
	"	movq trace_seg_slot(%rip), %rcx\n"
	"	ret\n"
	"trace_seg_routine_end:\n"
	".popsection\n");

#define SLOT_REG 1		/* the register the slot is loaded into */
#define FS_BASE_MSR 0xc0000100u	/* IA32_FS_BASE, SDM Vol. 4 Table 2-2 */
#define GS_BASE_MSR 0xc0000101u	/* IA32_GS_BASE (order no. 335592) */

static uint64_t old_fs, old_gs;
static int seg_saved;

/* The bases the run uses and the data argument; 0 or -1. */
static int seg_setup(struct tcase *t, uint64_t *fs, uint64_t *gs,
		     uint64_t *data)
{
	seg_saved = !rdmsr_safe(FS_BASE_MSR, &old_fs) &&
		    !rdmsr_safe(GS_BASE_MSR, &old_gs);
	if (!check(t, seg_saved, "no FS/GS base MSRs"))
		return -1;
	*fs = (uintptr_t)seg_area;
	*gs = (uintptr_t)seg_area + 2048;
	*data = 64;
	return wrmsr_safe(FS_BASE_MSR, *fs) || wrmsr_safe(GS_BASE_MSR, *gs) ?
	       -1 : 0;
}

static void seg_restore(void)
{
	if (!seg_saved)
		return;
	wrmsr_safe(FS_BASE_MSR, old_fs);
	wrmsr_safe(GS_BASE_MSR, old_gs);
}
#else
__asm__(".pushsection .text\n"
	".globl trace_seg_routine, trace_seg_routine_end\n"
	".hidden trace_seg_routine, trace_seg_routine_end\n"
	"trace_seg_routine:\n"
	"	movl %fs:8(%ecx), %eax\n"
	"	movl %eax, %gs:16(%ecx)\n"
	"	movl trace_seg_slot, %edx\n"
	"	ret\n"
	"trace_seg_routine_end:\n"
	".popsection\n");

#define SLOT_REG 2

static int seg_setup(struct tcase *t, uint64_t *fs, uint64_t *gs,
		     uint64_t *data)
{
	*fs = 0;
	*gs = 0;
	*data = (uintptr_t)seg_area + 64;
	return 0;
}

static void seg_restore(void)
{
}
#endif

/* The three accesses, and the values that prove the CPU made them there:
 * RAX holds what it loaded at FS base + 8 + data, the store landed at GS
 * base + 16 + data, the slot register holds the slot (the low halves in
 * i386). */
static void check_seg_run(struct tcase *t, uint64_t fs, uint64_t gs,
			  uint64_t data)
{
	struct want w = { 0, 0, NULL, t, 0, 0 };
	struct run r = { NULL, NULL, 0, 0, 0 };
	struct bench b = { .name = "seg-routine" };
	const ureg_t *stored = (const ureg_t *)(uintptr_t)(gs + data + 16);

	r.b = &b;
	w.r = &r;
	expect_access(&w, fs + data + 8, SLOT, 0);
	expect_access(&w, gs + data + 16, SLOT, 1);
	expect_access(&w, (uintptr_t)&trace_seg_slot, SLOT, 0);
	expect_access(&w, rec.s[rec.n - 1].after.gpr[4] - SLOT, SLOT, 0);
	expect_end(&w);
	check(t, rec.n == 4 && rec.s[0].after.gpr[0] == (ureg_t)SEG_VALUE &&
	      *stored == (ureg_t)SEG_VALUE &&
	      rec.s[2].after.gpr[SLOT_REG] == (ureg_t)trace_seg_slot,
	      "%u steps; rax 0x%llx, stored 0x%llx, slot register 0x%llx",
	      rec.n, (unsigned long long)rec.s[0].after.gpr[0],
	      (unsigned long long)*stored,
	      (unsigned long long)rec.s[2].after.gpr[SLOT_REG]);
}

static void test_seg_rip(struct tcase *t)
{
	struct trace_range range = { (const void *)trace_seg_routine,
				     trace_seg_routine_end };
	uint64_t fs = 0, gs = 0, data = 0;
	ureg_t flags;
	struct fault f;
	int r = -1;

	if (!rec.s && !(rec.s = need_alloc(t, "the step record",
					   sizeof(struct step) * MAX_STEPS,
					   4096)))
		return;
	memset(seg_area, 0, sizeof(seg_area));
	rec.n = 0;
	rec.lost = 0;
	/* nothing may run on the borrowed bases: interrupts stay off */
	flags = read_flags();
	irq_disable();
	if (!seg_setup(t, &fs, &gs, &data)) {
		seg_area[(fs + data + 8 - (uintptr_t)seg_area) / 8] =
			SEG_VALUE;
		r = trace_run(trace_seg_routine, 0, (void *)(uintptr_t)data,
			      0, range, record, NULL, &f);
	}
	seg_restore();
	write_flags(flags);
	if (!check(t, r == 0 && rec.n > 0 && !rec.lost, "run: %d", r))
		return;
	value(t, "fs_base", "0x%llx", (unsigned long long)fs);
	value(t, "gs_base", "0x%llx", (unsigned long long)gs);
	check_seg_run(t, fs, gs, data);
}

TEST(trace_seg_rip, "trace/segment-and-rip-addresses",
     "FS and GS overrides add their segment's base (IA32_FS_BASE/GS_BASE; "
     "in i386 the descriptor's), RIP-relative uses the next RIP (i386: an "
     "absolute disp32): the CPU's own loads and stores agree",
     test_seg_rip, 0);
