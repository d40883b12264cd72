/* frame (i386): the trap layer's layouts in 32-bit protected mode - the
 * frame i386/entry.S builds for trap_dispatch(), the catch context, and an
 * IDT gate.  Included through trap.h only.
 *
 * Citations: Intel SDM Vol. 3A, order no. 253668. */
#ifndef ARCH_X86_I386_FRAME_H
#define ARCH_X86_I386_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include "../cpu.h"

/* Built by i386/entry.S, lowest address first.  The field names are the
 * x86-64 ones (trap.h); they hold EIP, EFLAGS, ESP, EAX...
 *
 * On a trap at the same CPL the CPU pushes only EFLAGS, CS, EIP (and the
 * error code) and no SS:ESP (SDM Vol. 3A §6.12.1, Figure 6-4), so entry.S
 * fills rsp and ss itself: rsp = ESP before the trap, ss = SS.  From CPL
 * 3 they are copies of what the CPU pushed.  cs and ss are zero-extended.
 *
 * On the way out (IRET) entry.S applies a hook's changes to rip, cs,
 * rflags, the GPRs, ds and es; rsp and ss only for a return to CPL 3
 * (nothing in the harness moves the stack of a same-CPL trap, and the
 * CPU's frame sits on that stack). */
struct trap_frame {
	ureg_t es, ds;
	ureg_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	ureg_t rsp, ss;			/* the interrupted stack */
	ureg_t vector, error;		/* the stub (error 0 if none) */
	ureg_t rip, cs, rflags;		/* pushed by the CPU */
	/* from CPL 3 the CPU pushed ESP and SS here (copied above) */
};

/* entry.S's TF_* offsets. */
_Static_assert(offsetof(struct trap_frame, rax) == 32, "TF_RAX");
_Static_assert(offsetof(struct trap_frame, rsp) == 36, "TF_RSP");
_Static_assert(offsetof(struct trap_frame, vector) == 44, "TF_VECTOR");
_Static_assert(offsetof(struct trap_frame, rip) == 52, "TF_RIP");
_Static_assert(sizeof(struct trap_frame) == 64, "TF_USER_ESP");

/* What catch_save() keeps (i386/entry.S has the offsets): the cdecl
 * callee-saved registers, ESP and EIP after the call, EFLAGS, DS/ES/SS. */
struct catch_ctx {
	ureg_t rbx, rsi, rdi, rbp, rsp, rip, rflags;
	ureg_t ds, es, ss;
};

_Static_assert(sizeof(struct catch_ctx) == 40, "entry.S's offsets");

/* A 32-bit IDT gate, 8 bytes (SDM Vol. 3A §6.11, Figure 6-2). */
struct idt_gate {
	uint16_t offset_lo;
	uint16_t selector;
	uint8_t reserved;
	uint8_t type_attr;
	uint16_t offset_hi;
} __attribute__((packed));

/* Present, DPL, 32-bit interrupt gate (type 0xE: D = 1, IF cleared on
 * entry, SDM Vol. 3A §6.12.1.2). */
static inline void idt_gate_set(struct idt_gate *g, uintptr_t handler,
				uint16_t cs, unsigned dpl)
{
	g->offset_lo = (uint16_t)handler;
	g->selector = cs;
	g->reserved = 0;
	g->type_attr = (uint8_t)(0x80 | dpl << 5 | 0x0e);
	g->offset_hi = (uint16_t)(handler >> 16);
}

/* Whether a firmware gate is worth keeping: present, and an interrupt or
 * trap gate of the mode (type 0xE or 0xF).  Anything else - garbage in an
 * IDT the loader left undefined - is dropped (a not-present gate: #NP). */
static inline int idt_gate_usable(const struct idt_gate *g)
{
	return (g->type_attr & 0x80) && (g->type_attr & 0x0e) == 0x0e;
}

#endif
