/* misc: long-latency and serializing instructions, 32-bit protected mode
 * (formulas in b_misc.c, the x86-64 twins in bench/x86_64/misc.S).  n in
 * EDX:EAX, data in ECX (ROUTINE_ABI); n < 2^32. */
#include "../routine.h"

/* int-divide: per iteration an unsigned DIV of the counter by 7 and a
 * signed IDIV of it by -3, 32-bit (CDQ for x86-64's CQO).  DIV and IDIV
 * take EDX:EAX, so the counter moves to ECX and the divisors to the
 * callee-saved EBX and ESI, pushed and popped (i386/mode.h counts
 * them).  Neither divisor is 0 and the dividends (0:ecx and the sign
 * extension of ecx) keep every quotient in range: no #DE. */
BENCH_FUNC bench_int_divide
	push %ebx
	push %esi
	mov %eax, %ecx
	mov $7, %ebx
	mov $-3, %esi
	jmp 2f
1:	mov %ecx, %eax
	xor %edx, %edx
	div %ebx
	mov %ecx, %eax
	cdq
	idiv %esi
2:	sub $1, %ecx
	jnc 1b
	pop %esi
	pop %ebx
	ret
BENCH_ENDFUNC bench_int_divide

/* cpuid: per iteration CPUID leaf 0 (allowed at CPL 3, serializing).
 * CPUID writes EAX, EBX, ECX and EDX: the counter lives in the
 * callee-saved ESI, and EBX and ESI are pushed and popped (i386/mode.h
 * counts them). */
BENCH_FUNC bench_cpuid
	push %ebx
	push %esi
	mov %eax, %esi
	jmp 2f
1:	xor %eax, %eax
	xor %ecx, %ecx
	cpuid
2:	sub $1, %esi
	jnc 1b
	pop %esi
	pop %ebx
	ret
BENCH_ENDFUNC bench_cpuid

/* segment-load: per iteration DS is read and loaded back with the same
 * selector (the flat data selector at CPL 0, ring 3's user data selector
 * at CPL 3): one segment register load, no memory access. */
BENCH_FUNC bench_segment_load
	jmp 2f
1:	mov %ds, %edx
	mov %edx, %ds
2:	sub $1, %eax
	jnc 1b
	ret
BENCH_ENDFUNC bench_segment_load

	.section .note.GNU-stack, "", @progbits
