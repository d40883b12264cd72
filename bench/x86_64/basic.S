/* basic: straight-line and loop-overhead benchmarks (descriptors and
 * formulas in b_basic.c).  void fn(uint64_t n (rdi), void *data (rsi)).
 *
 * The loops share one shape, so that n = 0 needs no special case:
 *
 *	jmp 2f			enter at the check
 *  1:	<body>
 *  2:	sub $1, %rdi		CF=1 only when rdi was 0
 *	jnc 1b			taken n times, falls through once
 *
 * which runs the body n times and the check n + 1 times.
 */
#include "../routine.h"

/* empty: the bare RET, for calibrating what a measurement adds. */
BENCH_FUNC bench_empty
	ret
BENCH_ENDFUNC bench_empty

/* nops: n iterations of a block of eight NOPs in the 1-, 3-, 4-, 5-, 7- and
 * 8-byte encodings the SDM recommends (0x90 and 0F 1F /0).  The 0F 1F forms
 * name a memory operand but access no memory.  Spelled as bytes so the
 * assembler cannot pick other encodings. */
BENCH_FUNC bench_nops
	jmp 2f
1:	.byte 0x90					/* nop */
	.byte 0x0f, 0x1f, 0x00				/* nopl (%rax) */
	.byte 0x0f, 0x1f, 0x40, 0x00			/* nopl 0(%rax) */
	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00		/* nopl 0(%rax,%rax) */
	.byte 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00	/* nopl 0L(%rax) */
	.byte 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
							/* nopl 0L(%rax,%rax) */
	.byte 0x90					/* nop */
	.byte 0x90					/* nop */
2:	sub $1, %rdi
	jnc 1b
	ret
BENCH_ENDFUNC bench_nops

/* add-chain: n iterations of eight ADDs, each depending on the one before
 * through %rax (latency bound), alternating the imm8 and reg/reg forms. */
BENCH_FUNC bench_add_chain
	xor %eax, %eax
	mov $3, %ecx
	jmp 2f
1:	add $1, %rax
	add %rcx, %rax
	add $1, %rax
	add %rcx, %rax
	add $1, %rax
	add %rcx, %rax
	add $1, %rax
	add %rcx, %rax
2:	sub $1, %rdi
	jnc 1b
	ret
BENCH_ENDFUNC bench_add_chain

/* counted-loop: the loop overhead alone, counting up with CMP/JB:
 * n taken back edges and one fall-through. */
BENCH_FUNC bench_counted_loop
	xor %eax, %eax
	jmp 2f
1:	add $1, %rax
2:	cmp %rdi, %rax
	jb 1b
	ret
BENCH_ENDFUNC bench_counted_loop

	.section .note.GNU-stack, "", @progbits
