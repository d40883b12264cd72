/* memory: load/store benchmarks, 32-bit protected mode (formulas in
 * b_memory.c, the x86-64 twins in bench/x86_64/memory.S).  n in EDX:EAX,
 * data in ECX (ROUTINE_ABI); the counter is EAX (n < 2^32). */
#include "../routine.h"

/* load-stream: per iteration eight loads, one per 8 bytes of a 64-byte
 * line (each the low doubleword: the x86-64 routine's addresses and
 * count, 4 bytes wide), in the MOV, ADD, XOR, OR, CMP and TEST reg/mem
 * forms, then the next line.  One destination register (EDX) is left:
 * the ALU ops chain through it, the loads do not depend on each other.
 * n <= STREAM_MAX_LINES. */
BENCH_FUNC bench_load_stream
	jmp 2f
1:	mov (%ecx), %edx
	add 8(%ecx), %edx
	add 16(%ecx), %edx
	add 24(%ecx), %edx
	xor 32(%ecx), %edx
	or 40(%ecx), %edx
	cmp 48(%ecx), %edx
	test %edx, 56(%ecx)
	add $64, %ecx
2:	sub $1, %eax
	jnc 1b
	ret
BENCH_ENDFUNC bench_load_stream

/* store-stream: per iteration eight 4-byte MOV stores, one per 8 bytes of
 * a 64-byte line (as load-stream), then the next line.
 * n <= STREAM_MAX_LINES. */
BENCH_FUNC bench_store_stream
	xor %edx, %edx
	jmp 2f
1:	mov %edx, (%ecx)
	mov %edx, 8(%ecx)
	mov %edx, 16(%ecx)
	mov %edx, 24(%ecx)
	mov %edx, 32(%ecx)
	mov %edx, 40(%ecx)
	mov %edx, 48(%ecx)
	mov %edx, 56(%ecx)
	add $64, %ecx
2:	sub $1, %eax
	jnc 1b
	ret
BENCH_ENDFUNC bench_store_stream

/* pointer-chase: n dependent loads, each reading the address of the next
 * 64-byte slot of a random cycle over the buffer (b_memory.c builds it
 * with 64-bit slots: the load reads the low half, the whole address, as
 * the 32-bit build's memory lies below 4 GiB). */
BENCH_FUNC bench_pointer_chase
	mov %ecx, %edx
	jmp 2f
1:	mov (%edx), %edx
2:	sub $1, %eax
	jnc 1b
	ret
BENCH_ENDFUNC bench_pointer_chase

/* rep-movsb: one REP MOVSB of n <= REP_MOVSB_MAX bytes from data to
 * data + REP_MOVSB_MAX.  MOVSB's ESI and EDI are callee-saved here:
 * pushed and popped (i386/mode.h counts them).  The i386 ABI too has
 * DF = 0 on entry. */
BENCH_FUNC bench_rep_movsb
	push %esi
	push %edi
	mov %ecx, %esi
	lea REP_MOVSB_MAX(%ecx), %edi
	mov %eax, %ecx
	rep movsb
	pop %edi
	pop %esi
	ret
BENCH_ENDFUNC bench_rep_movsb

	.section .note.GNU-stack, "", @progbits
