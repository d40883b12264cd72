/* trace_mode (x86-64): the tracer's per-mode parts (arch/x86/trace.h). */
#include "../trace.h"
#include "../safe.h"

/* RFLAGS.RF: SDM Vol. 1 §3.4.3, Figure 3-8 (order no. 253665) */
#define EFLAGS_RF (1ull << 16)
/* SDM Vol. 4 Table 2-2 (order no. 335592) */
#define MSR_FS_BASE 0xc0000100u
#define MSR_GS_BASE 0xc0000101u

/* The trap frame's registers in encoding order (trace.h: step_regs). */
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
	r->gpr[8] = tf->r8;
	r->gpr[9] = tf->r9;
	r->gpr[10] = tf->r10;
	r->gpr[11] = tf->r11;
	r->gpr[12] = tf->r12;
	r->gpr[13] = tf->r13;
	r->gpr[14] = tf->r14;
	r->gpr[15] = tf->r15;
	r->rip = tf->rip;
	r->rflags = tf->rflags & ~(uint64_t)(X86_EFLAGS_TF | EFLAGS_RF);
}

/* FS and GS are the only segments with a base in 64-bit mode (SDM Vol. 3A
 * §3.2.4, order no. 253668); read it only for an access that names one. */
int trace_seg_base(unsigned mem_flags, uint64_t *base)
{
	if (!(mem_flags & (MEM_FS | MEM_GS))) {
		*base = 0;
		return 0;
	}
	return rdmsr_safe(mem_flags & MEM_FS ? MSR_FS_BASE : MSR_GS_BASE,
			  base) ? -1 : 0;
}
