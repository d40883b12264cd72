/* ap: what ap_start.S and mp.c share - the parameters an application
 * processor takes on its way from the SIPI to C (struct ap_boot, its
 * offsets for the assembler), and the assembler's entry points. */
#ifndef BOOT_BIOS_AP_H
#define BOOT_BIOS_AP_H

/* struct ap_boot, byte offsets (ap_start.S). */
#define AP_BOOT_CR0 0		/* the BSP's CR0 at the start, PG clear */
#define AP_BOOT_CR4 4		/* the BSP's CR4 (0: leave it) */
#define AP_BOOT_ESP 8		/* top of the AP's own stack */
#define AP_BOOT_CS 12		/* the BSP's code selector */
#define AP_BOOT_SS 16		/* the BSP's stack (and data) selector */
#define AP_BOOT_GDTR 22		/* 6 bytes: limit, base (the BSP's GDT) */
#define AP_BOOT_IDTR 30		/* 6 bytes: the AP's idle IDT */
#define AP_BOOT_SIZE 36

/* The temporary GDT's selectors (ap_start.S): flat 4 GiB, 32-bit. */
#define AP_TEMP_CODE 0x08
#define AP_TEMP_DATA 0x10

#define AP_FAULT_STUB_SIZE 16	/* ap_fault_stubs: one per vector 0-31 */

#ifndef __ASSEMBLY__
#include <stdint.h>

struct ap_boot {
	uint32_t cr0, cr4, esp, cs, ss;
	uint16_t pad0;
	uint16_t gdt_limit;	/* LGDT's operand: limit, then base */
	uint32_t gdt_base;
	uint16_t pad1;
	uint16_t idt_limit;	/* LIDT's */
	uint32_t idt_base;
} __attribute__((packed));

_Static_assert(__builtin_offsetof(struct ap_boot, esp) == AP_BOOT_ESP, "");
_Static_assert(__builtin_offsetof(struct ap_boot, ss) == AP_BOOT_SS, "");
_Static_assert(__builtin_offsetof(struct ap_boot, gdt_limit) == AP_BOOT_GDTR,
	       "");
_Static_assert(__builtin_offsetof(struct ap_boot, idt_limit) == AP_BOOT_IDTR,
	       "");
_Static_assert(sizeof(struct ap_boot) == AP_BOOT_SIZE, "");

/* Read by the starting AP (ap_start.S); written by the BSP before the
 * SIPI, one AP at a time. */
extern struct ap_boot ap_boot;

/* The real-mode code, copied to the start-up page: [ap_trampoline,
 * ap_trampoline_end). */
extern const uint8_t ap_trampoline[], ap_trampoline_end[];

/* The idle IDT's handlers: the wake-up NMI, and a stub per vector 0-31
 * (AP_FAULT_STUB_SIZE bytes each) that records the fault in ap_fault and
 * halts the AP for good. */
extern const uint8_t ap_nmi[], ap_fault_stubs[];
struct ap_fault {
	uint32_t count, vector, eip;
};
extern volatile struct ap_fault ap_fault;

/* Waits, halted (IF clear; the wake-up NMI ends the HLT), until *posted
 * differs from seen; returns it. */
uint32_t ap_idle_wait(const volatile uint32_t *posted, uint32_t seen);

/* The C side, called by ap_start.S on the AP's own stack (mp.c). */
void bios_ap_main(void) __attribute__((noreturn));
#endif

#endif
