/* smp_entry (i386): a call on another stack, for code on the sibling
 * processor.
 *
 * void smp_call_on_stack(fn [esp+4], arg [esp+8], stack_top [esp+12])
 *
 * Calls fn(arg) (cdecl) with ESP = stack_top rounded down to 16, minus
 * the argument, so ESP is 16-byte aligned at the CALL as GCC's i386 code
 * expects by default.  EBP keeps the caller's stack.  There is no SSE
 * state to keep: the 32-bit build has no firmware with an MS ABI caller
 * (the x86-64 counterpart saves XMM6-XMM15 for UEFI's). */
	.text
	.globl smp_call_on_stack
	.hidden smp_call_on_stack
smp_call_on_stack:
	pushl %ebp
	movl %esp, %ebp
	movl 8(%ebp), %eax		/* fn */
	movl 12(%ebp), %ecx		/* arg */
	movl 16(%ebp), %edx		/* stack_top */
	andl $-16, %edx
	leal -16(%edx), %esp
	movl %ecx, (%esp)
	call *%eax
	movl %ebp, %esp
	popl %ebp
	ret

	.section .note.GNU-stack, "", @progbits
