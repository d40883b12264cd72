/* trap: IDT for vectors 0-31, fixups, catch frames (see trap.h).  The
 * gate format and the frames are the mode's (x86_64/frame.h,
 * i386/frame.h); the entry stubs are x86_64/entry.S or i386/entry.S. */
#include "trap.h"
#include "vector_error.h"
#include "cpu.h"
#include "safe.h"
#include "../../lib/string.h"

struct catch_frame {
	struct catch_ctx ctx;
	struct fault fault;
	struct catch_frame *prev;
};

void trap_dispatch(struct trap_frame *tf);

extern const char trap_stubs[];
extern const struct ex_entry __ex_table_start[], __ex_table_end[];

static struct idt_gate idt[256] __attribute__((aligned(16)));
static struct x86_dtr firmware_idt;
static int installed;
static struct catch_frame *catch_top;
static struct catch_frame *catch_root;
static trap_hook_fn nmi_first;
static trap_hook_fn hooks[256];
static struct trap_frame *in_hook[256];
static void (*fatal)(const struct fault *f);

static const char *const vector_names[32] = {
	"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM",
	"#DF", "vector 9", "#TS", "#NP", "#SS", "#GP", "#PF", "vector 15",
	"#MF", "#AC", "#MC", "#XM", "#VE", "#CP", "vector 22", "vector 23",
	"vector 24", "vector 25", "vector 26", "vector 27", "#HV", "#VC",
	"#SX", "vector 31",
};

const char *trap_vector_name(unsigned vector)
{
	if (vector == VEC_TIMEOUT)
		return "timeout";
	return vector < 32 ? vector_names[vector] : "external interrupt";
}

/* Present, DPL, an interrupt gate of the mode (type 0xE: SDM Vol. 3A
 * §6.11 in 32-bit mode, §6.14.1 in 64-bit mode). */
static void set_gate(unsigned v, uintptr_t handler, uint16_t cs, unsigned dpl)
{
	idt_gate_set(&idt[v], handler, cs, dpl);
}

static const struct idt_gate *firmware_gates(void)
{
	return (const struct idt_gate *)(uintptr_t)firmware_idt.base;
}

/* The firmware's gates the IDTR limit covers, up to 256. */
static unsigned firmware_gate_count(void)
{
	unsigned n = (firmware_idt.limit + 1u) / sizeof(struct idt_gate);

	return n > 256 ? 256 : n;
}

void trap_install(void)
{
	uint16_t cs = read_cs();
	unsigned n;

	if (installed)
		return;
	sidt(&firmware_idt);
	/* Keep the firmware's gates for everything we do not handle. */
	n = firmware_gate_count();
	memset(idt, 0, sizeof(idt));
	for (unsigned v = 0; v < n; v++)
		if (idt_gate_usable(&firmware_gates()[v]))
			idt[v] = firmware_gates()[v];
	for (unsigned v = 0; v < 32; v++) {
		/* INT3/INTO from ring 3 need DPL 3 (SDM Vol. 3A §6.12.1.1). */
		unsigned dpl = (v == VEC_BP || v == VEC_OF) ? 3 : 0;

		set_gate(v, (uintptr_t)(trap_stubs + 16 * v), cs, dpl);
	}
	struct x86_dtr p = { sizeof(idt) - 1, (uintptr_t)idt };
	lidt(&p);
	installed = 1;
}

int trap_claim_vector(unsigned vector, void (*entry)(void), unsigned dpl)
{
	if (!installed || vector < 32 || vector > 255)
		return -1;
	set_gate(vector, (uintptr_t)entry, read_cs(), dpl);
	return 0;
}

void trap_release_vector(unsigned vector)
{
	if (!installed || vector < 32 || vector > 255)
		return;
	if (vector < firmware_gate_count() &&
	    idt_gate_usable(&firmware_gates()[vector]))
		idt[vector] = firmware_gates()[vector];
	else
		memset(&idt[vector], 0, sizeof(idt[vector]));
}

void trap_restore(void)
{
	if (!installed)
		return;
	lidt(&firmware_idt);
	installed = 0;
}

void trap_idt(struct x86_dtr *d)
{
	d->limit = sizeof(idt) - 1;
	d->base = (uintptr_t)idt;
}

void trap_state_save(struct trap_state *s)
{
	memcpy(s->hooks, hooks, sizeof(hooks));
	memcpy(s->in_hook, in_hook, sizeof(in_hook));
	s->catch_top = catch_top;
}

void trap_state_restore(const struct trap_state *s)
{
	memcpy(hooks, s->hooks, sizeof(hooks));
	memcpy(in_hook, s->in_hook, sizeof(in_hook));
	catch_top = s->catch_top;
}

int trap_installed(void)
{
	return installed;
}

void trap_set_hook(unsigned vector, trap_hook_fn fn)
{
	if (vector < 256)
		hooks[vector] = fn;
}

trap_hook_fn trap_get_hook(unsigned vector)
{
	return vector < 256 ? hooks[vector] : NULL;
}

const struct trap_frame *trap_hook_frame(unsigned vector)
{
	return vector < 256 ? in_hook[vector] : NULL;
}

/* Runs the hook for tf's vector, keeping in_hook[] right when hooks nest. */
static int run_hook(struct trap_frame *tf)
{
	unsigned v = (unsigned)tf->vector;
	struct trap_frame *outer = in_hook[v];
	int done;

	in_hook[v] = tf;
	done = hooks[v](tf);
	in_hook[v] = outer;
	return done;
}

void trap_set_fatal(void (*fn)(const struct fault *f))
{
	fatal = fn;
}

static int has_error_code(unsigned v)
{
	return VECTOR_HAS_ERROR(v);
}

static void fault_from_frame(const struct trap_frame *tf, struct fault *f)
{
	f->vector = (unsigned)tf->vector;
	f->has_error = has_error_code(f->vector);
	f->error = tf->error;
	f->rip = tf->rip;
	f->cs = tf->cs;
	f->rflags = tf->rflags;
	f->rsp = tf->rsp;
	f->cr2 = 0;
	if (f->vector == VEC_PF) {
		ureg_t cr2;

		__asm__ volatile("mov %%cr2, %0" : "=r"(cr2));
		f->cr2 = cr2;
	}
}

static int apply_fixup(struct trap_frame *tf)
{
	for (const struct ex_entry *e = __ex_table_start; e < __ex_table_end;
	     e++) {
		uintptr_t insn = (uintptr_t)&e->insn +
				 (uintptr_t)(intptr_t)e->insn;

		if (insn == tf->rip) {
			tf->rip = (uintptr_t)&e->fixup +
				  (uintptr_t)(intptr_t)e->fixup;
			tf->rax = tf->vector;
			return 1;
		}
	}
	return 0;
}

void trap_dispatch(struct trap_frame *tf)
{
	struct fault f;

	if (tf->vector == VEC_NMI && nmi_first && nmi_first(tf))
		return;
	if (tf->vector < 256 && hooks[tf->vector] && run_hook(tf))
		return;
	if (apply_fixup(tf))
		return;
	fault_from_frame(tf, &f);
	if (catch_top) {
		catch_top->fault = f;
		catch_resume(&catch_top->ctx);
	}
	if (fatal)
		fatal(&f);
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* A fault resumed at a catch frame abandons the traps nested below its
 * stack pointer without their IRET: their hooks are no longer running. */
static void forget_hooks_below(uintptr_t rsp)
{
	for (unsigned v = 0; v < 256; v++)
		if ((uintptr_t)in_hook[v] < rsp)
			in_hook[v] = NULL;
}

int trap_catch(void (*fn)(void *), void *arg, struct fault *out)
{
	struct catch_frame frame;

	frame.prev = catch_top;
	if (catch_save(&frame.ctx) == 0) {
		catch_top = &frame;
		fn(arg);
		catch_top = frame.prev;
		return 0;
	}
	catch_top = frame.prev;
	forget_hooks_below(frame.ctx.rsp);
	*out = frame.fault;
	return 1;
}

int trap_catch_root(void (*fn)(void *), void *arg, struct fault *out)
{
	struct catch_frame *outer = catch_root;
	struct catch_frame frame;

	if (outer)
		return trap_catch(fn, arg, out);
	frame.prev = catch_top;
	if (catch_save(&frame.ctx) == 0) {
		catch_top = &frame;
		catch_root = &frame;
		fn(arg);
		catch_top = frame.prev;
		catch_root = NULL;
		return 0;
	}
	catch_top = frame.prev;
	catch_root = NULL;
	forget_hooks_below(frame.ctx.rsp);
	*out = frame.fault;
	return 1;
}

void trap_abort(const struct fault *f, int to_root)
{
	struct catch_frame *fr = to_root && catch_root ? catch_root : catch_top;

	if (fr) {
		catch_top = fr;
		fr->fault = *f;
		catch_resume(&fr->ctx);
	}
	if (fatal)
		fatal(f);
	for (;;)
		__asm__ volatile("cli; hlt");
}

void trap_set_nmi_first(trap_hook_fn fn)
{
	nmi_first = fn;
}
