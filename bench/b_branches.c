/* b_branches: descriptors of the routines in branches.S (x86_64/ and
 * i386/; what differs is in bench/mode.h).  Loops enter at their check
 * (see basic.S): body n times, SUB/JNC n + 1 times with JNC taken n
 * times. */
#include "bench.h"
#include "mode.h"
#include "routine.h"

BENCH_ROUTINE(bench_branch_alternating);
BENCH_ROUTINE(bench_branch_random);
BENCH_ROUTINE(bench_call_ret);
BENCH_ROUTINE(bench_indirect_jump);

/* branch-alternating (body sees rdi = n-1 ... 0; JZ taken on even rdi):
 *	xor %eax,%eax; jmp 2f		2
 *   1:	test $1,%edi; jz 2f		2n, JZ taken ceil(n/2) times
 *	add $1,%rax			floor(n/2): the not-taken JZs
 *   2:	sub $1,%rdi; jnc 1b		2(n + 1)
 *	ret				1
 */
static int64_t branch_alternating_expect(enum sem c, uint64_t n)
{
	uint64_t taken = (n + 1) / 2, not_taken = n / 2;

	switch (c) {
	case SEM_INSTRUCTIONS:	return 2 + 2 * n + not_taken + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + n + (n + 1) + 1; /* JMP JZ JNC RET */
	case SEM_TAKEN:		return 1 + taken + n + 1;
	case SEM_COND:		return n + (n + 1);
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return 1;
	default:		return 0;
	}
}

BENCH(branch_alternating_desc,
	.name = "branch-alternating",
	.stresses = "branch prediction: a JZ taken and not taken in turn",
	.param = "iterations (one JZ each)",
	.fn = bench_branch_alternating,
	.end = bench_branch_alternating_end,
	.expect = branch_alternating_expect,
	.params = { 9, 1000 },
);

/* The routine's generator (xorshift64, shifts 13, 7, 17; xorshift32,
 * 13, 17, 5 in i386: bench/mode.h): how many of the first n outputs have
 * bit 0 clear, i.e. how many JZs are taken. */
static uint64_t branch_random_taken(uint64_t n)
{
	uint64_t x = BRANCH_RANDOM_START, taken = 0;

	while (n--) {
		x = branch_random_step(x);
		taken += !(x & 1);
	}
	return taken;
}

/* branch-random (T = branch_random_taken(n)):
 *	movabs $seed,%rax; xor %edx,%edx; jmp 2f	3  (i386: mov $seed)
 *   1:	3 x (mov; shl/shr; xor)			9n
 *	test $1,%eax; jz 2f			2n, JZ taken T times
 *	add $1,%rdx				n - T
 *   2:	sub $1,%rdi; jnc 1b			2(n + 1)
 *	ret					1
 */
static int64_t branch_random_expect(enum sem c, uint64_t n)
{
	uint64_t taken = branch_random_taken(n);

	switch (c) {
	case SEM_INSTRUCTIONS:
		return 3 + 9 * n + 2 * n + (n - taken) + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + n + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + taken + n + 1;
	case SEM_COND:		return n + (n + 1);
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return 1;
	default:		return 0;
	}
}

BENCH(branch_random_desc,
	.name = "branch-random",
	.stresses = "branch misprediction: a JZ on an xorshift64 bit",
	.param = "iterations (one generator step and one JZ each)",
	.fn = bench_branch_random,
	.end = bench_branch_random_end,
	.expect = branch_random_expect,
	.params = { 100, 2000 },
);

/* call-ret:
 *	lea 3f(%rip),%rcx; xor %eax,%eax; jmp 2f	3
 *   1:	call 3f; call *%rcx			2n  (each CALL stores)
 *   3:	add $1,%rax; ret			2 x 2n (each RET loads)
 *   2:	sub $1,%rdi; jnc 1b			2(n + 1)
 *	ret					1
 */
static int64_t call_ret_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:	return 3 + 2 * n + 4 * n + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + 4 * n + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + 4 * n + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_CALLS:		return 2 * n;
	case SEM_RETURNS:	return 2 * n + 1;
	case SEM_LOADS:		return 2 * n + 1;	/* RETs */
	case SEM_STORES:		return 2 * n;		/* CALLs */
	default:		return 0;
	}
}

BENCH(call_ret_desc,
	.name = "call-ret",
	.stresses = "return stack: a direct and an indirect CALL/RET pair",
	.param = "iterations (two CALL/RET pairs each)",
	.fn = bench_call_ret,
	.end = bench_call_ret_end,
	.expect = call_ret_expect,
	.params = { 10, 1000 },
);

/* indirect-jump (data[0] = &4f, data[1] = &5f; S = INDIRECT_JUMP_SAVED,
 * 0 in x86-64, 1 in i386: PUSH/POP %ebx):
 *	S x push				S  (S stores)
 *	3 x lea; 2 x mov to data; jmp 2f	INDIRECT_JUMP_SETUP (2 stores)
 *   1:	mov %edi,%ecx; and $1,%ecx		2n
 *	jmp *(%rsi,%rcx,8)			n  (loads its target)
 *   4/5: add $k,%r8; jmp *%r9			2n
 *   2:	sub $1,%rdi; jnc 1b			2(n + 1)
 *	S x pop; ret				S + 1  (S + 1 loads)
 */
static int64_t indirect_jump_expect(enum sem c, uint64_t n)
{
	const uint64_t s = INDIRECT_JUMP_SAVED;

	switch (c) {
	case SEM_INSTRUCTIONS:
		return 2 * s + INDIRECT_JUMP_SETUP + 2 * n + n + 2 * n +
		       2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + 2 * n + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + 2 * n + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return n + 1 + s;	/* JMP *mem, RET, POPs */
	case SEM_STORES:		return 2 + s;		/* the table, PUSHes */
	default:		return 0;
	}
}

BENCH(indirect_jump_desc,
	.name = "indirect-jump",
	.stresses = "indirect branch prediction: JMP *mem to 2 targets in turn",
	.param = "iterations (a JMP *mem and a JMP *reg each)",
	.fn = bench_indirect_jump,
	.end = bench_indirect_jump_end,
	.expect = indirect_jump_expect,
	.params = { 7, 1000 },
	.data_size = 16,
);
