/* b_memory: descriptors of the routines in memory.S (x86_64/ and i386/;
 * what differs is in bench/mode.h; the i386 streams make 4-byte accesses
 * at the x86-64 routines' 8-byte steps, the same count).  Loops enter at
 * their check (see basic.S): body n times, SUB/JNC n + 1 times with JNC
 * taken n times.  Loads and stores are counted per bench.h: one per
 * memory operand the encoding implies, RET included. */
#include "bench.h"
#include "mode.h"
#include "routine.h"

BENCH_ROUTINE(bench_load_stream);
BENCH_ROUTINE(bench_store_stream);
BENCH_ROUTINE(bench_pointer_chase);
BENCH_ROUTINE(bench_rep_movsb);

/* load-stream:
 *	jmp 2f					1
 *   1:	8 x mov/add/xor/or/cmp/test mem		8n  (a load each)
 *	add $64,%rsi				n
 *   2:	sub $1,%rdi; jnc 1b			2(n + 1)
 *	ret					1
 */
static int64_t load_stream_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:	return 1 + 8 * n + n + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return 8 * n + 1;
	default:		return 0;
	}
}

BENCH(load_stream_desc,
	.name = "load-stream",
	.stresses = "sequential loads: 8 per 64-byte line",
	.param = "64-byte lines read",
	.fn = bench_load_stream,
	.end = bench_load_stream_end,
	.expect = load_stream_expect,
	.params = { 16, STREAM_MAX_LINES },
	.data_size = STREAM_MAX_LINES * 64,
);

/* store-stream:
 *	xor %eax,%eax; jmp 2f			2
 *   1:	8 x mov %rax,mem			8n  (a store each)
 *	add $64,%rsi				n
 *   2:	sub $1,%rdi; jnc 1b			2(n + 1)
 *	ret					1
 */
static int64_t store_stream_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:	return 2 + 8 * n + n + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return 1;
	case SEM_STORES:		return 8 * n;
	default:		return 0;
	}
}

BENCH(store_stream_desc,
	.name = "store-stream",
	.stresses = "sequential stores: 8 per 64-byte line",
	.param = "64-byte lines written",
	.fn = bench_store_stream,
	.end = bench_store_stream_end,
	.expect = store_stream_expect,
	.params = { 16, STREAM_MAX_LINES },
	.data_size = STREAM_MAX_LINES * 64,
);

/* pointer-chase:
 *	mov %rsi,%rax; jmp 2f			2
 *   1:	mov (%rax),%rax				n  (a load each)
 *   2:	sub $1,%rdi; jnc 1b			2(n + 1)
 *	ret					1
 */
static int64_t pointer_chase_expect(enum sem c, uint64_t n)
{
	switch (c) {
	case SEM_INSTRUCTIONS:	return 2 + n + 2 * (n + 1) + 1;
	case SEM_BRANCHES:	return 1 + (n + 1) + 1;
	case SEM_TAKEN:		return 1 + n + 1;
	case SEM_COND:		return n + 1;
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return n + 1;
	default:		return 0;
	}
}

/* One pointer per CHASE_STRIDE-byte slot, together a single cycle through
 * every slot in an order no prefetcher follows, written in one sequential
 * pass (a shuffle's random reads and writes over 64 MiB cost seconds under
 * emulation, and a 64-bit modulo per slot costs more in i386 code).
 *
 * The order is that of a linear congruential generator modulo 2^k, the
 * smallest power of two that holds the slots: x -> a*x + c has period 2^k,
 * one cycle through all of [0, 2^k), when c is odd and a = 1 (mod 4)
 * (Hull-Dobell; Knuth, TAOCP vol. 2, 3rd ed., §3.2.1.2, Theorem A).  Slot
 * i points to the first value after i in that cycle that is a slot (< the
 * count): the cycle restricted to the slots, still one cycle.  The stride
 * from one hop to the next changes every hop (a times the last one, modulo
 * 2^k, where no slot is skipped), so no stride or next-line prefetcher
 * predicts the next line.  The
 * constants are fixed, so every run chases the same cycle from slot 0. */
#define CHASE_LCG_A	1664525u	/* = 1 (mod 4) */
#define CHASE_LCG_C	1013904223u	/* odd */

static uint32_t chase_next(uint32_t x, uint32_t mask, uint32_t slots)
{
	do
		x = (CHASE_LCG_A * x + CHASE_LCG_C) & mask;
	while (x >= slots);
	return x;
}

static void pointer_chase_prepare(void *data, size_t size, uint64_t n)
{
	const size_t step = CHASE_STRIDE / sizeof(uint64_t);
	uint64_t *slot = data;
	uint32_t slots = (uint32_t)(size / CHASE_STRIDE), mask = 0;

	if (!slots)
		return;
	while (mask < slots - 1)
		mask = mask << 1 | 1;
	for (uint32_t i = 0; i < slots; i++)
		slot[i * step] = (uint64_t)(uintptr_t)
			&slot[(size_t)chase_next(i, mask, slots) * step];
}

BENCH(pointer_chase_desc,
	.name = "pointer-chase",
	.stresses = "load latency: dependent loads missing every cache",
	.param = "pointer hops",
	.fn = bench_pointer_chase,
	.end = bench_pointer_chase_end,
	.expect = pointer_chase_expect,
	.params = { 100, 10000 },
	.data_size = CHASE_SIZE,
	.data_min = CHASE_MIN_SIZE,
	.prepare = pointer_chase_prepare,
);

/* rep-movsb (S = REP_MOVSB_SAVED: 0 in x86-64, 2 in i386, ESI and EDI):
 *	S x push				S  (S stores)
 *	mov %rdi,%rcx; lea REP_MOVSB_MAX(%rsi),%rdi	REP_MOVSB_SETUP
 *	rep movsb				1  (n loads, n stores)
 *	S x pop; ret				S + 1  (S + 1 loads)
 */
static int64_t rep_movsb_expect(enum sem c, uint64_t n)
{
	const uint64_t s = REP_MOVSB_SAVED;

	switch (c) {
	case SEM_INSTRUCTIONS:	return 2 * s + REP_MOVSB_SETUP + 1 + 1;
	case SEM_BRANCHES:
	case SEM_TAKEN:
	case SEM_RETURNS:	return 1;
	case SEM_LOADS:		return n + 1 + s;
	case SEM_STORES:		return n + s;
	default:		return 0;
	}
}

BENCH(rep_movsb_desc,
	.name = "rep-movsb",
	.stresses = "string copy: one REP MOVSB, one retired instruction",
	.param = "bytes copied",
	.fn = bench_rep_movsb,
	.end = bench_rep_movsb_end,
	.expect = rep_movsb_expect,
	.params = { 64, REP_MOVSB_MAX },
	.data_size = 2 * REP_MOVSB_MAX,
);
