/* seg_routine: a routine for tests/trace/steps.c (trace/segment-and-rip-
 * addresses): the address forms no benchmark uses, an FS and a GS
 * override and a RIP-relative operand.  CPL 0 only (.text, not
 * .text.bench).  void trace_seg_routine(n (rdi, unused), data (rsi)):
 *	rax = fs:8(data); gs:16(data) = rax; rcx = trace_seg_slot */
	.text
	.globl trace_seg_routine, trace_seg_routine_end, trace_seg_slot
	.hidden trace_seg_routine, trace_seg_routine_end, trace_seg_slot
trace_seg_routine:
	movq %fs:8(%rsi), %rax
	movq %rax, %gs:16(%rsi)
	movq trace_seg_slot(%rip), %rcx
	ret
trace_seg_routine_end:

	.data
	.balign 8
trace_seg_slot:
	.quad 0x5eb0c0de5eb0c0de

	.section .note.GNU-stack, "", @progbits
