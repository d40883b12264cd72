/* branches: branch-predictor and control-transfer benchmarks (descriptors
 * and formulas in b_branches.c).  Loop shape as in basic.S: enter at
 * "2: sub $1, %rdi; jnc 1b", so the body sees rdi = n-1, n-2, ..., 0. */
#include "../routine.h"

/* branch-alternating: a JZ on bit 0 of the counter, taken when it is even
 * (rdi = n-1 ... 0: taken ceil(n/2) times, not taken floor(n/2) times).
 * The ADD on the fall-through path keeps the JZ target off its own
 * fall-through address. */
BENCH_FUNC bench_branch_alternating
	xor %eax, %eax
	jmp 2f
1:	test $1, %edi
	jz 2f
	add $1, %rax
2:	sub $1, %rdi
	jnc 1b
	ret
BENCH_ENDFUNC bench_branch_alternating

/* branch-random: per iteration one xorshift64 step (13, 7, 17) of %rax,
 * then a JZ on its bit 0: taken when the bit is clear.  b_branches.c runs
 * the same generator from the same seed to count the taken JZs. */
BENCH_FUNC bench_branch_random
	movabs $BRANCH_RANDOM_SEED, %rax
	xor %edx, %edx
	jmp 2f
1:	mov %rax, %rcx
	shl $13, %rcx
	xor %rcx, %rax
	mov %rax, %rcx
	shr $7, %rcx
	xor %rcx, %rax
	mov %rax, %rcx
	shl $17, %rcx
	xor %rcx, %rax
	test $1, %eax
	jz 2f
	add $1, %rdx
2:	sub $1, %rdi
	jnc 1b
	ret
BENCH_ENDFUNC bench_branch_random

/* call-ret: per iteration two CALL/RET pairs to one leaf inside the
 * routine, first CALL rel32, then CALL through %rcx. */
BENCH_FUNC bench_call_ret
	lea 3f(%rip), %rcx
	xor %eax, %eax
	jmp 2f
1:	call 3f
	call *%rcx
2:	sub $1, %rdi
	jnc 1b
	ret
3:	add $1, %rax			/* the leaf */
	ret
BENCH_ENDFUNC bench_call_ret

/* indirect-jump: per iteration a JMP through a two-entry table the routine
 * writes at data[0..1] (target 4 when rdi is even, 5 when odd), and from
 * either target a JMP through %r9 back to the loop check.  The targets sit
 * after the RET, so neither is the fall-through of a jump to it. */
BENCH_FUNC bench_indirect_jump
	lea 4f(%rip), %rax
	lea 5f(%rip), %rdx
	lea 2f(%rip), %r9
	mov %rax, (%rsi)
	mov %rdx, 8(%rsi)
	jmp 2f
1:	mov %edi, %ecx
	and $1, %ecx
	jmp *(%rsi,%rcx,8)
2:	sub $1, %rdi
	jnc 1b
	ret
4:	add $1, %r8
	jmp *%r9
5:	add $2, %r8
	jmp *%r9
BENCH_ENDFUNC bench_indirect_jump

	.section .note.GNU-stack, "", @progbits
