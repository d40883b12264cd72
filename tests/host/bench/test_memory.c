/* Host tests for bench/b_memory.c's pointer-chase buffer: what its comment
 * and routine.h promise, one pointer per CHASE_STRIDE-byte slot, together
 * a single cycle through every slot starting at slot 0, in an order no
 * prefetcher follows (no hop to the next line, no stride repeated from one
 * hop to the next), the same cycle every time.  These hold for any size,
 * a power of two of slots or not.  b_memory.c is included: the prepare
 * function is static. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/b_memory.c"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: */

/* The routines are the .S files' (never run here). */
#define STUB_ROUTINE(sym)                                                    \
	ROUTINE_ABI void sym(uint64_t n, void *data) {}                      \
	const char sym##_end[1]
STUB_ROUTINE(bench_load_stream);
STUB_ROUTINE(bench_store_stream);
STUB_ROUTINE(bench_pointer_chase);
STUB_ROUTINE(bench_rep_movsb);

#define STEP (CHASE_STRIDE / sizeof(uint64_t))

static uint64_t *chase_buffer(size_t size)
{
	uint64_t *b = aligned_alloc(64, size);

	assert_non_null(b);
	memset(b, 0xa5, size);
	pointer_chase_prepare(b, size, 0);
	return b;
}

/* Slot index of what slot i points to; fails on a pointer that is not a
 * slot of the buffer. */
static size_t target(const uint64_t *b, size_t slots, size_t i)
{
	uintptr_t p = (uintptr_t)b[i * STEP], base = (uintptr_t)b;

	assert_true(p >= base && p < base + slots * CHASE_STRIDE);
	assert_int_equal((p - base) % CHASE_STRIDE, 0);
	return (p - base) / CHASE_STRIDE;
}

/* Follows the chain from slot 0: every slot once, back to 0 after exactly
 * `slots` hops; from a page of slots on (where a prefetcher has lines to
 * guess), no hop to the same or the next slot and no two successive hops
 * with the same stride. */
static void check_one_cycle(size_t size)
{
	size_t slots = size / CHASE_STRIDE, i = 0, hops = 0;
	uint64_t *b = chase_buffer(size);
	unsigned char *seen = calloc(slots, 1);
	long long last_stride = 0;

	assert_non_null(seen);
	do {
		size_t j = target(b, slots, i);
		long long stride = (long long)j - (long long)i;

		assert_false(seen[i]);
		seen[i] = 1;
		if (slots >= 4096 / CHASE_STRIDE) {
			assert_true(j != i && j != i + 1);
			if (hops)
				assert_true(stride != last_stride);
		}
		last_stride = stride;
		i = j;
		hops++;
	} while (i != 0 && hops <= slots);
	assert_int_equal(i, 0);
	assert_int_equal(hops, slots);
	free(seen);
	free(b);
}

static void test_one_cycle_power_of_two(void **state)
{
	check_one_cycle(64 << 10);		/* 1024 slots */
	check_one_cycle(CHASE_MIN_SIZE);	/* the smallest it runs with */
}

static void test_one_cycle_other_sizes(void **state)
{
	check_one_cycle(1000 * CHASE_STRIDE);
	check_one_cycle(4097 * CHASE_STRIDE);
	check_one_cycle(3 * CHASE_STRIDE);
}

/* The cycle depends on nothing but the size: two buffers, same hops. */
static void test_same_cycle_every_time(void **state)
{
	size_t size = 4096 * CHASE_STRIDE, slots = size / CHASE_STRIDE;
	uint64_t *a = chase_buffer(size), *b = chase_buffer(size);

	for (size_t i = 0; i < slots; i++)
		assert_int_equal(target(a, slots, i), target(b, slots, i));
	free(a);
	free(b);
}

/* A buffer smaller than a slot gets no pointer written (nothing to chase:
 * bench/data.c never hands one out, but the function must not loop). */
static void test_no_slot(void **state)
{
	uint64_t b[4] = { 1, 2, 3, 4 };

	pointer_chase_prepare(b, sizeof(b), 0);
	assert_int_equal(b[0], 1);
	assert_int_equal(b[3], 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_cycle_power_of_two),
		cmocka_unit_test(test_one_cycle_other_sizes),
		cmocka_unit_test(test_same_cycle_every_time),
		cmocka_unit_test(test_no_slot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
