/* b_misc: descriptors of the routines in misc.S.  Loops enter at their
 * check (see basic.S): body n times, SUB/JNC n + 1 times with JNC taken n
 * times. */
#include "bench.h"
#include "routine.h"

BENCH_ROUTINE(bench_int_divide);
BENCH_ROUTINE(bench_cpuid);
BENCH_ROUTINE(bench_segment_load);

/* int-divide:
 *	mov $7,%ecx; mov $-3,%r8; jmp 2f		3
 *   1:	mov %rdi,%rax; xor %edx,%edx; div %rcx	3n
 *	mov %rdi,%rax; cqo; idiv %r8		3n
 *   2:	sub $1,%rdi; jnc 1b			2(n + 1)
 *	ret					1
 */
static int64_t int_divide_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:	return 3 + 3 * n + 3 * n + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return 1;
	default:		return 0;
	}
}

BENCH(int_divide_desc,
	.name = "int-divide",
	.stresses = "divider: a 64-bit DIV and IDIV per iteration",
	.param = "iterations (one DIV and one IDIV each)",
	.fn = bench_int_divide,
	.end = bench_int_divide_end,
	.expect = int_divide_expect,
	.params = { 10, 1000 },
);

/* cpuid:
 *	push %rbx; jmp 2f			2  (1 store)
 *   1:	xor %eax,%eax; xor %ecx,%ecx; cpuid	3n
 *   2:	sub $1,%rdi; jnc 1b			2(n + 1)
 *	pop %rbx; ret				2  (2 loads)
 */
static int64_t cpuid_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:	return 2 + 3 * n + 2 * (n + 1) + 2;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return 2;		/* POP, RET */
	case SEM_STORES:		return 1;		/* PUSH */
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
