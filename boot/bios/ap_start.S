/* ap_start: an application processor's way from the SIPI to the harness on
 * a BIOS boot, and where it waits for work (boot/bios/mp.c drives it).
 *
 * A STARTUP IPI with vector VV starts the processor in real mode at
 * VV00:0000, i.e. at physical address VV000H, with CS = VV00H and IP = 0
 * (SDM Vol. 3A §8.4.4.1 and §10.6.1, order no. 253668-059US), so:
 *
 *   ap_trampoline  16-bit code, copied by mp.c to a 4 KiB page below
 *                  1 MiB: loads a temporary flat GDT of its own (its
 *                  address worked out from CS: the code runs wherever it
 *                  was copied), sets CR0.PE and jumps far into
 *   ap_entry32     32-bit code in the kernel image (paging is off in this
 *                  build: linear = physical, entry.S): the BSP's CR4 and
 *                  CR0 (caching as on the BSP: INIT leaves CD and NW as
 *                  they were, and a never-started AP has them set, SDM
 *                  Vol. 3A Table 9-1), a stack of its own, the BSP's GDT,
 *                  code and data selectors (arch/x86/smp.c checks CS and
 *                  SS against the BSP's: the harness IDT's gates name
 *                  that code segment), the AP's idle IDT, then
 *                  bios_ap_main() (mp.c), which waits for work in
 *   ap_idle_wait   HLT with interrupts off until the BSP posts a call:
 *                  the BSP's NMI ends the HLT (an NMI is delivered
 *                  whatever IF says, SDM Vol. 3A §6.7.1), and
 *   ap_nmi         the NMI handler makes sure an NMI that lands between
 *                  the check and the HLT is not slept through.
 *
 * The idle IDT is the AP's own, as UEFI firmware keeps its own on the
 * processors it parks: arch/x86/smp.c loads the harness's IDT around each
 * call and puts this one back.  The harness's IDT would take the wake-up
 * NMI for the watchdog's (trap.h, trap_set_nmi_first()) and act on the
 * trap layer's global state while the BSP runs a test. */
#include "ap.h"

/* ---- real mode: copied, position-independent, runs at CS:0 */

	.section .rodata.ap_trampoline, "a"
	.code16
	.globl ap_trampoline, ap_trampoline_end
ap_trampoline:
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	/* The temporary GDT's linear address: CS x 16 + its offset. */
	movzwl %ax, %eax
	shll $4, %eax
	addl $(temp_gdt - ap_trampoline), %eax
	movl %eax, (temp_gdtr + 2 - ap_trampoline)
	lgdtl (temp_gdtr - ap_trampoline)
	movl %cr0, %eax
	orl $1, %eax			/* PE */
	movl %eax, %cr0
	/* "Immediately following the MOV CR0 instruction, execute a far JMP"
	 * (SDM Vol. 3A §9.9.1): to the kernel's 32-bit code, absolute. */
	ljmpl $AP_TEMP_CODE, $ap_entry32

	.balign 8
temp_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff	/* 08h code32, flat, DPL 0 */
	.quad 0x00cf92000000ffff	/* 10h data32, flat, DPL 0 */
temp_gdt_end:
	.balign 4
	.word 0
temp_gdtr:
	.word temp_gdt_end - temp_gdt - 1
	.long 0				/* written above */
ap_trampoline_end:

/* ---- protected mode, in the kernel */

	.text
	.code32
ap_entry32:
	movw $AP_TEMP_DATA, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movl ap_boot + AP_BOOT_ESP, %esp
	movl ap_boot + AP_BOOT_CR4, %eax
	testl %eax, %eax
	jz 1f
	movl %eax, %cr4
1:	movl ap_boot + AP_BOOT_CR0, %eax
	movl %eax, %cr0
	lgdt ap_boot + AP_BOOT_GDTR
	pushl ap_boot + AP_BOOT_CS
	pushl $2f
	lret
2:	movl ap_boot + AP_BOOT_SS, %eax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %fs
	movw %ax, %gs
	movw %ax, %ss
	lidt ap_boot + AP_BOOT_IDTR
	pushl $0			/* EFLAGS: IF, DF clear */
	popfl
	call bios_ap_main
3:	cli
	hlt
	jmp 3b

/* uint32_t ap_idle_wait(const volatile uint32_t *posted, uint32_t seen) */
	.globl ap_idle_wait
ap_idle_wait:
	movl 4(%esp), %edx
	movl 8(%esp), %ecx
ap_idle_check:
	movl (%edx), %eax
	cmpl %ecx, %eax
	jne 1f
ap_idle_halt:
	hlt
	jmp ap_idle_check
1:	ret

/* The wake-up NMI.  One that arrives after the check but before the HLT
 * would return to the HLT and sleep through the message it brings:
 * resume at the check instead (one NMI per call is then enough).  An NMI
 * during the HLT returns past it, to the check. */
	.globl ap_nmi
ap_nmi:
	cmpl $ap_idle_check, (%esp)
	jb 1f
	cmpl $ap_idle_halt, (%esp)
	ja 1f
	movl $ap_idle_check, (%esp)
1:	iret

/* Any other exception on the AP outside the harness's calls (a fault in
 * bios_ap_main or in arch/x86/smp.c's entry before its LIDT): recorded,
 * then the AP halts for good; the BSP's bounded wait ends the call and
 * names it.  The vectors with an error code (SDM Vol. 3A Table 6-1:
 * 8, 10-14, 17, 21, 29, 30) have it pushed by the CPU; the others get a
 * 0 here, so that EIP is at the same place. */
	.macro fault_stub v
	.balign AP_FAULT_STUB_SIZE
	.if (\v == 8) || (\v >= 10 && \v <= 14) || (\v == 17) || \
	    (\v == 21) || (\v == 29) || (\v == 30)
	.else
	pushl $0
	.endif
	pushl $\v
	jmp ap_fault_common
	.endm

	.balign AP_FAULT_STUB_SIZE
	.globl ap_fault_stubs
ap_fault_stubs:
	.irp v, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	fault_stub \v
	.endr

ap_fault_common:
	popl %eax			/* vector */
	movl %eax, ap_fault + 4
	movl 4(%esp), %eax		/* past the error code: EIP */
	movl %eax, ap_fault + 8
	lock incl ap_fault
4:	cli
	hlt
	jmp 4b

	.section .note.GNU-stack, "", @progbits
