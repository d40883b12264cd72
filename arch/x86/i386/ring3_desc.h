/* ring3_desc (i386): the 32-bit TSS, its descriptor and the 32-bit user
 * code descriptor.  Citations: Intel SDM Vol. 3A, order no. 253668-059US
 * (June 2016). */
#ifndef ARCH_X86_I386_RING3_DESC_H
#define ARCH_X86_I386_RING3_DESC_H

#include <stdint.h>

/* 32-bit TSS (§7.2.1, Figure 7-2): 104 bytes.  The harness never switches
 * tasks; only SS0:ESP0 (the stack for a CPL 3 -> 0 transition, §6.12.1)
 * and the I/O map base are used. */
struct ring3_tss {
	uint16_t link, reserved0;
	uint32_t esp0;
	uint16_t ss0, reserved1;
	uint32_t esp1;
	uint16_t ss1, reserved2;
	uint32_t esp2;
	uint16_t ss2, reserved3;
	uint32_t cr3, eip, eflags;
	uint32_t eax, ecx, edx, ebx, esp, ebp, esi, edi;
	uint16_t es, reserved4, cs, reserved5, ss, reserved6;
	uint16_t ds, reserved7, fs, reserved8, gs, reserved9;
	uint16_t ldt, reserved10;
	uint16_t trap, iomap_base;
} __attribute__((packed));

_Static_assert(sizeof(struct ring3_tss) == 104, "32-bit TSS is 104 bytes");

/* User 32-bit code: flat (base 0, limit 4 GiB, G = 1), type 0xA
 * (execute/read), DPL 3, D = 1 (§3.4.5, Figure 3-8). */
#define RING3_DESC_USER_CODE 0x00cffa000000ffffull
/* The 32-bit TSS descriptor takes one GDT slot (§7.2.2, Figure 7-3). */
#define RING3_TSS_SLOTS 1

/* An available 32-bit TSS (type 9, DPL 0, G = 0) at t. */
static inline void ring3_tss_desc(uint64_t *slot, const struct ring3_tss *t)
{
	uint64_t base = (uintptr_t)t, limit = sizeof(*t) - 1;

	slot[0] = (limit & 0xffff) | (base & 0xffffff) << 16 |
		  0x89ull << 40 | ((limit >> 16) & 0xf) << 48 |
		  ((base >> 24) & 0xff) << 56;
}

/* A zeroed TSS made ready: SS0 is the harness's stack segment; the I/O
 * map base lies past the limit (103), so there is no I/O permission
 * bitmap and every IN/OUT at CPL 3 with IOPL 0 raises #GP (SDM Vol. 1,
 * "I/O Permission Bit Map"). */
static inline void ring3_tss_init(struct ring3_tss *t, uint16_t ss0)
{
	t->ss0 = ss0;
	t->iomap_base = sizeof(*t);
}

/* ESP0: the stack the CPU switches to on a CPL 3 -> 0 transition. */
static inline void ring3_tss_stack0(struct ring3_tss *t, uintptr_t sp)
{
	t->esp0 = (uint32_t)sp;
}

/* The stack pointer now: ring3.c puts the CPL 0 stack below it. */
static inline uintptr_t ring3_stack_pointer(void)
{
	uintptr_t sp;

	__asm__ volatile("mov %%esp, %0" : "=r"(sp));
	return sp;
}

#endif
