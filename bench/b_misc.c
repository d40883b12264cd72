/* b_misc: descriptors of the routines in misc.S (x86_64/ and i386/; what
 * differs is in bench/mode.h).  Loops enter at their check (see basic.S):
 * body n times, SUB/JNC n + 1 times with JNC taken n times. */
#include "bench.h"
#include "mode.h"
#include "routine.h"

BENCH_ROUTINE(bench_int_divide);
BENCH_ROUTINE(bench_cpuid);
BENCH_ROUTINE(bench_segment_load);

/* int-divide (S = INT_DIVIDE_SAVED: 0 in x86-64, 2 in i386, EBX and ESI
 * holding the divisors; i386 divides 32-bit, CDQ for CQO):
 *	S x push				S  (S stores)
 *	mov $7,%ecx; mov $-3,%r8; jmp 2f	INT_DIVIDE_SETUP
 *   1:	mov %rdi,%rax; xor %edx,%edx; div %rcx	3n
 *	mov %rdi,%rax; cqo; idiv %r8		3n
 *   2:	sub $1,%rdi; jnc 1b			2(n + 1)
 *	S x pop; ret				S + 1  (S + 1 loads)
 */
static int64_t int_divide_expect(enum sem c, uint64_t n)
{
	const uint64_t s = INT_DIVIDE_SAVED;

	switch (c) {
	case SEM_INSTRUCTIONS:
		return 2 * s + INT_DIVIDE_SETUP + 3 * n + 3 * n +
		       2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return 1 + s;
	case SEM_STORES:		return s;
	default:		return 0;
	}
}

BENCH(int_divide_desc,
	.name = "int-divide",
	.stresses = "divider: a DIV and an IDIV of the register width per iteration",
	.param = "iterations (one DIV and one IDIV each)",
	.fn = bench_int_divide,
	.end = bench_int_divide_end,
	.expect = int_divide_expect,
	.params = { 10, 1000 },
);

/* cpuid (S = CPUID_SAVED: 1 in x86-64, RBX; 2 in i386, EBX and ESI,
 * the counter):
 *	S x push				S  (S stores)
 *	jmp 2f					CPUID_SETUP (i386: mov, jmp)
 *   1:	xor %eax,%eax; xor %ecx,%ecx; cpuid	3n
 *   2:	sub $1,%rdi; jnc 1b			2(n + 1)
 *	S x pop; ret				S + 1  (S + 1 loads)
 */
static int64_t cpuid_expect(enum sem c, uint64_t n)
{
	const uint64_t s = CPUID_SAVED;

	switch (c) {
	case SEM_INSTRUCTIONS:
		return 2 * s + CPUID_SETUP + 3 * n + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return s + 1;		/* POPs, RET */
	case SEM_STORES:		return s;		/* PUSHes */
	default:		return 0;
	}
}

BENCH(cpuid_desc,
	.name = "cpuid",
	.stresses = "serialization: CPUID leaf 0 in a loop (a VM exit under KVM)",
	.param = "CPUID executions",
	.fn = bench_cpuid,
	.end = bench_cpuid_end,
	.expect = cpuid_expect,
	.params = { 4, 100 },
);

/* segment-load:
 *	jmp 2f				1
 *   1:	mov %ds,%eax; mov %eax,%ds	2n, n segment loads
 *   2:	sub $1,%rdi; jnc 1b		2(n + 1), JNC taken n times
 *	ret				1
 */
static int64_t segment_load_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:	return 1 + 2 * n + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return 1;		/* RET */
	case SEM_SEGLOADS:	return n;
	default:		return 0;
	}
}

BENCH(segment_load_desc,
	.name = "segment-load",
	.stresses = "segment register loads: MOV to DS once per iteration",
	.param = "iterations (one DS load each)",
	.fn = bench_segment_load,
	.end = bench_segment_load_end,
	.expect = segment_load_expect,
	.params = { 10, 1000 },
);
