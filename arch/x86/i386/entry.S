/* entry (i386): exception entry stubs for vectors 0-31, the common entry
 * that builds struct trap_frame (i386/frame.h) for trap_dispatch(), and
 * the catch context switch.  Each stub is 16 bytes: trap_stubs + 16 *
 * vector.  Citations: Intel SDM Vol. 3A, order no. 253668. */

#include "../vector_error.h"

/* struct trap_frame offsets (i386/frame.h). */
#define TF_ES		0
#define TF_DS		4
#define TF_RAX		32
#define TF_RSP		36
#define TF_SS		40
#define TF_VECTOR	44
#define TF_RIP		52
#define TF_CS		56
#define TF_RFLAGS	60
#define TF_USER_ESP	64	/* pushed by the CPU from CPL 3 only */
#define TF_USER_SS	68

	.text
	.balign 16
	.globl trap_stubs
	.hidden trap_stubs
trap_stubs:
	vec = 0
	.rept 32
	.balign 16
	.if VECTOR_HAS_ERROR(vec)
	nop
	nop
	.else
	pushl $0
	.endif
	pushl $vec
	jmp trap_common
	vec = vec + 1
	.endr

/*
 * Also the entry of stubs for lent vectors >= 32 (trap.h).  On entry:
 * vector, error, EIP, CS, EFLAGS [, ESP, SS from CPL 3] (SDM Vol. 3A
 * §6.12.1, Figure 6-4).  Pushes the rest of struct trap_frame, fills rsp
 * and ss, and loads SS into DS and ES (from CPL 3 they hold the user's
 * selectors; SS is the ring-0 stack segment of the TSS, flat data).
 */
	.globl trap_entry_common
	.hidden trap_entry_common
trap_entry_common:
trap_common:
	subl $8, %esp			/* rsp, ss: filled below */
	pushl %eax
	pushl %ebx
	pushl %ecx
	pushl %edx
	pushl %esi
	pushl %edi
	pushl %ebp
	/* 16-bit moves: a 32-bit MOV from a segment register leaves the
	 * upper half undefined before the Pentium Pro (SDM Vol. 2B, MOV). */
	xorl %eax, %eax
	movw %ds, %ax
	pushl %eax
	movw %es, %ax
	pushl %eax
	movzwl TF_CS(%esp), %eax	/* the CPU may leave the CS slot's */
	movl %eax, TF_CS(%esp)		/* upper half as it was */
	testl $3, %eax
	jnz 1f
	/* Same CPL: no stack switch, no SS:ESP pushed; the interrupted
	 * ESP is just above the CPU's frame. */
	leal TF_USER_ESP(%esp), %eax
	movl %eax, TF_RSP(%esp)
	xorl %eax, %eax
	movw %ss, %ax
	movl %eax, TF_SS(%esp)
	jmp 2f
1:	movl TF_USER_ESP(%esp), %eax
	movl %eax, TF_RSP(%esp)
	movzwl TF_USER_SS(%esp), %eax
	movl %eax, TF_SS(%esp)
2:	movw %ss, %ax
	movw %ax, %ds
	movw %ax, %es
	cld
	movl %esp, %eax
	pushl %eax			/* trap_dispatch(frame) */
	call trap_dispatch
	addl $4, %esp
	/* Returning to CPL 3: the CPU's SS:ESP are the ones IRET loads. */
	testl $3, TF_CS(%esp)
	jz 3f
	movl TF_RSP(%esp), %eax
	movl %eax, TF_USER_ESP(%esp)
	movl TF_SS(%esp), %eax
	movl %eax, TF_USER_SS(%esp)
3:	popl %eax
	movw %ax, %es
	popl %eax
	movw %ax, %ds
	popl %ebp
	popl %edi
	popl %esi
	popl %edx
	popl %ecx
	popl %ebx
	popl %eax
	addl $16, %esp			/* rsp, ss, vector, error */
	iret

/*
 * struct catch_ctx { rbx, rsi, rdi, rbp, rsp, rip, rflags, ds, es, ss }
 * (i386/frame.h; they hold EBX, ESI, ...).
 * int catch_save(struct catch_ctx *) returns 0, and 1 again when
 * catch_resume(ctx) is called from a fault.  cdecl: the argument at
 * 4(%esp) on entry.
 */
	.globl catch_save
	.hidden catch_save
catch_save:
	movl 4(%esp), %ecx
	movl %ebx, 0(%ecx)
	movl %esi, 4(%ecx)
	movl %edi, 8(%ecx)
	movl %ebp, 12(%ecx)
	leal 4(%esp), %eax		/* ESP after the RET */
	movl %eax, 16(%ecx)
	movl (%esp), %eax
	movl %eax, 20(%ecx)
	pushfl
	popl 24(%ecx)
	xorl %eax, %eax
	movw %ds, %ax
	movl %eax, 28(%ecx)
	movw %es, %ax
	movl %eax, 32(%ecx)
	movw %ss, %ax
	movl %eax, 36(%ecx)
	xorl %eax, %eax
	ret

/* void catch_resume(struct catch_ctx *) - does not return.  Usable with
 * any stack: the context is read through ECX. */
	.globl catch_resume
	.hidden catch_resume
catch_resume:
	movl 4(%esp), %ecx
	movw 36(%ecx), %ss
	movl 16(%ecx), %esp		/* in MOV SS's shadow */
	movw 32(%ecx), %es
	movw 28(%ecx), %ds
	movl 0(%ecx), %ebx
	movl 4(%ecx), %esi
	movl 8(%ecx), %edi
	movl 12(%ecx), %ebp
	pushl 24(%ecx)
	popfl
	movl $1, %eax
	jmp *20(%ecx)

/*
 * void nmi_unblock(void): an IRET to the instruction after it, same CS,
 * stack and EFLAGS.  At the same CPL a 32-bit IRET pops EIP, CS and
 * EFLAGS only (SDM Vol. 3A §6.12.1, Figure 6-4; IRET, Vol. 2A).  The
 * IRET ends NMI blocking (§6.7.1).
 */
	.globl nmi_unblock
	.hidden nmi_unblock
nmi_unblock:
	pushfl
	xorl %eax, %eax
	movw %cs, %ax
	pushl %eax
	pushl $1f
	iret
1:	ret

	.section .note.GNU-stack, "", @progbits
