/* i386/mode.h: the per-mode constants of bench/mode.h for the routines
 * in the .S files of bench/i386/ (32-bit protected mode, ROUTINE_ABI: n
 * in EDX:EAX, data in ECX).  *_SAVED: registers a routine pushes at entry and pops
 * before its RET (each a PUSH and a POP, a store and a load); *_SETUP:
 * its instructions from the first after the pushes up to the loop (the
 * JMP included).  Every loop counts the low 32 bits of n: n < 2^32.
 * Included by C only. */
#ifndef BENCH_I386_MODE_H
#define BENCH_I386_MODE_H

#include <stdint.h>

/* gprs.S: 4 callee-saved registers (EBX EBP ESI EDI) pushed, then n;
 * 7 MOV $imm32, EAX ... EDI but ESP. */
#define GPRS_SAVED		4
#define GPRS_MOVES		7
/* bench_gpr_values: the low 32 bits of each value; no R8-R15 (the
 * tracer's gpr[8..15] are 0 in i386). */
#define GPR_MODE(v)		((v) & 0xffffffffull)
#define GPR_MODE_X(v)		0

/* branches.S, indirect-jump: PUSH %ebx (the back edge's register), 2 x
 * MOVL $target to the table, MOV $2f,%ebx, JMP; POP %ebx before RET. */
#define INDIRECT_JUMP_SAVED	1
#define INDIRECT_JUMP_SETUP	4

/* memory.S, rep-movsb: PUSH %esi, PUSH %edi (MOVSB's registers); MOV
 * %ecx,%esi; LEA; MOV %eax,%ecx. */
#define REP_MOVSB_SAVED		2
#define REP_MOVSB_SETUP		3

/* misc.S, int-divide: PUSH %ebx, PUSH %esi (the divisors); MOV
 * %eax,%ecx (the counter); MOV $7; MOV $-3; JMP. */
#define INT_DIVIDE_SAVED	2
#define INT_DIVIDE_SETUP	4

/* misc.S, cpuid: PUSH %ebx, PUSH %esi (CPUID writes EBX; ESI holds the
 * counter); MOV %eax,%esi; JMP. */
#define CPUID_SAVED		2
#define CPUID_SETUP		2

/* branches.S, branch-random: xorshift32 (13, 17, 5) from
 * BRANCH_RANDOM_SEED32; one step, as the routine makes it. */
#define BRANCH_RANDOM_START	BRANCH_RANDOM_SEED32
static inline uint64_t branch_random_step(uint64_t x)
{
	uint32_t y = (uint32_t)x;

	y ^= y << 13;
	y ^= y >> 17;
	y ^= y << 5;
	return y;
}

#endif
