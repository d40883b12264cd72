/* b_gprs: descriptor of bench "gpr-values" (gprs.S) and its table of
 * register values (gpr_values.h). */
#include "bench.h"
#include "gpr_values.h"
#include "routine.h"

BENCH_ROUTINE(bench_gprs);

const uint64_t bench_gpr_values[16] = {
	GPR_VALUE_RAX, GPR_VALUE_RCX, GPR_VALUE_RDX, GPR_VALUE_RBX,
	0,		/* RSP: left alone */
	GPR_VALUE_RBP, GPR_VALUE_RSI, GPR_VALUE_RDI,
	GPR_VALUE_R8, GPR_VALUE_R9, GPR_VALUE_R10, GPR_VALUE_R11,
	GPR_VALUE_R12, GPR_VALUE_R13, GPR_VALUE_R14, GPR_VALUE_R15,
};

/* gpr-values:
 *	6 x push (callee-saved); push %rdi	7  (7 stores)
 *	15 x movabs				15
 *	jmp 2f					1
 *   1:	nop					n
 *   2:	subq $1,(%rsp); jnc 1b			2(n + 1)  (SUBQ: load + store)
 *	7 x pop					7  (7 loads)
 *	ret					1
 */
static int64_t gprs_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:	return 7 + 15 + 1 + n + 2 * (n + 1) + 7 + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return (n + 1) + 7 + 1;	/* SUBQ, POPs, RET */
	case SEM_STORES:		return 7 + (n + 1);	/* PUSHes, SUBQ */
	default:		return 0;
	}
}

BENCH(gpr_values_desc,
	.name = "gpr-values",
	.stresses = "sampled state: known constants in every GPR but RSP",
	.param = "marker loop iterations",
	.fn = bench_gprs,
	.end = bench_gprs_end,
	.expect = gprs_expect,
	.params = { 10, 100 },
);
