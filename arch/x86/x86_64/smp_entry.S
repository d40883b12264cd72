/* smp_entry: a call on another stack, for code on the sibling processor.
 *
 * void smp_call_on_stack(fn rdi, arg rsi, stack_top rdx)
 *
 * Calls fn(arg) with RSP = stack_top (rounded down to 16) minus room for
 * XMM6-XMM15, which the firmware's MS ABI caller expects preserved: the
 * harness is built without SSE, but a benchmark routine may use it.
 * RBP keeps the caller's stack; RSP is 16-byte aligned at the CALL, as
 * the SysV ABI wants. */
	.text
	.globl smp_call_on_stack
	.hidden smp_call_on_stack
smp_call_on_stack:
	pushq %rbp
	movq %rsp, %rbp
	andq $-16, %rdx
	leaq -160(%rdx), %rsp
	movdqu %xmm6, 0(%rsp)
	movdqu %xmm7, 16(%rsp)
	movdqu %xmm8, 32(%rsp)
	movdqu %xmm9, 48(%rsp)
	movdqu %xmm10, 64(%rsp)
	movdqu %xmm11, 80(%rsp)
	movdqu %xmm12, 96(%rsp)
	movdqu %xmm13, 112(%rsp)
	movdqu %xmm14, 128(%rsp)
	movdqu %xmm15, 144(%rsp)
	movq %rdi, %rax
	movq %rsi, %rdi
	call *%rax
	movdqu 0(%rsp), %xmm6
	movdqu 16(%rsp), %xmm7
	movdqu 32(%rsp), %xmm8
	movdqu 48(%rsp), %xmm9
	movdqu 64(%rsp), %xmm10
	movdqu 80(%rsp), %xmm11
	movdqu 96(%rsp), %xmm12
	movdqu 112(%rsp), %xmm13
	movdqu 128(%rsp), %xmm14
	movdqu 144(%rsp), %xmm15
	movq %rbp, %rsp
	popq %rbp
	ret

	.section .note.GNU-stack, "", @progbits
