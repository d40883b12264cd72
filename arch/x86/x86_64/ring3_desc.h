/* ring3_desc (x86-64): the 64-bit TSS, its 16-byte descriptor and the
 * 64-bit user code descriptor.  Citations: Intel SDM Vol. 3A, order no.
 * 253668-059US (June 2016). */
#ifndef ARCH_X86_X86_64_RING3_DESC_H
#define ARCH_X86_X86_64_RING3_DESC_H

#include <stdint.h>

/* 64-bit TSS (§7.7, Figure 7-11). */
struct ring3_tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

/* User 64-bit code: type 0xA (execute/read), DPL 3, L = 1 (§3.4.5,
 * §5.2.1). */
#define RING3_DESC_USER_CODE 0x00affa000000ffffull
/* The 64-bit TSS descriptor takes two GDT slots (§7.2.3, Figure 7-4). */
#define RING3_TSS_SLOTS 2

/* An available 64-bit TSS (type 9) at t, in slot[0] and slot[1]. */
static inline void ring3_tss_desc(uint64_t *slot, const struct ring3_tss *t)
{
	uint64_t base = (uint64_t)(uintptr_t)t, limit = sizeof(*t) - 1;

	slot[0] = (limit & 0xffff) | (base & 0xffffff) << 16 |
		  0x89ull << 40 | ((limit >> 16) & 0xf) << 48 |
		  ((base >> 24) & 0xff) << 56;
	slot[1] = base >> 32;
}

/* A zeroed TSS made ready: no I/O permission bitmap (its base past the
 * limit), so CPL 3 I/O faults at IOPL 0.  In 64-bit mode the CPU loads a
 * null SS on the way to CPL 0 (§6.14.4): ss0 is not used. */
static inline void ring3_tss_init(struct ring3_tss *t, uint16_t ss0)
{
	(void)ss0;
	t->iomap_base = sizeof(*t);
}

/* The stack the CPU switches to on a CPL 3 -> 0 transition. */
static inline void ring3_tss_stack0(struct ring3_tss *t, uintptr_t sp)
{
	t->rsp[0] = sp;
}

/* The stack pointer now: ring3.c puts the CPL 0 stack below it. */
static inline uintptr_t ring3_stack_pointer(void)
{
	uintptr_t sp;

	__asm__ volatile("mov %%rsp, %0" : "=r"(sp));
	return sp;
}

#endif
