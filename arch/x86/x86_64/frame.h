/* frame (x86-64): the trap layer's layouts in 64-bit mode - the frame
 * entry.S builds for trap_dispatch(), the catch context, and an IDT gate.
 * Included through trap.h only. */
#ifndef ARCH_X86_X86_64_FRAME_H
#define ARCH_X86_X86_64_FRAME_H

#include <stdint.h>
#include "../cpu.h"

/* Saved by x86_64/entry.S, lowest address first.  In 64-bit mode the CPU
 * always pushes SS:RSP (SDM Vol. 3A §6.14.2), so rsp and ss are the
 * CPU's own.  entry.S applies a hook's changes to every field but vector
 * and error on the way out (IRETQ). */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};

/* What catch_save() keeps (x86_64/entry.S has the offsets): the SysV
 * callee-saved registers, RSP and RIP after the call, RFLAGS, DS/ES/SS. */
struct catch_ctx {
	uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip, rflags;
	uint64_t ds, es, ss;
};

/* A 64-bit IDT gate, 16 bytes (SDM Vol. 3A §6.14.1, Figure 6-7). */
struct idt_gate {
	uint16_t offset_lo;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_hi;
	uint32_t reserved;
} __attribute__((packed));

/* Present, DPL, 64-bit interrupt gate (type 0xE), no IST. */
static inline void idt_gate_set(struct idt_gate *g, uintptr_t handler,
				uint16_t cs, unsigned dpl)
{
	g->offset_lo = (uint16_t)handler;
	g->selector = cs;
	g->ist = 0;
	g->type_attr = (uint8_t)(0x80 | dpl << 5 | 0x0e);
	g->offset_mid = (uint16_t)(handler >> 16);
	g->offset_hi = (uint32_t)(handler >> 32);
	g->reserved = 0;
}

/* Whether a firmware gate is worth keeping: present, and an interrupt or
 * trap gate of the mode (type 0xE or 0xF).  Anything else - garbage in an
 * IDT the loader left undefined - is dropped (a not-present gate: #NP). */
static inline int idt_gate_usable(const struct idt_gate *g)
{
	return (g->type_attr & 0x80) && (g->type_attr & 0x0e) == 0x0e;
}

#endif
