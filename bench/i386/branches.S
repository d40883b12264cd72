/* branches: branch-predictor and control-transfer benchmarks, 32-bit
 * protected mode (formulas in b_branches.c, x86-64 twins in
 * bench/x86_64/branches.S).  n in EDX:EAX, data in ECX (ROUTINE_ABI);
 * the counter is EAX (n < 2^32), the body sees eax = n-1, ..., 0. */
#include "../routine.h"

/* branch-alternating: a JZ on bit 0 of the counter, taken when it is even
 * (taken ceil(n/2) times, not taken floor(n/2) times).  The ADD on the
 * fall-through path keeps the JZ target off its own fall-through. */
BENCH_FUNC bench_branch_alternating
	xor %edx, %edx
	jmp 2f
1:	test $1, %eax
	jz 2f
	add $1, %edx
2:	sub $1, %eax
	jnc 1b
	ret
BENCH_ENDFUNC bench_branch_alternating

/* branch-random: per iteration one xorshift32 step (13, 17, 5) of %edx,
 * then a JZ on its bit 0: taken when the bit is clear.  The x86-64
 * routine's xorshift64 would take two registers per value here; this
 * generator keeps the nine-instruction step.  b_branches.c runs the same
 * generator from the same seed to count the taken JZs.  The fall-through
 * ADD goes to the scratch %ecx (no register is left for a count). */
BENCH_FUNC bench_branch_random
	mov $BRANCH_RANDOM_SEED32, %edx
	xor %ecx, %ecx
	jmp 2f
1:	mov %edx, %ecx
	shl $13, %ecx
	xor %ecx, %edx
	mov %edx, %ecx
	shr $17, %ecx
	xor %ecx, %edx
	mov %edx, %ecx
	shl $5, %ecx
	xor %ecx, %edx
	test $1, %edx
	jz 2f
	add $1, %ecx
2:	sub $1, %eax
	jnc 1b
	ret
BENCH_ENDFUNC bench_branch_random

/* call-ret: per iteration two CALL/RET pairs to one leaf inside the
 * routine, first CALL rel32, then CALL through %ecx (its address an
 * absolute disp32: the 32-bit build is not position-independent). */
BENCH_FUNC bench_call_ret
	lea 3f, %ecx
	xor %edx, %edx
	jmp 2f
1:	call 3f
	call *%ecx
2:	sub $1, %eax
	jnc 1b
	ret
3:	add $1, %edx			/* the leaf */
	ret
BENCH_ENDFUNC bench_call_ret

/* indirect-jump: per iteration a JMP through a two-entry table the routine
 * writes at data[0..1] (4-byte entries: target 4 when eax is even, 5 when
 * odd), and from either target a JMP through %ebx back to the loop check.
 * With EAX, ECX and EDX taken, the back edge's register is the
 * callee-saved EBX: pushed and popped (i386/mode.h counts them).  The
 * targets' ADDs go to %edx, the index, dead by then. */
BENCH_FUNC bench_indirect_jump
	push %ebx
	movl $4f, (%ecx)
	movl $5f, 4(%ecx)
	mov $2f, %ebx
	jmp 2f
1:	mov %eax, %edx
	and $1, %edx
	jmp *(%ecx,%edx,4)
2:	sub $1, %eax
	jnc 1b
	pop %ebx
	ret
4:	add $1, %edx
	jmp *%ebx
5:	add $2, %edx
	jmp *%ebx
BENCH_ENDFUNC bench_indirect_jump

	.section .note.GNU-stack, "", @progbits
