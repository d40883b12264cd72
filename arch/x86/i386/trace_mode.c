/* trace_mode (i386): the tracer's per-mode parts (arch/x86/trace.h) in
 * 32-bit protected mode. */
#include "../trace.h"

/* EFLAGS.RF: SDM Vol. 1 §3.4.3, Figure 3-8 (order no. 253665) */
#define EFLAGS_RF (1u << 16)

/* The trap frame's registers in encoding order (trace.h: step_regs):
 * EAX ... EDI, no R8-R15.  rsp is the ESP before the trap at every CPL
 * (the entry fills it for a same-CPL trap, i386/frame.h). */
void trace_regs_from_frame(struct step_regs *r, const struct trap_frame *tf)
{
	r->gpr[0] = tf->rax;
	r->gpr[1] = tf->rcx;
	r->gpr[2] = tf->rdx;
	r->gpr[3] = tf->rbx;
	r->gpr[4] = tf->rsp;
	r->gpr[5] = tf->rbp;
	r->gpr[6] = tf->rsi;
	r->gpr[7] = tf->rdi;
	for (unsigned i = 8; i < 16; i++)
		r->gpr[i] = 0;
	r->rip = tf->rip;
	r->rflags = tf->rflags & ~(ureg_t)(X86_EFLAGS_TF | EFLAGS_RF);
}

/* A segment's base from its descriptor in the GDT: bytes 2-4 are base
 * 15:0 and 23:16, byte 7 base 31:24 (SDM Vol. 3A §3.4.5, Figure 3-8,
 * order no. 253668).  Selector bits: RPL 1:0, TI 2 (LDT), index 15:3
 * (§3.4.2).  -1 for the null selector, an LDT one, or one past the
 * GDT's limit. */
static int gdt_base(uint16_t sel, uint64_t *base)
{
	struct x86_dtr gdtr;
	const uint8_t *d;

	if ((sel & ~3u) == 0 || (sel & 4))
		return -1;
	sgdt(&gdtr);
	if ((unsigned)(sel | 7) > gdtr.limit)
		return -1;
	d = (const uint8_t *)(uintptr_t)gdtr.base + (sel & ~7u);
	*base = (uint64_t)d[2] | (uint64_t)d[3] << 8 | (uint64_t)d[4] << 16 |
		(uint64_t)d[7] << 24;
	return 0;
}

/* The 32-bit build assumes flat CS, DS, ES and SS (base 0: the BIOS
 * boot's GDT and ring3.c's user segments), as decode.h does; FS and GS
 * are read from the selector the traced code has loaded: the trap entry
 * leaves FS and GS alone (it reloads DS and ES only). */
int trace_seg_base(unsigned mem_flags, uint64_t *base)
{
	uint16_t sel;

	if (!(mem_flags & (MEM_FS | MEM_GS))) {
		*base = 0;
		return 0;
	}
	if (mem_flags & MEM_FS)
		__asm__ volatile("mov %%fs, %0" : "=r"(sel));
	else
		__asm__ volatile("mov %%gs, %0" : "=r"(sel));
	return gdt_base(sel, base);
}
