/* b_basic: descriptors of the routines in basic.S (x86_64/ and i386/:
 * the same instructions, one formula; the listings name x86-64's
 * registers, i386 counts in %eax: n < 2^32).
 *
 * Each expect() counts per bench.h: the routine's instructions from its
 * first through its final RET, the caller's CALL excluded.  The loops
 * enter at their check (basic.S), so for n iterations the body runs n
 * times and the SUB/JNC (or CMP/JB) pair n + 1 times, JNC taken n times. */
#include "bench.h"
#include "routine.h"

BENCH_ROUTINE(bench_empty);
BENCH_ROUTINE(bench_nops);
BENCH_ROUTINE(bench_add_chain);
BENCH_ROUTINE(bench_counted_loop);

/* empty:  ret						1 insn, n unused
 * RET: a taken near branch and a return that loads its target. */
static int64_t empty_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:
	case SEM_BRANCHES:
	case SEM_TAKEN:
	case SEM_RETURNS:
	case SEM_LOADS:
		return 1;
	default:
		return 0;
	}
}

BENCH(empty_desc,
	.name = "empty",
	.stresses = "nothing: a bare RET, to calibrate the measurement",
	.param = "unused",
	.fn = bench_empty,
	.end = bench_empty_end,
	.expect = empty_expect,
	.params = { 0, 1 },
);

/* nops:
 *	jmp 2f				1
 *   1:	8 NOPs				8n
 *   2:	sub $1,%rdi; jnc 1b		2(n + 1), JNC taken n times
 *	ret				1
 */
static int64_t nops_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:	return 1 + 8 * n + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;	/* JMP, JNCs, RET */
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return 1;		/* RET */
	default:		return 0;	/* 0F 1F NOPs access nothing */
	}
}

BENCH(nops_desc,
	.name = "nops",
	.stresses = "front end: 8 NOPs of 1 to 8 bytes per loop iteration",
	.param = "iterations of the 8-NOP block",
	.fn = bench_nops,
	.end = bench_nops_end,
	.expect = nops_expect,
	.params = { 10, 1000 },
);

/* add-chain:
 *	xor %eax,%eax; mov $3,%ecx; jmp 2f	3
 *   1:	8 ADDs into %rax			8n
 *   2:	sub $1,%rdi; jnc 1b			2(n + 1)
 *	ret					1
 */
static int64_t add_chain_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:	return 3 + 8 * n + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return 1;
	default:		return 0;
	}
}

BENCH(add_chain_desc,
	.name = "add-chain",
	.stresses = "ALU latency: a chain of 8 dependent ADDs per iteration",
	.param = "iterations of the 8-ADD chain",
	.fn = bench_add_chain,
	.end = bench_add_chain_end,
	.expect = add_chain_expect,
	.params = { 10, 1000 },
);

/* counted-loop:
 *	xor %eax,%eax; jmp 2f		2
 *   1:	add $1,%rax			n
 *   2:	cmp %rdi,%rax; jb 1b		2(n + 1), JB taken n times
 *	ret				1
 */
static int64_t counted_loop_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:	return 2 + n + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return 1;
	default:		return 0;
	}
}

BENCH(counted_loop_desc,
	.name = "counted-loop",
	.stresses = "loop overhead: a one-ADD body under CMP/JB",
	.param = "iterations",
	.fn = bench_counted_loop,
	.end = bench_counted_loop_end,
	.expect = counted_loop_expect,
	.params = { 10, 10000 },
);
