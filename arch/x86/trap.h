/* trap: the harness's own handling of exception vectors 0-31 while tests
 * run.  trap_install() puts an IDT in place that keeps the firmware's
 * gates for vectors 32-255 and routes 0-31 here; trap_restore() gives the
 * firmware its IDT back.  A fault is resolved in this order:
 *   1. an installed hook for the vector (the single-step tracer's #DB,
 *      the PMI handler's NMI and its lent vector);
 *   2. an exception-table fixup (the *_safe instructions, safe.h);
 *   3. the innermost trap_catch() frame, which returns the fault;
 *   4. the fatal handler (log a Bail out!, leave through the exit path). */
#ifndef ARCH_X86_TRAP_H
#define ARCH_X86_TRAP_H

#include <stdint.h>
#include "cpu.h"

/* struct trap_frame (what the hooks see: the same field names in both
 * modes, rsp and ss always valid), struct catch_ctx and struct idt_gate
 * are the mode's. */
#if defined(__x86_64__)
#include "x86_64/frame.h"
#else
#include "i386/frame.h"
#endif

struct fault {
	unsigned vector;
	int has_error;
	uint64_t error, rip, cs, rflags, rsp, cr2;
};

/* Vectors (SDM Vol. 3A Table 6-1). */
enum {
	VEC_DE = 0, VEC_DB = 1, VEC_NMI = 2, VEC_BP = 3, VEC_OF = 4,
	VEC_BR = 5, VEC_UD = 6, VEC_NM = 7, VEC_DF = 8, VEC_TS = 10,
	VEC_NP = 11, VEC_SS = 12, VEC_GP = 13, VEC_PF = 14, VEC_MF = 16,
	VEC_AC = 17, VEC_MC = 18, VEC_XM = 19, VEC_VE = 20, VEC_CP = 21,
};
/* Not a CPU vector: a test stopped at its time limit (watchdog.h). */
#define VEC_TIMEOUT 256u

typedef int (*trap_hook_fn)(struct trap_frame *f);

void trap_install(void);
void trap_restore(void);
int trap_installed(void);

/* Runs fn(arg).  Returns 0 when it returned normally; 1 when a fault ended
 * it, with the fault in *f and the CPU state of the caller restored
 * (callee-saved registers, stack, RFLAGS.IF, DS/ES/SS). */
int trap_catch(void (*fn)(void *), void *arg, struct fault *f);

/* trap_catch() whose frame is the root: trap_abort(f, 1) resumes it
 * from anywhere inside, past every frame nested in it (the runner runs
 * each test in one).  Roots do not nest: an inner call is a plain
 * trap_catch(). */
int trap_catch_root(void (*fn)(void *), void *arg, struct fault *f);
/* Ends what runs as if it had faulted with *f: resumes the innermost catch
 * frame, or the root one when to_root (and there is one).  With no frame,
 * the fatal handler.  From a trap handler (the watchdog's NMI). */
void trap_abort(const struct fault *f, int to_root)
	__attribute__((noreturn));
/* A hook consulted before the vector's own hook for every NMI (the
 * watchdog's); returns 1 when the NMI was its own.  NULL removes it. */
void trap_set_nmi_first(trap_hook_fn fn);
/* IRETs to the next instruction, on the same stack and at the same CPL:
 * ends the NMI-blocked state of an NMI handler that will not return
 * (SDM Vol. 3A §6.7.1: "until the next IRET"). */
void nmi_unblock(void);

/* A hook claims a vector before anything else (it returns 1 when it
 * handled the trap); NULL removes it.  Vectors >= 32 reach the hooks only
 * through a gate lent with trap_claim_vector() to a stub that enters like
 * the exception stubs: push 0 (no error code), push the vector, jump to
 * trap_entry_common (the mode's entry.S), each push of the mode's width. */
void trap_set_hook(unsigned vector, trap_hook_fn fn);
trap_hook_fn trap_get_hook(unsigned vector);
/* The frame the hook for vector is handling now (the innermost when
 * handlers nest, e.g. an NMI inside the #DB hook), or NULL when no hook
 * for it is running. */
const struct trap_frame *trap_hook_frame(unsigned vector);
/* Called for a fault nobody claimed; must not return. */
void trap_set_fatal(void (*fn)(const struct fault *f));

/* Lends a vector >= 32 to a gate of ours (e.g. a DPL 3 gate for CPL 3 to
 * call) until trap_release_vector() puts the firmware's gate back.  The
 * firmware may route interrupts there: borrow only with IF clear. */
int trap_claim_vector(unsigned vector, void (*entry)(void), unsigned dpl);
void trap_release_vector(unsigned vector);

/* The saved context behind trap_catch() (struct catch_ctx, the mode's
 * frame.h): callee-saved registers, stack, RIP, RFLAGS and DS/ES/SS.
 * catch_save() returns 0, then 1 again when catch_resume() is called on
 * the context (from any CPL-0 stack).  Both take the context as their
 * one argument in the mode's C convention (i386: on the stack). */

int catch_save(struct catch_ctx *ctx) __attribute__((returns_twice));
void catch_resume(struct catch_ctx *ctx) __attribute__((noreturn));

/* The harness's IDT (valid while trap_installed()), for another
 * processor to load (arch/x86/smp.c): its gates name the code segment the
 * bootstrap processor had at trap_install(). */
void trap_idt(struct x86_dtr *d);

/* The trap layer's global state: the hooks, the hook frames running and
 * the catch-frame chain.  Code on the sibling processor (arch/x86/smp.h)
 * uses the same state while the bootstrap processor waits; when the
 * sibling never returns (the firmware resets it after a timeout),
 * whatever it had pushed or hooked is put back as it was. */
struct trap_state {
	trap_hook_fn hooks[256];
	struct trap_frame *in_hook[256];
	void *catch_top;
};

void trap_state_save(struct trap_state *s);
void trap_state_restore(const struct trap_state *s);

/* "#GP" etc., "vector N" past the table. */
const char *trap_vector_name(unsigned vector);

#endif
