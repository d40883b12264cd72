/* x86_64/mode.h: the per-mode constants of bench/mode.h for the
 * routines in the .S files of bench/x86_64/.  *_SAVED: registers a
 * routine pushes at entry and pops before its RET (each a PUSH and a POP,
 * a store and a load); *_SETUP: its instructions from the first after
 * the pushes up to the loop (the JMP included).  Included by C only. */
#ifndef BENCH_X86_64_MODE_H
#define BENCH_X86_64_MODE_H

#include <stdint.h>

/* gprs.S: 6 callee-saved registers (RBX RBP R12-R15) pushed, then n;
 * 15 MOVABS, RAX ... R15 but RSP. */
#define GPRS_SAVED		6
#define GPRS_MOVES		15
/* bench_gpr_values: every value whole, R8-R15 included. */
#define GPR_MODE(v)		(v)
#define GPR_MODE_X(v)		(v)

/* branches.S, indirect-jump: 3 x LEA, 2 x MOV to the table, JMP. */
#define INDIRECT_JUMP_SAVED	0
#define INDIRECT_JUMP_SETUP	6

/* memory.S, rep-movsb: MOV %rdi,%rcx; LEA. */
#define REP_MOVSB_SAVED		0
#define REP_MOVSB_SETUP		2

/* misc.S, int-divide: MOV $7; MOV $-3; JMP. */
#define INT_DIVIDE_SAVED	0
#define INT_DIVIDE_SETUP	3

/* misc.S, cpuid: PUSH %rbx; JMP. */
#define CPUID_SAVED		1
#define CPUID_SETUP		1

/* branches.S, branch-random: xorshift64 (13, 7, 17) from
 * BRANCH_RANDOM_SEED; one step, as the routine makes it. */
#define BRANCH_RANDOM_START	BRANCH_RANDOM_SEED
static inline uint64_t branch_random_step(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

#endif
