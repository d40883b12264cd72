/* gprs: bench "gpr-values", 32-bit protected mode (descriptor and
 * formulas in b_gprs.c, the x86-64 twin in bench/x86_64/gprs.S).  The
 * values are the low 32 bits of GPR_VALUE_* (gpr_values.h): i386 has
 * eight GPRs, EAX ... EDI, and no R8-R15. */
#include "../routine.h"
#include "../gpr_values.h"

#define LOW32(v) ((v) & 0xffffffff)

/* Saves the callee-saved registers and n (its low 32 bits, EAX: n <
 * 2^32), loads every GPR but ESP with its value, then runs the marker
 * loop n times with the counter on the stack (SUBL $1,(%esp): no
 * register changes inside the loop), and restores the callee-saved
 * registers.  [bench_gprs_marker, bench_gprs_marker_end) is the loop,
 * where every GPR but ESP holds its value. */
BENCH_FUNC bench_gprs
	push %ebx
	push %ebp
	push %esi
	push %edi
	push %eax			/* n: the loop counter */
	mov $LOW32(GPR_VALUE_RAX), %eax
	mov $LOW32(GPR_VALUE_RCX), %ecx
	mov $LOW32(GPR_VALUE_RDX), %edx
	mov $LOW32(GPR_VALUE_RBX), %ebx
	mov $LOW32(GPR_VALUE_RBP), %ebp
	mov $LOW32(GPR_VALUE_RSI), %esi
	mov $LOW32(GPR_VALUE_RDI), %edi
	.globl bench_gprs_marker
	.hidden bench_gprs_marker
bench_gprs_marker:
	jmp 2f
1:	nop
2:	subl $1, (%esp)
	jnc 1b
	.globl bench_gprs_marker_end
	.hidden bench_gprs_marker_end
bench_gprs_marker_end:
	pop %eax			/* drop the counter */
	pop %edi
	pop %esi
	pop %ebp
	pop %ebx
	ret
BENCH_ENDFUNC bench_gprs

	.section .note.GNU-stack, "", @progbits
