/* memory: load/store benchmarks (descriptors and formulas in b_memory.c).
 * Loop shape as in basic.S: "jmp 2f; 1: body; 2: sub $1,%rdi; jnc 1b". */
#include "../routine.h"

/* load-stream: per iteration eight 8-byte loads covering one 64-byte line,
 * in the MOV, ADD, XOR, OR, CMP and TEST reg/mem forms, then the next line.
 * n <= STREAM_MAX_LINES. */
BENCH_FUNC bench_load_stream
	jmp 2f
1:	mov (%rsi), %rax
	mov 8(%rsi), %rcx
	add 16(%rsi), %rax
	add 24(%rsi), %rcx
	xor 32(%rsi), %rax
	or 40(%rsi), %rcx
	cmp 48(%rsi), %rax
	test %rcx, 56(%rsi)
	add $64, %rsi
2:	sub $1, %rdi
	jnc 1b
	ret
BENCH_ENDFUNC bench_load_stream

/* store-stream: per iteration eight 8-byte MOV stores filling one 64-byte
 * line, then the next line.  n <= STREAM_MAX_LINES. */
BENCH_FUNC bench_store_stream
	xor %eax, %eax
	jmp 2f
1:	mov %rax, (%rsi)
	mov %rax, 8(%rsi)
	mov %rax, 16(%rsi)
	mov %rax, 24(%rsi)
	mov %rax, 32(%rsi)
	mov %rax, 40(%rsi)
	mov %rax, 48(%rsi)
	mov %rax, 56(%rsi)
	add $64, %rsi
2:	sub $1, %rdi
	jnc 1b
	ret
BENCH_ENDFUNC bench_store_stream

/* pointer-chase: n dependent loads, each reading the address of the next
 * 64-byte slot of a random cycle over the buffer (b_memory.c builds it). */
BENCH_FUNC bench_pointer_chase
	mov %rsi, %rax
	jmp 2f
1:	mov (%rax), %rax
2:	sub $1, %rdi
	jnc 1b
	ret
BENCH_ENDFUNC bench_pointer_chase

/* rep-movsb: one REP MOVSB of n <= REP_MOVSB_MAX bytes from data to
 * data + REP_MOVSB_MAX.  The SysV ABI guarantees DF = 0 on entry. */
BENCH_FUNC bench_rep_movsb
	mov %rdi, %rcx
	lea REP_MOVSB_MAX(%rsi), %rdi
	rep movsb
	ret
BENCH_ENDFUNC bench_rep_movsb

	.section .note.GNU-stack, "", @progbits
