/* trace: single-step tracer (see trace.h). */
#include "trace.h"
#include "cpu.h"
#include "ring3.h"
#include "../../lib/string.h"

#define DR7_ENABLES 0xffull	/* L0-L3, G0-G3 (SDM Vol. 3B §17.2.4) */
#define DECODE_CACHE 256	/* direct-mapped by RIP */

void trace_call0(void (*fn)(uint64_t, void *), uint64_t n, void *data);
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
} tr;

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

static uint64_t read_dr7(void)
{
	uint64_t v;

	__asm__ volatile("mov %%dr7, %0" : "=r"(v));
	return v;
}

static void clear_dr6(void)
{
	/* DR6 bits are sticky: reset to the architectural init value */
	__asm__ volatile("mov %0, %%dr6" : : "r"(0xffff0ff0ull));
}

static unsigned slot_of(uint64_t rip)
{
	return (unsigned)(rip ^ rip >> 8) % DECODE_CACHE;
}

static struct insn_class decode_cached(uint64_t rip)
{
	unsigned slot = slot_of(rip);

	if (decoded[slot].rip != rip) {
		decoded[slot].k = decode_insn((const uint8_t *)rip);
		decoded[slot].rip = rip;
	}
	return decoded[slot].k;
}

static void classify(struct insn_event *e, const struct trap_frame *tf)
{
	struct insn_class k = decode_cached(e->rip);
	uint64_t fall = e->rip + k.length;

	e->flags = k.flags;
	e->iterations = 0;
	e->retired = 1;
	e->loads = k.loads;
	e->stores = k.stores;
	if (k.flags & DEC_UNCLASSIFIED)
		return;
	if (k.flags & DEC_REP_STRING) {
		e->iterations = (uint32_t)(tr.prev_rcx - tf->rcx);
		e->loads = k.loads * e->iterations;
		e->stores = k.stores * e->iterations;
		e->retired = e->next_rip != e->rip;
		return;
	}
	if ((k.flags & (DEC_BRANCH | DEC_FAR)) && e->next_rip != fall)
		e->flags |= EV_TAKEN;
	else if (!(k.flags & (DEC_BRANCH | DEC_FAR)) && e->next_rip != fall)
		e->flags |= DEC_UNCLASSIFIED;	/* flow the decoder cannot explain */
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
	struct insn_class k;

	if (decoded[slot].rip != rip)
		return 0;
	k = decoded[slot].k;
	if (k.flags & (DEC_REP_STRING | DEC_UNCLASSIFIED))
		return 0;
	if (agg[slot].hits && (agg[slot].rip != rip || agg[slot].cpl != cpl))
		return 0;
	if (next != rip + k.length) {
		if (!(k.flags & (DEC_BRANCH | DEC_FAR)))
			return 0;
		agg[slot].taken++;
	}
	agg[slot].rip = rip;
	agg[slot].cpl = cpl;
	agg[slot].k = k;
	agg[slot].hits++;
	return 1;
}

static void flush_aggregated(void)
{
	for (unsigned i = 0; i < DECODE_CACHE; i++) {
		struct insn_class k = agg[i].k;
		struct insn_event e = { agg[i].rip, 0, agg[i].cpl, 1, k.flags,
					0, k.loads, k.stores, 0 };

		if (!agg[i].hits)
			continue;
		if (agg[i].taken) {
			e.flags = k.flags | EV_TAKEN;
			e.more = agg[i].taken - 1;
			tr.sink(&e, tr.ctx);
		}
		if (agg[i].hits > agg[i].taken) {
			e.flags = k.flags;
			e.more = agg[i].hits - agg[i].taken - 1;
			tr.sink(&e, tr.ctx);
		}
		agg[i].hits = agg[i].taken = 0;
	}
}

static int db_hook(struct trap_frame *tf)
{
	struct insn_event e;

	e.rip = tr.prev_rip;
	e.next_rip = tf->rip;
	e.cpl = tr.prev_cpl;
	if (e.rip >= tr.start && e.rip < tr.end) {
		if (!tr.aggregate || !aggregated(e.rip, e.next_rip, e.cpl)) {
			classify(&e, tf);
			e.more = 0;
			tr.sink(&e, tr.ctx);
		}
	} else {
		tr.outside++;
	}
	tr.prev_rip = tf->rip;
	tr.prev_rcx = tf->rcx;
	tr.prev_cpl = tf->cs & 3;
	return 1;
}

struct call0 {
	void (*fn)(uint64_t, void *);
	uint64_t n;
	void *data;
};

static void run_cpl0(void *arg)
{
	struct call0 *c = arg;

	trace_call0(c->fn, c->n, c->data);
}

static int run(void (*fn)(uint64_t, void *), uint64_t n, void *data, int cpl,
	       struct trace_range range, trace_sink sink, void *ctx,
	       struct fault *f, int aggregate)
{
	struct call0 c = { fn, n, data };
	uint64_t flags = read_flags();
	int r;

	if (read_dr7() & DR7_ENABLES) {
		f->vector = VEC_DB;	/* a breakpoint is armed: refuse */
		return -1;
	}
	memset(&tr, 0, sizeof(tr));
	memset(decoded, 0, sizeof(decoded));
	memset(agg, 0, sizeof(agg));
	tr.aggregate = aggregate;
	tr.start = (uint64_t)range.start;
	tr.end = (uint64_t)range.end;
	tr.sink = sink;
	tr.ctx = ctx;
	clear_dr6();
	trap_set_hook(VEC_DB, db_hook);
	if (cpl == 3) {
		/* IRET setting TF: the trampoline's first instruction traps. */
		tr.prev_rip = (uint64_t)ring3_trampoline;
		tr.prev_cpl = 3;
		r = ring3_run(fn, n, data, X86_EFLAGS_TF, f);
	} else {
		tr.prev_rip = (uint64_t)trace_call0_first;
		tr.prev_cpl = 0;
		irq_disable();
		r = trap_catch(run_cpl0, &c, f);
	}
	/* A fault inside leaves TF set in the saved flags of nobody; make
	 * sure it is off here. */
	write_flags(flags & ~(uint64_t)X86_EFLAGS_TF);
	trap_set_hook(VEC_DB, NULL);
	clear_dr6();
	if (aggregate)
		flush_aggregated();
	return r;
}

int trace_run(void (*fn)(uint64_t, void *), uint64_t n, void *data, int cpl,
	      struct trace_range range, trace_sink sink, void *ctx,
	      struct fault *f)
{
	return run(fn, n, data, cpl, range, sink, ctx, f, 0);
}

int trace_run_aggregated(void (*fn)(uint64_t, void *), uint64_t n,
			 void *data, int cpl, struct trace_range range,
			 trace_sink sink, void *ctx, struct fault *f)
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

uint64_t trace_bare(void (*fn)(uint64_t, void *), uint64_t n, void *data)
{
	uint64_t flags = read_flags();

	tr.bare_count = 0;
	trap_set_hook(VEC_DB, bare_hook);
	irq_disable();
	trace_call0(fn, n, data);
	write_flags(flags);
	trap_set_hook(VEC_DB, NULL);
	return tr.bare_count;
}

uint64_t trace_resume_rip(void)
{
	const struct trap_frame *db = trap_hook_frame(VEC_DB);

	if (trap_get_hook(VEC_DB) != db_hook)
		return 0;
	return db ? db->rip : tr.prev_rip;
}
