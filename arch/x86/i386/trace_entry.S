/* trace_entry (i386): start and stop single-stepping around a CPL 0 call.
 * void trace_call0(trace_fn fn, uint64_t n, void *data), cdecl: fn at
 * 4(%esp), n at 8 and 12, data at 16.  fn is called with ROUTINE_ABI
 * (arch/x86/cpu.h): n in EDX:EAX, data in ECX.
 * POPF setting TF makes the instruction after it (the CALL) the first to
 * trap (SDM Vol. 3B §17.3.1.4); trace_call0_first marks that CALL.  The
 * CALL leaves the routine's entry ESP at 16n - 4, as a 16-byte aligned
 * call site gives it (tests/trace checks it). */
	.text
	.globl trace_call0, trace_call0_first
	.hidden trace_call0, trace_call0_first
trace_call0:
	pushl %ebp
	movl %esp, %ebp
	andl $-16, %esp
	movl 12(%ebp), %eax
	movl 16(%ebp), %edx
	movl 20(%ebp), %ecx
	pushfl
	orl $0x100, (%esp)
	popfl
trace_call0_first:
	call *8(%ebp)
	pushfl
	andl $~0x100, (%esp)
	popfl
	leave
	ret

	.section .note.GNU-stack, "", @progbits
