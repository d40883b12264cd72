/* gprs: bench "gpr-values" (descriptor and formulas in b_gprs.c).  The
 * routine is bench_gprs, not bench_gpr_values: that name is the table of
 * values (gpr_values.h). */
#include "../routine.h"
#include "../gpr_values.h"

/* Saves the callee-saved registers and n, loads every GPR but RSP with its
 * GPR_VALUE_*, then runs the marker loop n times with the counter on the
 * stack (SUBQ $1,(%rsp): no register changes inside the loop), and restores
 * the callee-saved registers.  [bench_gprs_marker, bench_gprs_marker_end)
 * is the loop, where every GPR but RSP holds its value. */
BENCH_FUNC bench_gprs
	push %rbx
	push %rbp
	push %r12
	push %r13
	push %r14
	push %r15
	push %rdi			/* n: the loop counter */
	movabs $GPR_VALUE_RAX, %rax
	movabs $GPR_VALUE_RCX, %rcx
	movabs $GPR_VALUE_RDX, %rdx
	movabs $GPR_VALUE_RBX, %rbx
	movabs $GPR_VALUE_RBP, %rbp
	movabs $GPR_VALUE_RSI, %rsi
	movabs $GPR_VALUE_RDI, %rdi
	movabs $GPR_VALUE_R8, %r8
	movabs $GPR_VALUE_R9, %r9
	movabs $GPR_VALUE_R10, %r10
	movabs $GPR_VALUE_R11, %r11
	movabs $GPR_VALUE_R12, %r12
	movabs $GPR_VALUE_R13, %r13
	movabs $GPR_VALUE_R14, %r14
	movabs $GPR_VALUE_R15, %r15
	.globl bench_gprs_marker
	.hidden bench_gprs_marker
bench_gprs_marker:
	jmp 2f
1:	nop
2:	subq $1, (%rsp)
	jnc 1b
	.globl bench_gprs_marker_end
	.hidden bench_gprs_marker_end
bench_gprs_marker_end:
	pop %rax			/* drop the counter */
	pop %r15
	pop %r14
	pop %r13
	pop %r12
	pop %rbp
	pop %rbx
	ret
BENCH_ENDFUNC bench_gprs

	.section .note.GNU-stack, "", @progbits
