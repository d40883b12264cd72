/* misc: long-latency and serializing instructions (descriptors and formulas
 * in b_misc.c).  Loop shape as in basic.S: "jmp 2f; 1: body; 2: sub $1,
 * %rdi; jnc 1b", so the body sees rdi = n-1, n-2, ..., 0. */
#include "../routine.h"

/* int-divide: per iteration an unsigned DIV of rdi by 7 and a signed IDIV
 * of rdi by -3.  Neither divisor is 0 and the dividends (rdx:rax = 0:rdi
 * and the sign extension of rdi) keep every quotient in range: no #DE. */
BENCH_FUNC bench_int_divide
	mov $7, %ecx
	mov $-3, %r8
	jmp 2f
1:	mov %rdi, %rax
	xor %edx, %edx
	div %rcx
	mov %rdi, %rax
	cqo
	idiv %r8
2:	sub $1, %rdi
	jnc 1b
	ret
BENCH_ENDFUNC bench_int_divide

/* cpuid: per iteration CPUID leaf 0 (allowed at CPL 3, serializing).
 * CPUID writes %rbx, which the SysV ABI has the callee preserve: hence the
 * PUSH/POP around the loop. */
BENCH_FUNC bench_cpuid
	push %rbx
	jmp 2f
1:	xor %eax, %eax
	xor %ecx, %ecx
	cpuid
2:	sub $1, %rdi
	jnc 1b
	pop %rbx
	ret
BENCH_ENDFUNC bench_cpuid

/* segment-load: per iteration DS is read and loaded back with the same
 * selector (null at CPL 3 in 64-bit mode, the firmware's data selector at
 * CPL 0): one segment register load, no memory access. */
BENCH_FUNC bench_segment_load
	jmp 2f
1:	mov %ds, %eax
	mov %eax, %ds
2:	sub $1, %rdi
	jnc 1b
	ret
BENCH_ENDFUNC bench_segment_load

	.section .note.GNU-stack, "", @progbits
