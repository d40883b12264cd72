/* entry: exception entry stubs for vectors 0-31 and the catch context
 * switch.  Each stub is 16 bytes: trap_stubs + 16 * vector. */

#include "../vector_error.h"

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
	pushq $0
	.endif
	pushq $vec
	jmp trap_common
	vec = vec + 1
	.endr

/* Also the entry of stubs for lent vectors >= 32 (trap.h). */
	.globl trap_entry_common
	.hidden trap_entry_common
trap_entry_common:
trap_common:
	pushq %rax
	pushq %rbx
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %rbp
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	cld
	movq %rsp, %rdi
	call trap_dispatch
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rbp
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rbx
	popq %rax
	addq $16, %rsp
	iretq

/*
 * struct catch_ctx { rbx, rbp, r12, r13, r14, r15, rsp, rip, rflags,
 *                    ds, es, ss }  (trap.c keeps the same layout)
 * int catch_save(struct catch_ctx *) returns 0, and 1 again when
 * catch_resume(ctx) is called from a fault.
 */
	.globl catch_save
	.hidden catch_save
catch_save:
	movq %rbx, 0(%rdi)
	movq %rbp, 8(%rdi)
	movq %r12, 16(%rdi)
	movq %r13, 24(%rdi)
	movq %r14, 32(%rdi)
	movq %r15, 40(%rdi)
	leaq 8(%rsp), %rax
	movq %rax, 48(%rdi)
	movq (%rsp), %rax
	movq %rax, 56(%rdi)
	pushfq
	popq 64(%rdi)
	movq $0, 72(%rdi)
	movw %ds, 72(%rdi)
	movq $0, 80(%rdi)
	movw %es, 80(%rdi)
	movq $0, 88(%rdi)
	movw %ss, 88(%rdi)
	xorl %eax, %eax
	ret

	.globl catch_resume
	.hidden catch_resume
catch_resume:
	movw 88(%rdi), %ss
	movw 80(%rdi), %es
	movw 72(%rdi), %ds
	movq 0(%rdi), %rbx
	movq 8(%rdi), %rbp
	movq 16(%rdi), %r12
	movq 24(%rdi), %r13
	movq 32(%rdi), %r14
	movq 40(%rdi), %r15
	movq 48(%rdi), %rsp
	pushq 64(%rdi)
	popfq
	movl $1, %eax
	jmpq *56(%rdi)

/*
 * void nmi_unblock(void): an IRETQ to the instruction after it, same CS,
 * SS, stack and RFLAGS (SDM Vol. 3A §6.14.3: the 64-bit IRET frame is SS,
 * RSP, RFLAGS, CS, RIP).  The IRET ends NMI blocking (§6.7.1).
 */
	.globl nmi_unblock
	.hidden nmi_unblock
nmi_unblock:
	movq %rsp, %rax
	xorl %ecx, %ecx
	movw %ss, %cx
	pushq %rcx
	pushq %rax
	pushfq
	movw %cs, %cx
	pushq %rcx
	leaq 1f(%rip), %rcx
	pushq %rcx
	iretq
1:	ret

	.section .note.GNU-stack, "", @progbits
