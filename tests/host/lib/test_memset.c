/* Host tests for lib/string.c's own memset (the freestanding builds'; the
 * other host tests use the C library's): every byte of [dst, dst + n) set
 * to (unsigned char)c and no byte outside, whatever the alignment of dst
 * and the length (the head and tail bytes around the whole words), and
 * dst returned.  The file is included with HOST_TEST undefined and the
 * four routines renamed, so the C library's stay what everything else
 * here uses. */
#undef HOST_TEST
#define memcpy lib_memcpy
#define memmove lib_memmove
#define memset lib_memset
#define memcmp lib_memcmp
#include "lib/string.c"
#undef memcpy
#undef memmove
#undef memset
#undef memcmp

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: */

#define GUARD 0x5a
#define AREA 4096

static unsigned char area[AREA + 64];

static void check_one(size_t off, size_t n, int c)
{
	unsigned char want = (unsigned char)c;

	for (size_t i = 0; i < sizeof(area); i++)
		area[i] = GUARD;
	assert_ptr_equal(lib_memset(area + off, c, n), area + off);
	for (size_t i = 0; i < sizeof(area); i++) {
		int inside = i >= off && i < off + n;

		if (area[i] != (inside ? want : GUARD))
			fail_msg("off %zu n %zu c %#x: byte %zu is %#x", off,
				 n, c, i, area[i]);
	}
}

static void test_every_alignment_and_short_length(void **state)
{
	for (size_t off = 0; off < 16; off++)
		for (size_t n = 0; n <= 40; n++) {
			check_one(off, n, 0);
			check_one(off, n, 0xa5);
		}
}

static void test_long_lengths(void **state)
{
	static const size_t lens[] = { 63, 64, 65, 1000, 4093, AREA };

	for (size_t i = 0; i < sizeof(lens) / sizeof(*lens); i++)
		for (size_t off = 0; off < 9; off++)
			check_one(off, lens[i], 0xff);
}

/* memset converts c to unsigned char: only its low byte counts. */
static void test_only_the_low_byte_of_c(void **state)
{
	check_one(3, 100, 0x1ab);
	check_one(0, 64, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_alignment_and_short_length),
		cmocka_unit_test(test_long_lengths),
		cmocka_unit_test(test_only_the_low_byte_of_c),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
