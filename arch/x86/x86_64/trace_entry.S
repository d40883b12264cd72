/* trace_entry: start and stop single-stepping around a CPL 0 call.
 * void trace_call0(fn rdi, n rsi, data rdx)
 * POPF setting TF makes the instruction after it (the CALL) the first to
 * trap (SDM Vol. 3B §17.3.1.4); trace_call0_first marks that CALL. */
	.text
	.globl trace_call0, trace_call0_first
	.hidden trace_call0, trace_call0_first
trace_call0:
	pushq %rbx
	movq %rdi, %rax
	movq %rsi, %rdi
	movq %rdx, %rsi
	pushfq
	orq $0x100, (%rsp)
	popfq
trace_call0_first:
	call *%rax
	pushfq
	andq $~0x100, (%rsp)
	popfq
	popq %rbx
	ret

	.section .note.GNU-stack, "", @progbits
