/* trace: single-step tracer (see trace.h). */
#include "trace.h"
#include "cpu.h"
#include "ring3.h"
#include "../../lib/string.h"

#define DR6_BS (1ull << 14)	/* single-step, SDM Vol. 3B §17.2.3 */

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
} tr;

static uint64_t read_dr6(void)
{
	uint64_t v;

	__asm__ volatile("mov %%dr6, %0" : "=r"(v));
	return v;
}

static void clear_dr6(void)
{
	/* DR6 bits are sticky: reset to the architectural init value */
	__asm__ volatile("mov %0, %%dr6" : : "r"(0xffff0ff0ull));
}

static int is_single_step(void)
{
	int bs = !!(read_dr6() & DR6_BS);

	clear_dr6();
	return bs;
}

static void classify(struct insn_event *e, const struct trap_frame *tf)
{
	struct insn_class k = decode_insn((const uint8_t *)e->rip);
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

static int db_hook(struct trap_frame *tf)
{
	struct insn_event e;

	if (!is_single_step())
		return 0;	/* not ours: let the fault path report it */
	e.rip = tr.prev_rip;
	e.next_rip = tf->rip;
	e.cpl = tr.prev_cpl;
	if (e.rip >= tr.start && e.rip < tr.end) {
		classify(&e, tf);
		tr.sink(&e, tr.ctx);
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

int trace_run(void (*fn)(uint64_t, void *), uint64_t n, void *data, int cpl,
	      struct trace_range range, trace_sink sink, void *ctx,
	      struct fault *f)
{
	struct call0 c = { fn, n, data };
	uint64_t flags = read_flags();
	int r;

	memset(&tr, 0, sizeof(tr));
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
	return r;
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
