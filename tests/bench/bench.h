/* bench: the microbenchmark library.  Each benchmark is an assembly
 * routine (a .S file in tests/bench, section .text.bench) with a C descriptor in the
 * same directory giving its architectural expected counts as formulas of
 * its parameter.  The oracle (arch/x86/trace.h) counts what really retired
 * inside [fn, end) and tests/oracle checks the two agree.
 *
 * Counting convention (what a formula counts):
 *   - the routine's own instructions, from its first instruction through
 *     its final RET inclusive; the caller's CALL is not counted;
 *   - a REP string instruction retires once, however many iterations;
 *   - BC_BRANCHES: near branches of every kind (Jcc, JMP, CALL, RET,
 *     indirect JMP/CALL); BC_TAKEN: those that transferred control;
 *     BC_COND: Jcc (and LOOP/JRCXZ); BC_CALLS: near CALL; BC_RETURNS:
 *     near RET; BC_FAR: far transfers (INT n, IRET, far CALL/JMP/RET);
 *   - BC_LOADS / BC_STORES: data memory accesses the encoding implies,
 *     stack included (PUSH/CALL store, POP/RET load), one per iteration
 *     for REP string instructions;
 *   - BC_SEGLOADS: instructions that load a segment register (MOV Sreg,
 *     POP Sreg, far transfers that load CS).
 * A formula returns BENCH_NOT_ARCH where the count depends on the machine.
 */
#ifndef TESTS_BENCH_BENCH_H
#define TESTS_BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>

enum bench_count {
	BC_INSTRUCTIONS,
	BC_BRANCHES,
	BC_TAKEN,
	BC_COND,
	BC_CALLS,
	BC_RETURNS,
	BC_FAR,
	BC_LOADS,
	BC_STORES,
	BC_SEGLOADS,
	BC_NR
};

#define BENCH_NOT_ARCH (-1)

/* The routine: SysV ABI, called as fn(n, data).  It may clobber only the
 * caller-saved registers unless it says otherwise (bench "gpr-values"). */
typedef void (*bench_fn)(uint64_t n, void *data);

struct bench {
	const char *name;		/* "nops", "counted-loop", ... */
	const char *stresses;		/* one line: what it exercises */
	const char *param;		/* what n means */
	bench_fn fn;
	const char *end;		/* first byte past the routine */
	int64_t (*expect)(enum bench_count c, uint64_t n);
	uint64_t params[2];		/* two values the oracle test runs */
	size_t data_size;		/* bytes of data buffer it needs */
	/* optional: fill the data buffer before a run (pointer chase) */
	void (*prepare)(void *data, size_t size, uint64_t n);
};

#define BENCH(id, ...)                                                       \
	static const struct bench bench_##id                                 \
		__attribute__((used, section(".data.benches"),               \
			       aligned(8))) = { __VA_ARGS__ }

extern const struct bench __benches_start[], __benches_end[];

const char *bench_count_name(enum bench_count c);
const struct bench *bench_find(const char *name);

#endif
