/* trace: single-step tracer (see trace.h). */
#include "trace.h"
#include "trace_classify.h"
#include "trace_window_tally.h"
#include "cpu.h"
#include "ring3.h"
#include "../../lib/string.h"

#define DR7_ENABLES 0xffu	/* L0-L3, G0-G3 (SDM Vol. 3B §17.2.4) */
#define DECODE_CACHE 256	/* direct-mapped by RIP */

/* arch/x86/<mode>/trace_entry.S: calls fn(n, data) with TF set from the
 * CALL on (a plain C call in each mode: SysV, or cdecl in i386). */
void trace_call0(trace_fn fn, uint64_t n, void *data);
extern const char trace_call0_first[];
extern const char ring3_trampoline[];

static struct {
	uint64_t prev_rip, prev_rcx;
	uint8_t prev_cpl;
	uint64_t start, end;
	trace_sink sink;
	void *ctx;
	uint64_t outside, bare_count;
	int aggregate;
	unsigned cur;		/* regs[cur]: the state before this step */
	int have_before;	/* regs[cur] holds a trap's state */
} tr;

/* The counting window (trace.h): it shares tr, which trace_run does not
 * touch while a window is open. */
static struct {
	int open, hold;
	trace_sink sink;
	void *ctx;
	uintptr_t first;	/* the instruction after the POPF setting TF */
	struct trace_window_tally tally;
} win;

/* The state before and after the step being handled, swapped each trap. */
static struct step_regs regs[2];

/* Aggregation table, same slots as the decode cache: hits per outcome. */
static struct {
	uint64_t rip;
	uint8_t cpl;
	uint32_t hits, taken;
	struct insn_class k;	/* kept here: the decode slot may move on */
} agg[DECODE_CACHE];

/* Benchmarks loop over the same few instructions: decode each once. */
static struct {
	uint64_t rip;
	struct insn_class k;
} decoded[DECODE_CACHE];

static ureg_t read_dr7(void)
{
	ureg_t v;

	__asm__ volatile("mov %%dr7, %0" : "=r"(v));
	return v;
}

static void clear_dr6(void)
{
	/* DR6 bits are sticky: reset to the architectural init value */
	__asm__ volatile("mov %0, %%dr6" : : "r"((ureg_t)0xffff0ff0u));
}

static unsigned slot_of(uint64_t rip)
{
	return (unsigned)(rip ^ rip >> 8) % DECODE_CACHE;
}

static const struct insn_class *decode_cached(uint64_t rip)
{
	unsigned slot = slot_of(rip);

	if (decoded[slot].rip != rip) {
		decoded[slot].k = decode_insn((const uint8_t *)(uintptr_t)rip);
		decoded[slot].rip = rip;
	}
	return &decoded[slot].k;
}

/* The step's flags and counts (trace_classify.h); a REP step's
 * iterations are the drop in RCX. */
static void classify(struct insn_event *e, const struct trap_frame *tf,
		     const struct insn_class *k)
{
	trace_classify(e, k, (uint32_t)(tr.prev_rcx - tf->rcx));
}

/* Linear addresses of the step's accesses from the state before it.  A
 * REP step with no iteration accessed nothing; one with several is
 * described by its first. */
static void accesses(struct insn_event *e, const struct insn_class *k,
		     const struct step_regs *before)
{
	int unknown = !before || e->iterations > 1 ||
		      (e->flags & (DEC_UNCLASSIFIED | DEC_MEM_UNKNOWN));
	unsigned n = 0;

	e->n_access = 0;
	if (!e->loads && !e->stores && !(e->flags & DEC_UNCLASSIFIED))
		return;
	for (unsigned i = 0; before && i < k->n_mem; i++) {
		const struct mem_operand *m = &k->mem[i];
		uint64_t base;

		if (trace_seg_base(m->flags, &base)) {
			unknown = 1;
			continue;
		}
		e->access[n].addr = base + mem_offset(m, before->gpr,
						      e->rip + k->length);
		e->access[n].size = m->size;
		e->access[n].store = !!(m->flags & MEM_STORE);
		n++;
	}
	e->n_access = (uint8_t)n;
	if (unknown)
		e->flags |= EV_ACCESS_UNKNOWN;
}

/*
 * While tracing, no breakpoint is armed (trace_run checks DR7), so every
 * #DB is a single-step trap; the hook does not read DR6 on each step
 * (debug-register moves are slow under emulation).  An INT1 in the traced
 * code would be counted as a step the decoder cannot classify.
 */
/* The fast path: a plain step of a decoded instruction seen before in
 * this slot is one increment. */
static int aggregated(uint64_t rip, uint64_t next, uint8_t cpl)
{
	unsigned slot = slot_of(rip);
	const struct insn_class *k = &decoded[slot].k;

	if (decoded[slot].rip != rip)
		return 0;
	if (k->flags & (DEC_REP_STRING | DEC_UNCLASSIFIED))
		return 0;
	if (agg[slot].hits && (agg[slot].rip != rip || agg[slot].cpl != cpl))
		return 0;
	if (next != rip + k->length) {
		if (!(k->flags & (DEC_BRANCH | DEC_FAR)))
			return 0;
		agg[slot].taken++;
	}
	if (!agg[slot].hits++) {
		agg[slot].rip = rip;
		agg[slot].cpl = cpl;
		agg[slot].k = *k;
	}
	return 1;
}

/* Aggregated events carry neither registers nor addresses. */
static unsigned no_accesses(const struct insn_event *e)
{
	return e->loads || e->stores || (e->flags & DEC_UNCLASSIFIED) ?
	       EV_ACCESS_UNKNOWN : 0;
}

static void flush_aggregated(void)
{
	for (unsigned i = 0; i < DECODE_CACHE; i++) {
		struct insn_class k = agg[i].k;
		struct insn_event e = { .rip = agg[i].rip, .cpl = agg[i].cpl,
					.retired = 1, .loads = k.loads,
					.stores = k.stores };
		unsigned flags = k.flags | no_accesses(&e);

		if (!agg[i].hits)
			continue;
		if (agg[i].taken) {
			e.flags = (uint16_t)(flags | EV_TAKEN);
			e.more = agg[i].taken - 1;
			tr.sink(&e, tr.ctx);
		}
		if (agg[i].hits > agg[i].taken) {
			e.flags = (uint16_t)flags;
			e.more = agg[i].hits - agg[i].taken - 1;
			tr.sink(&e, tr.ctx);
		}
		agg[i].hits = agg[i].taken = 0;
	}
}

static int in_range(uint64_t rip)
{
	return rip >= tr.start && rip < tr.end;
}

/* Counting only: most steps are one table increment. */
static void step_aggregated(struct insn_event *e, const struct trap_frame *tf)
{
	if (!in_range(e->rip)) {
		tr.outside++;
		return;
	}
	if (aggregated(e->rip, e->next_rip, e->cpl))
		return;
	classify(e, tf, decode_cached(e->rip));
	e->n_access = 0;
	e->after = NULL;
	e->flags |= (uint16_t)no_accesses(e);
	tr.sink(e, tr.ctx);
}

/* Every step in order, with the state it left and its addresses.  The
 * registers are kept at every trap, inside the range or not: they are the
 * next step's "before". */
static void step_full(struct insn_event *e, const struct trap_frame *tf)
{
	struct step_regs *after = &regs[tr.cur ^ 1];
	const struct insn_class *k;

	trace_regs_from_frame(after, tf);
	if (in_range(e->rip) && !win.hold) {
		k = decode_cached(e->rip);
		classify(e, tf, k);
		accesses(e, k, tr.have_before ? &regs[tr.cur] : NULL);
		e->after = after;
		tr.sink(e, tr.ctx);
	} else {
		tr.outside++;
	}
	tr.cur ^= 1;
	tr.have_before = 1;
}

static int db_hook(struct trap_frame *tf)
{
	struct insn_event e;

	e.rip = tr.prev_rip;
	e.next_rip = tf->rip;
	e.cpl = tr.prev_cpl;
	if (tr.aggregate)
		step_aggregated(&e, tf);
	else
		step_full(&e, tf);
	tr.prev_rip = tf->rip;
	tr.prev_rcx = tf->rcx;
	tr.prev_cpl = tf->cs & 3;
	return 1;
}

struct call0 {
	trace_fn fn;
	uint64_t n;
	void *data;
};

static void run_cpl0(void *arg)
{
	struct call0 *c = arg;

	trace_call0(c->fn, c->n, c->data);
}

static int run(trace_fn fn, uint64_t n, void *data, int cpl,
	       struct trace_range range, trace_sink sink, void *ctx,
	       struct fault *f, int aggregate)
{
	struct call0 c = { fn, n, data };
	ureg_t flags = read_flags();
	int r;

	/* A window left open by a test that ended without closing it: the
	 * runner cleared TF (harness/runner.c), so nothing is traced. */
	if (win.open && !(flags & X86_EFLAGS_TF))
		trace_window_close();
	if ((read_dr7() & DR7_ENABLES) || win.open) {
		f->vector = VEC_DB;	/* a breakpoint or a window: refuse */
		return -1;
	}
	memset(&tr, 0, sizeof(tr));
	memset(regs, 0, sizeof(regs));
	memset(decoded, 0, sizeof(decoded));
	memset(agg, 0, sizeof(agg));
	tr.aggregate = aggregate;
	tr.start = (uintptr_t)range.start;
	tr.end = (uintptr_t)range.end;
	tr.sink = sink;
	tr.ctx = ctx;
	clear_dr6();
	trap_set_hook(VEC_DB, db_hook);
	if (cpl == 3) {
		/* IRET setting TF: the trampoline's first instruction traps. */
		tr.prev_rip = (uintptr_t)ring3_trampoline;
		tr.prev_cpl = 3;
		r = ring3_run(fn, n, data, X86_EFLAGS_TF, f);
	} else {
		tr.prev_rip = (uintptr_t)trace_call0_first;
		tr.prev_cpl = 0;
		irq_disable();
		r = trap_catch(run_cpl0, &c, f);
	}
	/* A fault inside leaves TF set in the saved flags of nobody; make
	 * sure it is off here. */
	write_flags(flags & ~(ureg_t)X86_EFLAGS_TF);
	trap_set_hook(VEC_DB, NULL);
	clear_dr6();
	if (aggregate)
		flush_aggregated();
	return r;
}

int trace_run(trace_fn fn, uint64_t n, void *data, int cpl,
	      struct trace_range range, trace_sink sink, void *ctx,
	      struct fault *f)
{
	return run(fn, n, data, cpl, range, sink, ctx, f, 0);
}

int trace_run_aggregated(trace_fn fn, uint64_t n, void *data, int cpl,
			 struct trace_range range, trace_sink sink, void *ctx,
			 struct fault *f)
{
	return run(fn, n, data, cpl, range, sink, ctx, f, 1);
}

uint64_t trace_outside_steps(void)
{
	return tr.outside;
}

static int bare_hook(struct trap_frame *tf)
{
	(void)tf;
	tr.bare_count++;
	return 1;
}

uint64_t trace_bare(trace_fn fn, uint64_t n, void *data)
{
	ureg_t flags = read_flags();

	tr.bare_count = 0;
	trap_set_hook(VEC_DB, bare_hook);
	irq_disable();
	trace_call0(fn, n, data);
	write_flags(flags);
	trap_set_hook(VEC_DB, NULL);
	return tr.bare_count;
}

static int window_hook(struct trap_frame *tf);

/* A trace runs: trace_run's, or the counting window's (which steps
 * through db_hook too, so a PMI its model raises belongs to the traced
 * code just the same). */
uint64_t trace_resume_rip(void)
{
	const struct trap_frame *db = trap_hook_frame(VEC_DB);
	trap_hook_fn hook = trap_get_hook(VEC_DB);

	if (hook != db_hook && hook != window_hook)
		return 0;
	return db ? db->rip : tr.prev_rip;
}

/* ---- the counting window */

static void window_sink(const struct insn_event *e, void *ctx)
{
	(void)ctx;
	tally_step(&win.tally, e->rip, e->cpl,
		   e->retired ? 1 + (uint64_t)e->more : 0);
	win.sink(e, win.ctx);
}

static int window_hook(struct trap_frame *tf)
{
	if (!tr.prev_rip)
		tr.prev_rip = win.first;
	return db_hook(tf);
}

/* TF on, noting where the first step is (the instruction after POPF). */
static void set_tf(void)
{
#ifdef __x86_64__
	__asm__ volatile("leaq 1f(%%rip), %%rax\n\t"
			 "movq %%rax, %0\n\t"
			 "pushfq\n\t"
			 "orq $0x100, (%%rsp)\n\t"
			 "popfq\n"
			 "1:"
			 : "=m"(win.first) : : "rax", "memory", "cc");
#else
	__asm__ volatile("movl $1f, %0\n\t"
			 "pushfl\n\t"
			 "orl $0x100, (%%esp)\n\t"
			 "popfl\n"
			 "1:"
			 : "=m"(win.first) : : "memory", "cc");
#endif
}

int trace_window_open(trace_sink sink, void *ctx)
{
	if (win.open)
		return 0;
	if ((read_dr7() & DR7_ENABLES) || trap_get_hook(VEC_DB))
		return -1;
	memset(&tr, 0, sizeof(tr));
	memset(regs, 0, sizeof(regs));
	memset(decoded, 0, sizeof(decoded));
	tr.end = ~0ull;		/* every step is the window's */
	tr.sink = window_sink;
	win.sink = sink;
	win.ctx = ctx;
	win.open = 1;
	clear_dr6();
	trap_set_hook(VEC_DB, window_hook);
	set_tf();
	return 0;
}

void trace_window_close(void)
{
	if (!win.open)
		return;
	/* a trap after the POPF clearing TF finds the hook, and drops it */
	win.hold++;
	write_flags(read_flags() & ~(ureg_t)X86_EFLAGS_TF);
	trap_set_hook(VEC_DB, NULL);
	clear_dr6();
	win.open = 0;
	win.hold--;
}

int trace_window_active(void)
{
	return win.open;
}

void trace_window_hold(int hold)
{
	/* nests: an access in a handler inside a held one */
	win.hold += hold ? 1 : -1;
}

void trace_window_emit(const uint8_t *insn)
{
	struct insn_class k = decode_insn(insn);
	struct insn_event e = { .rip = (uintptr_t)insn,
				.next_rip = (uintptr_t)insn + k.length };

	if (!win.open)
		return;
	trace_classify(&e, &k, 0);
	e.flags |= EV_ACCESS_UNKNOWN;
	window_sink(&e, NULL);
}

void trace_window_range(struct trace_range range)
{
	tally_range(&win.tally, (uintptr_t)range.start,
		    (uintptr_t)range.end);
}

void trace_window_wrmsr(void)
{
	tally_wrmsr(&win.tally);
}

void trace_window_counts(struct trace_window_counts *c)
{
	*c = win.tally.n;
}
