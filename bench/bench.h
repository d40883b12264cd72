/* bench: the microbenchmark library.  Each benchmark is an assembly
 * routine (a .S file in bench/, section .text.bench) with a C descriptor in the
 * same directory giving its architectural expected counts as formulas of
 * its parameter.  The oracle (arch/x86/trace.h) counts what really retired
 * inside [fn, end) and tests/oracle checks the two agree.
 *
 * What a formula counts is the convention of pmu/sem.h, over the
 * architectural counts (SEM_INSTRUCTIONS .. SEM_SEGLOADS); a formula
 * counts the routine's own instructions, from its first instruction
 * through its final RET inclusive (the caller's CALL is not counted).
 * A formula returns BENCH_NOT_ARCH where the count depends on the machine.
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include "../pmu/sem.h"
#include "../arch/x86/cpu.h"

#define BENCH_NOT_ARCH (-1)

/* The routine, called as fn(n, data) with ROUTINE_ABI (arch/x86/cpu.h:
 * the SysV ABI in x86-64; n in EDX:EAX, data in ECX in i386).  It may
 * clobber only the caller-saved registers unless it says otherwise
 * (bench "gpr-values"). */
typedef ROUTINE_ABI void (*bench_fn)(uint64_t n, void *data);

struct bench {
	const char *name;		/* "nops", "counted-loop", ... */
	const char *stresses;		/* one line: what it exercises */
	const char *param;		/* what n means */
	bench_fn fn;
	const char *end;		/* first byte past the routine */
	int64_t (*expect)(enum sem c, uint64_t n);
	uint64_t params[2];		/* two values the oracle test runs */
	size_t data_size;		/* bytes of data buffer it needs */
	size_t data_min;		/* 0, or the least it still does its
					 * job with: the buffer is then sized
					 * by free memory (bench/data.h) */
	/* optional: fill the data buffer (size: the size it got) before
	 * a run (pointer chase) */
	void (*prepare)(void *data, size_t size, uint64_t n);
} __attribute__((aligned(8)));	/* the size a multiple of BENCH()'s
				 * alignment, so that the section is an
				 * array (i386 aligns uint64_t to 4) */

#define BENCH(id, ...)                                                       \
	static const struct bench bench_##id                                 \
		__attribute__((used, section(".data.benches"),               \
			       aligned(8))) = { __VA_ARGS__ }

extern const struct bench __benches_start[], __benches_end[];

const struct bench *bench_find(const char *name);
/* The benchmark whose code [fn, end) holds addr, or NULL. */
const struct bench *bench_at(uint64_t addr);
/* addr for a log: "<benchmark>+0xNN" inside a benchmark's code, else
 * "0x..." (hex); buf of n bytes, returned. */
const char *bench_addr_str(uint64_t addr, char *buf, size_t n);
/* The formula's count s for parameter n; BENCH_NOT_ARCH for counts that
 * formulas do not state (SEM_CLOCKS) and where the formula says so. */
int64_t bench_expect(const struct bench *b, enum sem s, uint64_t n);

#endif
