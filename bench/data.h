/* data: the benchmarks' data buffers and the tests' own buffers, from the
 * pages the boot layer lends (bench_init), and, when one cannot be had,
 * what was asked and what the firmware had free (bench_shortfall_text).
 *
 * A benchmark's buffer is allocated, user-mapped and prepared once, on
 * first use, and kept for the run (its address is part of what
 * trace/access-addresses checks).  Its size is the descriptor's data_size,
 * or for a benchmark with data_min (pointer-chase) the largest power-of-two
 * fraction of data_size, down to data_min, that the firmware's largest
 * free block holds while BENCH_KEEP_FREE stays free for the rest of the
 * run (docs/reliability.md, "Memory"). */
#ifndef BENCH_DATA_H
#define BENCH_DATA_H

#include <stdint.h>
#include "bench.h"

/* What a sized buffer leaves free for everything allocated after it: the
 * tests' own buffers, ring 3's page tables and the firmware's file-system
 * buffers for the log (measured: docs/reliability.md). */
#define BENCH_KEEP_FREE (4ull << 20)

/* The page allocator the boot layer lends: alloc returns zeroed memory
 * aligned to align (a power of two >= 4096) or NULL; release gives it
 * back; free says how many bytes the firmware has free now, in all and in
 * its largest block (0, 0: unknown). */
struct bench_mem {
	void *(*alloc)(uint64_t bytes, uint64_t align);
	void (*release)(void *p, uint64_t bytes);
	void (*free)(uint64_t *total, uint64_t *largest);
};

void bench_init(const struct bench_mem *mem);
/* Gives back every buffer bench_alloc() and bench_data() handed out (the
 * first 64), before the harness returns to the firmware: tests keep their
 * buffers for the run, so nothing is given back earlier. */
void bench_release(void);

/* Memory from that allocator (for tests' own buffers), or NULL; NULL
 * always on the sibling processor (arch/x86/smp.h: no firmware calls). */
void *bench_alloc(uint64_t bytes, uint64_t align);

/* The benchmark's data buffer, or NULL when it cannot be had. */
void *bench_data(const struct bench *b);
/* The size of that buffer (0 before it exists). */
uint64_t bench_data_size(const struct bench *b);

/* The last allocation that failed, as "needs N MiB, M MiB free" (N the
 * bytes it asked for in one block, rounded up; M what the firmware had
 * free then, rounded down), then in parentheses why M was not enough when
 * M >= N: the largest block, the part kept free (BENCH_KEEP_FREE, for a
 * sized buffer), or neither (the allocation or ring 3's mapping failed). */
void bench_shortfall_text(char *buf, unsigned size);

#endif
