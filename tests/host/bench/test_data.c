/* Host tests for bench/data.c: benchmark buffers sized by what the firmware
 * has free, the "needs N MiB, M MiB free" shortfall, and the release of
 * every buffer at the end.  The boot layer's allocator is a fake here: it
 * hands out addresses (never dereferenced) from a pretend free total and
 * largest block, and counts what it is asked for and given back.  data.c
 * is included, so that the sizing rule alone (bench_data_want()) is in
 * reach without an interface for the tests alone. */
#include <stdio.h>
#include <string.h>

#include "bench/data.c"
#include "arch/x86/ring3.h"
#include "arch/x86/smp.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: lib/fmt.c */

#define MIB (1ull << 20)

static struct {
	uint64_t total, largest;	/* what the fake firmware has free */
	unsigned allocs, releases;
	uint64_t held;			/* handed out, not given back */
	uint64_t last_bytes, last_align;
	uint64_t next;			/* next address handed out */
	int sibling;
	uint64_t aligned_max;		/* 0, or the most a 2 MiB-aligned
					 * request gets */
	unsigned prepared;
	uint64_t prepared_size;
} fw;

static void *fake_alloc(uint64_t bytes, uint64_t align)
{
	uint64_t a;

	fw.allocs++;
	fw.last_bytes = bytes;
	fw.last_align = align;
	if (bytes > fw.largest || bytes > fw.total ||
	    (fw.aligned_max && align > 4096 && bytes > fw.aligned_max))
		return NULL;
	a = (fw.next + align - 1) & ~(align - 1);
	fw.next = a + bytes;
	fw.total -= bytes;
	fw.largest -= bytes;
	fw.held += bytes;
	return (void *)(uintptr_t)a;
}

static void fake_release(void *p, uint64_t bytes)
{
	fw.releases++;
	fw.held -= bytes;
	fw.total += bytes;
}

static void fake_free(uint64_t *total, uint64_t *largest)
{
	*total = fw.total;
	*largest = fw.largest;
}

static const struct bench_mem fake = {
	.alloc = fake_alloc,
	.release = fake_release,
	.free = fake_free,
};

/* What data.c calls besides the allocator. */
int ring3_ready(void)
{
	return 0;
}

int ring3_map_user(const void *addr, uint64_t len)
{
	return 0;
}

int smp_on_sibling(void)
{
	return fw.sibling;
}

static void prepare(void *data, size_t size, uint64_t n)
{
	fw.prepared++;
	fw.prepared_size = size;
}

/* Like pointer-chase: 64 MiB wanted, 8 MiB still does its job. */
static const struct bench sized = {
	.name = "sized", .data_size = 64 * MIB, .data_min = 8 * MIB,
	.prepare = prepare,
};
static const struct bench fixed = { .name = "fixed", .data_size = 8192 };
static const struct bench none = { .name = "no-size" };

static int setup(void **state)
{
	memset(&fw, 0, sizeof(fw));
	fw.next = 0x100000;
	bench_init(&fake);
	return 0;
}

static int teardown(void **state)
{
	bench_release();
	return 0;
}

static void free_mem(uint64_t total_mib, uint64_t largest_mib)
{
	fw.total = total_mib * MIB;
	fw.largest = largest_mib * MIB;
}

static void text_is(const char *want)
{
	char got[160];

	bench_shortfall_text(got, sizeof(got));
	assert_string_equal(got, want);
}

/* Halves from data_size while the largest block cannot hold it or less
 * than BENCH_KEEP_FREE would stay free; never below data_min; the full
 * size when free memory is unknown; a fixed size stays what it is. */
static void test_want(void **state)
{
	static const struct {
		uint64_t total, largest, want;
	} cases[] = {
		{ 212, 170, 64 },	/* QEMU -m 256, measured */
		{ 84, 42, 32 },		/* -m 128 */
		{ 20, 10, 8 },		/* -m 64 */
		{ 12, 7, 8 },		/* -m 56: data_min, refused */
		{ 68, 68, 64 },		/* 64 + 4 kept = 68: fits */
		{ 67, 67, 32 },		/* one MiB short of that */
		{ 11, 11, 8 },
		{ 1, 1, 8 },
		{ 0, 0, 64 },		/* unknown: ask for it all */
	};

	assert_int_equal(BENCH_KEEP_FREE, 4 * MIB);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		uint64_t got = bench_data_want(&sized, cases[i].total * MIB,
					       cases[i].largest * MIB);

		if (got != cases[i].want * MIB)
			fail_msg("free %llu MiB, largest %llu MiB: %llu MiB, "
				 "want %llu MiB",
				 (unsigned long long)cases[i].total,
				 (unsigned long long)cases[i].largest,
				 (unsigned long long)(got / MIB),
				 (unsigned long long)cases[i].want);
	}
	assert_int_equal(bench_data_want(&fixed, MIB, MIB), 8192);
	assert_int_equal(bench_data_want(&fixed, 0, 0), 8192);
	assert_int_equal(bench_data_want(&none, 100 * MIB, 100 * MIB), 64);
}

/* A sized buffer gets what the free memory allows, 2 MiB aligned, is
 * prepared with the size it got, and is allocated once. */
static void test_sized_buffer(void **state)
{
	void *d;

	free_mem(84, 42);
	d = bench_data(&sized);
	assert_non_null(d);
	assert_int_equal(fw.last_bytes, 32 * MIB);
	assert_int_equal(fw.last_align, 2 * MIB);
	assert_int_equal((uintptr_t)d % (2 * MIB), 0);
	assert_int_equal(bench_data_size(&sized), 32 * MIB);
	assert_int_equal(fw.prepared, 1);
	assert_int_equal(fw.prepared_size, 32 * MIB);
	assert_ptr_equal(bench_data(&sized), d);
	assert_int_equal(fw.allocs, 1);
	assert_int_equal(fw.prepared, 1);
}

/* A small buffer takes 4 KiB alignment (a 2 MiB-aligned spot for each
 * would split the firmware's free blocks), and exactly its size. */
static void test_small_buffer(void **state)
{
	free_mem(84, 42);
	assert_non_null(bench_data(&fixed));
	assert_int_equal(fw.last_bytes, 8192);
	assert_int_equal(fw.last_align, 4096);
	assert_non_null(bench_data(&none));
	assert_int_equal(fw.last_bytes, 64);
	assert_int_equal(fw.last_align, 4096);
	assert_int_equal(bench_data_size(&none), 64);
	assert_int_equal(bench_data_size(&sized), 0);
}

/* The firmware refuses the size at 2 MiB alignment although its largest
 * block would hold it: the size is halved, down to data_min. */
static void test_halved_when_refused(void **state)
{
	free_mem(84, 42);
	fw.aligned_max = 10 * MIB;
	assert_non_null(bench_data(&sized));
	assert_int_equal(bench_data_size(&sized), 8 * MIB);
	assert_int_equal(fw.allocs, 3);		/* 32, 16, 8 MiB */
	assert_int_equal(fw.prepared_size, 8 * MIB);
}

/* Refused down to data_min: NULL, the shortfall names data_min. */
static void test_refused_at_min(void **state)
{
	free_mem(84, 42);
	fw.aligned_max = 4 * MIB;
	assert_null(bench_data(&sized));
	assert_int_equal(fw.allocs, 3);
	assert_int_equal(bench_data_size(&sized), 0);
	text_is("needs 8 MiB, 84 MiB free (the allocation failed all the "
		"same)");
}

/* Less than data_min in the largest block: refused without asking the
 * firmware, and the shortfall names the block. */
static void test_refused_by_block(void **state)
{
	free_mem(12, 7);
	assert_null(bench_data(&sized));
	assert_int_equal(fw.allocs, 0);
	text_is("needs 8 MiB, 12 MiB free (largest block 7 MiB)");
	/* a later call, with more free, gets it */
	free_mem(20, 10);
	assert_non_null(bench_data(&sized));
	assert_int_equal(bench_data_size(&sized), 8 * MIB);
}

/* data_min fits in a block, but would leave less than BENCH_KEEP_FREE. */
static void test_refused_by_keep(void **state)
{
	free_mem(10, 9);
	assert_null(bench_data(&sized));
	assert_int_equal(fw.allocs, 0);
	text_is("needs 8 MiB, 10 MiB free (4 MiB of it kept for the rest of "
		"the run)");
}

/* Too little in all; and a fixed buffer the firmware refuses. */
static void test_refused_total(void **state)
{
	free_mem(5, 5);
	assert_null(bench_data(&sized));
	text_is("needs 8 MiB, 5 MiB free");
	fw.total = fw.largest = 4096;
	assert_null(bench_data(&fixed));
	assert_int_equal(fw.allocs, 1);
	text_is("needs 1 MiB, 0 MiB free");
	assert_null(bench_alloc(3 * MIB + 1, 4096));
	text_is("needs 4 MiB, 0 MiB free");
}

/* Free memory unknown; asked on the sibling (no firmware there). */
static void test_unknown_and_sibling(void **state)
{
	assert_null(bench_data(&fixed));	/* fw has 0 free: unknown */
	text_is("needs 1 MiB, free memory unknown");
	free_mem(100, 100);
	fw.sibling = 1;
	assert_null(bench_alloc(4096, 4096));
	assert_int_equal(fw.allocs, 1);		/* only the first */
	text_is("needs 1 MiB, asked on the sibling processor (no firmware "
		"calls there)");
}

/* Everything handed out is given back at the end, once; buffers are
 * allocated anew afterwards. */
static void test_release(void **state)
{
	free_mem(84, 42);
	assert_non_null(bench_data(&sized));
	assert_non_null(bench_data(&fixed));
	assert_non_null(bench_alloc(256 * 1024, 4096));
	assert_int_equal(fw.held, 32 * MIB + 8192 + 256 * 1024);
	bench_release();
	assert_int_equal(fw.releases, 3);
	assert_int_equal(fw.held, 0);
	bench_release();
	assert_int_equal(fw.releases, 3);
	assert_int_equal(bench_data_size(&sized), 0);
	assert_non_null(bench_data(&fixed));
	assert_int_equal(fw.allocs, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_want, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sized_buffer, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_small_buffer, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_halved_when_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refused_at_min, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refused_by_block, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refused_by_keep, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refused_total, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_unknown_and_sibling, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_release, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
