/* routine: what a benchmark's .S file and its descriptor .c file share.
 *
 * The routines exist twice, the .S files of bench/x86_64/ and bench/i386/ (same
 * names, symbols and end labels); a build links its mode's set, and the
 * formulas state what differs through bench/mode.h.  Each routine lives in .text.bench (linker.ld gives that section pages of
 * its own, the only code ring 3 may run) between a global hidden start
 * symbol and a global hidden end label, so [sym, sym_end) is exactly the
 * code the oracle counts (bench.h).  A .S file and a .c file must not share
 * a basename: the Makefile names objects by basename, so the routines sit
 * in <family>.S and the descriptors in b_<family>.c.
 *
 * Every routine keeps to the instruction list the single-step oracle can
 * classify (nop, mov, lea, ALU ops, shifts, imul, div/idiv, push/pop, Jcc,
 * JMP, CALL, RET, cpuid, rep movsb, cqo/cdq, mov to DS) and to what
 * ring 3 may execute.
 * No branch ever targets its own fall-through address: the oracle tells
 * taken from not taken by whether RIP moved past the instruction.
 */
#ifndef TESTS_BENCH_ROUTINE_H
#define TESTS_BENCH_ROUTINE_H

/* rep-movsb copies n <= REP_MOVSB_MAX bytes from data to
 * data + REP_MOVSB_MAX, so the two never overlap. */
#define REP_MOVSB_MAX		4096

/* load-stream / store-stream touch one 64-byte line per iteration. */
#define STREAM_MAX_LINES	1024

/* pointer-chase: one pointer per 64-byte slot of a 64 MiB buffer, far
 * larger than any cache the harness meets. */
#define CHASE_SIZE		(64 << 20)
#define CHASE_MIN_SIZE		(8 << 20)
#define CHASE_STRIDE		64

/* branch-random: the xorshift64 seed the routine and its C twin share;
 * the i386 routine's xorshift32 seed (bench/mode.h). */
#define BRANCH_RANDOM_SEED	0x9e3779b97f4a7c15
#define BRANCH_RANDOM_SEED32	0x9e3779b9

#ifdef __ASSEMBLY__

/* BENCH_FUNC name ... BENCH_ENDFUNC name brackets one routine.  Padding
 * between routines is int3, so running off a routine's end traps. */
.macro BENCH_FUNC name
	.pushsection .text.bench, "ax"
	.balign 16, 0xcc
	.globl \name
	.hidden \name
	.type \name, @function
\name:
.endm

.macro BENCH_ENDFUNC name
	.globl \name\()_end
	.hidden \name\()_end
\name\()_end:
	.size \name, \name\()_end - \name
	.popsection
.endm

#else

#include <stdint.h>
#include "../arch/x86/cpu.h"

/* Declares routine sym and its end label sym_end for a descriptor.  The
 * routine for bench "x-y" is bench_x_y; as BENCH(id) defines bench_<id>,
 * descriptors take the id x_y_desc.  ROUTINE_ABI: how the .S files take
 * n and data (arch/x86/cpu.h). */
#define BENCH_ROUTINE(sym)                                                   \
	ROUTINE_ABI void sym(uint64_t n, void *data);                        \
	extern const char sym##_end[]

#endif
#endif
