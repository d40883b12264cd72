/* b_gprs: descriptor of bench "gpr-values" (gprs.S) and its table of
 * register values (gpr_values.h). */
#include "bench.h"
#include "gpr_values.h"
#include "mode.h"
#include "routine.h"

BENCH_ROUTINE(bench_gprs);

/* In i386 the low 32 bits, and 0 for R8-R15 (bench/mode.h). */
const uint64_t bench_gpr_values[16] = {
	GPR_MODE(GPR_VALUE_RAX), GPR_MODE(GPR_VALUE_RCX),
	GPR_MODE(GPR_VALUE_RDX), GPR_MODE(GPR_VALUE_RBX),
	0,		/* RSP: left alone */
	GPR_MODE(GPR_VALUE_RBP), GPR_MODE(GPR_VALUE_RSI),
	GPR_MODE(GPR_VALUE_RDI),
	GPR_MODE_X(GPR_VALUE_R8), GPR_MODE_X(GPR_VALUE_R9),
	GPR_MODE_X(GPR_VALUE_R10), GPR_MODE_X(GPR_VALUE_R11),
	GPR_MODE_X(GPR_VALUE_R12), GPR_MODE_X(GPR_VALUE_R13),
	GPR_MODE_X(GPR_VALUE_R14), GPR_MODE_X(GPR_VALUE_R15),
};

/* gpr-values (P = GPRS_SAVED + 1: 7 in x86-64, 5 in i386; M =
 * GPRS_MOVES: 15 MOVABS, 7 MOV $imm32 in i386):
 *	6 x push (callee-saved); push %rdi	P  (P stores)
 *	15 x movabs				M
 *	jmp 2f					1
 *   1:	nop					n
 *   2:	subq $1,(%rsp); jnc 1b			2(n + 1)  (SUBQ: load + store)
 *	7 x pop					P  (P loads)
 *	ret					1
 */
static int64_t gprs_expect(enum sem c, uint64_t n)
{
	const uint64_t p = GPRS_SAVED + 1;

	switch (c) {
	case SEM_INSTRUCTIONS:
		return p + GPRS_MOVES + 1 + n + 2 * (n + 1) + p + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return (n + 1) + p + 1;	/* SUBQ, POPs, RET */
	case SEM_STORES:		return p + (n + 1);	/* PUSHes, SUBQ */
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
