/* ring3_entry: the CPL 0 -> 3 transition (IRETQ) and the way back (an INT
 * gate at RING3_EXIT_VECTOR that resumes the saved ring-0 context). */

	.text
/* void ring3_iret(fn rdi, n rsi, data rdx, user_rsp rcx, rflags r8,
 *                 user_cs r9, user_ss [rsp+8]) -- does not return */
	.globl ring3_iret
	.hidden ring3_iret
ring3_iret:
	movq 8(%rsp), %rax
	pushq %rax			/* SS */
	pushq %rcx			/* RSP */
	pushq %r8			/* RFLAGS */
	pushq %r9			/* CS */
	leaq ring3_trampoline(%rip), %rax
	pushq %rax			/* RIP */
	movq %rdi, %rax
	movq %rsi, %rdi
	movq %rdx, %rsi
	iretq

/* The way back: the exit gate's handler, at CPL 0 on the TSS.RSP0 stack. */
	.globl ring3_exit_entry
	.hidden ring3_exit_entry
ring3_exit_entry:
	leaq ring3_return_ctx(%rip), %rdi
	jmp catch_resume

/* User pages: the trampoline runs at CPL 3. */
	.pushsection .text.user, "ax"
	.globl ring3_trampoline
	.hidden ring3_trampoline
ring3_trampoline:
	call *%rax
	int $0xf9			/* RING3_EXIT_VECTOR */
	.globl ring3_trampoline_end
	.hidden ring3_trampoline_end
ring3_trampoline_end:
	ud2				/* not reached */
	.popsection

	.section .note.GNU-stack, "", @progbits
