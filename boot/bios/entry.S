/* entry: the Multiboot header and the first instructions of the legacy-BIOS
 * build.  A Multiboot loader (GRUB, SYSLINUX's mboot.c32, QEMU -kernel)
 * enters _start in 32-bit flat protected mode with paging off and IF = 0,
 * EAX = the loader magic, EBX = the information structure; GDTR, IDTR and
 * ESP are undefined (Multiboot 0.6.96 §3.2).  So: our own GDT, our own
 * stack, .bss zeroed, then bios_main(magic, info). */
#include "multiboot.h"

#define GDT_CODE 0x08
#define GDT_DATA 0x10

	.section .multiboot, "a"
	.balign 4
	.long MULTIBOOT_HEADER_MAGIC
	.long MULTIBOOT_HEADER_FLAGS
	.long -(MULTIBOOT_HEADER_MAGIC + MULTIBOOT_HEADER_FLAGS)

	.section .text.boot, "ax"
	.globl _start
_start:
	cli
	cld
	lgdt gdt_desc
	ljmp $GDT_CODE, $1f
1:	movw $GDT_DATA, %cx
	movw %cx, %ds
	movw %cx, %es
	movw %cx, %fs
	movw %cx, %gs
	movw %cx, %ss
	movl $boot_stack_top, %esp
	movl %eax, %esi			/* magic */
	movl %ebx, %edx			/* info */
	movl $__bss_start, %edi
	movl $__bss_end, %ecx
	subl %edi, %ecx
	xorl %eax, %eax
	rep stosb
	pushl $0			/* EFLAGS: IF, DF clear */
	popfl
	pushl %edx
	pushl %esi
	call bios_main
2:	cli
	hlt
	jmp 2b

/* Flat 4 GiB code and data at DPL 0 (SDM Vol. 3A §3.4.5: G=1, D/B=1,
 * type 0xA execute/read, 0x2 read/write); ring3.c adds its descriptors to a
 * copy of this table. */
	.section .data
	.balign 8
gdt:
	.quad 0
	.quad 0x00cf9a000000ffff	/* 0x08 code32 DPL 0 */
	.quad 0x00cf92000000ffff	/* 0x10 data32 DPL 0 */
gdt_end:
gdt_desc:
	.word gdt_end - gdt - 1
	.long gdt

	.section .bss
	.balign 16
boot_stack:
	.space 262144	/* 256 KiB: the harness keeps large buffers on the stack */
boot_stack_top:

	.section .note.GNU-stack, "", @progbits
