/* basic: straight-line and loop-overhead benchmarks, 32-bit protected
 * mode (descriptors and formulas in b_basic.c; the x86-64 twins in
 * bench/x86_64/basic.S).  void fn(uint64_t n, void *data) with
 * ROUTINE_ABI: n in EDX:EAX, data in ECX (arch/x86/cpu.h).
 *
 * The loop counter is EAX, the low 32 bits of n: n < 2^32.  The loops
 * have the x86-64 shape, so the formulas are the same:
 *
 *	jmp 2f			enter at the check
 *  1:	<body>
 *  2:	sub $1, %eax		CF=1 only when eax was 0
 *	jnc 1b			taken n times, falls through once
 */
#include "../routine.h"

/* empty: the bare RET, for calibrating what a measurement adds. */
BENCH_FUNC bench_empty
	ret
BENCH_ENDFUNC bench_empty

/* nops: n iterations of a block of eight NOPs, the same bytes as in
 * x86-64: in 32-bit mode 0F 1F /0 names [EAX], [EAX+disp8],
 * [EAX+EAX*1+disp8], [EAX+disp32] and [EAX+EAX*1+disp32], the lengths
 * unchanged, and accesses nothing. */
BENCH_FUNC bench_nops
	jmp 2f
1:	.byte 0x90					/* nop */
	.byte 0x0f, 0x1f, 0x00				/* nopl (%eax) */
	.byte 0x0f, 0x1f, 0x40, 0x00			/* nopl 0(%eax) */
	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00		/* nopl 0(%eax,%eax) */
	.byte 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00	/* nopl 0L(%eax) */
	.byte 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
							/* nopl 0L(%eax,%eax) */
	.byte 0x90					/* nop */
	.byte 0x90					/* nop */
2:	sub $1, %eax
	jnc 1b
	ret
BENCH_ENDFUNC bench_nops

/* add-chain: n iterations of eight ADDs, each depending on the one before
 * through %edx (latency bound), alternating the imm8 and reg/reg forms. */
BENCH_FUNC bench_add_chain
	xor %edx, %edx
	mov $3, %ecx
	jmp 2f
1:	add $1, %edx
	add %ecx, %edx
	add $1, %edx
	add %ecx, %edx
	add $1, %edx
	add %ecx, %edx
	add $1, %edx
	add %ecx, %edx
2:	sub $1, %eax
	jnc 1b
	ret
BENCH_ENDFUNC bench_add_chain

/* counted-loop: the loop overhead alone, counting %edx up to n with
 * CMP/JB: n taken back edges and one fall-through. */
BENCH_FUNC bench_counted_loop
	xor %edx, %edx
	jmp 2f
1:	add $1, %edx
2:	cmp %eax, %edx
	jb 1b
	ret
BENCH_ENDFUNC bench_counted_loop

	.section .note.GNU-stack, "", @progbits
