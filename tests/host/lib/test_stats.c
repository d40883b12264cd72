/* Host tests for lib/stats.c: stats_min(), stats_median() (the lower
 * median, an observed value; the input is left alone) and stats_delta()
 * (large - small, saturating at 0 with *negative set). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: lib/stats.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MAX UINT64_MAX

struct mcase {
	const char *what;
	unsigned n;
	uint64_t v[8];
	uint64_t min, median;
};

static const struct mcase mcases[] = {
	{ "n=1", 1, { 5 }, 5, 5 },
	{ "n=1 zero", 1, { 0 }, 0, 0 },
	{ "n=1 max", 1, { MAX }, MAX, MAX },
	{ "n=2 sorted: the lower", 2, { 3, 9 }, 3, 3 },
	{ "n=2 reversed: the lower", 2, { 9, 3 }, 3, 3 },
	{ "n=2 equal", 2, { 4, 4 }, 4, 4 },
	{ "n=2 odd sum: no average", 2, { 1, 4 }, 1, 1 },
	{ "n=3", 3, { 3, 1, 2 }, 1, 2 },
	{ "n=3 min last", 3, { 3, 2, 1 }, 1, 2 },
	{ "n=4: lower of the middle two", 4, { 4, 1, 3, 2 }, 1, 2 },
	{ "n=4 middle two far apart", 4, { 100, 1, 1000, 2 }, 1, 2 },
	{ "all equal", 5, { 5, 5, 5, 5, 5 }, 5, 5 },
	{ "duplicates odd", 5, { 9, 2, 2, 1, 2 }, 1, 2 },
	{ "duplicates even", 4, { 7, 7, 1, 1 }, 1, 1 },
	{ "duplicates at the median", 6, { 3, 1, 3, 3, 9, 0 }, 0, 3 },
	{ "sorted odd", 7, { 1, 2, 3, 4, 5, 6, 7 }, 1, 4 },
	{ "sorted even", 6, { 10, 20, 30, 40, 50, 60 }, 10, 30 },
	{ "reverse odd", 7, { 7, 6, 5, 4, 3, 2, 1 }, 1, 4 },
	{ "reverse even", 6, { 60, 50, 40, 30, 20, 10 }, 10, 30 },
	{ "min in the middle", 5, { 8, 9, 0, 7, 6 }, 0, 7 },
	{ "8 values", 8, { 8, 3, 6, 1, 7, 2, 5, 4 }, 1, 4 },
	{ "near max", 3, { MAX, MAX - 1, 0 }, 0, MAX - 1 },
	{ "near max even", 4, { MAX, MAX - 2, MAX - 1, MAX - 3 }, MAX - 3,
	  MAX - 2 },
	{ "max twice", 2, { MAX, MAX }, MAX, MAX },
	{ "max and 1", 2, { MAX, 1 }, 1, 1 },
	{ "max and 1 reversed", 2, { 1, MAX }, 1, 1 },
	{ "top bit", 3, { 1ull << 63, (1ull << 63) - 1, (1ull << 63) + 1 },
	  (1ull << 63) - 1, 1ull << 63 },
};

static void test_min_median_table(void **state)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < N(mcases); i++) {
		const struct mcase *c = &mcases[i];
		uint64_t v[8], mn, md;

		memcpy(v, c->v, sizeof(v));
		mn = stats_min(v, c->n);
		md = stats_median(v, c->n);
		if (mn != c->min || md != c->median) {
			print_error("%s: min %llu median %llu, want %llu "
				    "%llu\n", c->what, (unsigned long long)mn,
				    (unsigned long long)md,
				    (unsigned long long)c->min,
				    (unsigned long long)c->median);
			bad++;
		}
		if (memcmp(v, c->v, sizeof(v))) {
			print_error("%s: input modified\n", c->what);
			bad++;
		}
	}
	if (bad)
		fail_msg("%u of %u cases wrong", bad, (unsigned)N(mcases));
}

static void test_empty(void **state)
{
	uint64_t v[1] = { 42 };

	assert_int_equal(stats_min(v, 0), 0);
	assert_int_equal(stats_median(v, 0), 0);
	assert_int_equal(v[0], 42);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every n from 1 to 64 (the most stats_median handles), random arrays of
 * small values (many duplicates), full-range values and values near
 * UINT64_MAX, against qsort. */
static void test_random_against_sort(void **state)
{
	unsigned bad = 0;

	for (unsigned n = 1; n <= 64; n++) {
		for (unsigned rep = 0; rep < 60; rep++) {
			uint64_t v[64], keep[64], s[64], mn, md;

			for (unsigned i = 0; i < n; i++) {
				uint64_t r = rng();

				v[i] = rep % 3 == 0 ? r % 5 :
				       rep % 3 == 1 ? r : MAX - r % 9;
			}
			memcpy(keep, v, sizeof(v[0]) * n);
			memcpy(s, v, sizeof(v[0]) * n);
			qsort(s, n, sizeof(s[0]), cmp_u64);
			mn = stats_min(v, n);
			md = stats_median(v, n);
			if (mn != s[0] || md != s[(n - 1) / 2] ||
			    memcmp(keep, v, sizeof(v[0]) * n)) {
				if (bad++ < 10)
					print_error("n=%u rep %u: min %llu "
						    "median %llu, want %llu "
						    "%llu%s\n", n, rep,
						    (unsigned long long)mn,
						    (unsigned long long)md,
						    (unsigned long long)s[0],
						    (unsigned long long)
						    s[(n - 1) / 2],
						    memcmp(keep, v,
							   sizeof(v[0]) * n) ?
						    " (input modified)" : "");
			}
		}
	}
	if (bad)
		fail_msg("%u random arrays wrong", bad);
}

/* n = 64 in sorted and reverse order: the median is the 32nd smallest. */
static void test_64_sorted_reversed(void **state)
{
	uint64_t up[64], down[64];

	for (unsigned i = 0; i < 64; i++) {
		up[i] = 1000 + i;
		down[i] = 1063 - i;
	}
	assert_int_equal(stats_min(up, 64), 1000);
	assert_int_equal(stats_min(down, 64), 1000);
	assert_int_equal(stats_median(up, 64), 1031);
	assert_int_equal(stats_median(down, 64), 1031);
	assert_int_equal(stats_median(up, 63), 1031);
	assert_int_equal(stats_median(down + 1, 63), 1031);
	assert_int_equal(up[0], 1000);
	assert_int_equal(down[0], 1063);
}

struct dcase {
	uint64_t small, large, delta;
	int negative;
};

static const struct dcase dcases[] = {
	{ 0, 0, 0, 0 },
	{ 1, 5, 4, 0 },
	{ 5, 5, 0, 0 },
	{ 5, 1, 0, 1 },
	{ 0, MAX, MAX, 0 },
	{ MAX, 0, 0, 1 },
	{ MAX - 1, MAX, 1, 0 },
	{ MAX, MAX - 1, 0, 1 },
	{ MAX, MAX, 0, 0 },
	{ 1ull << 63, (1ull << 63) + 3, 3, 0 },
	{ (1ull << 63) + 3, 1ull << 63, 0, 1 },
	{ 1000, 1000000, 999000, 0 },
	{ 1, 0, 0, 1 },
};

static void test_delta(void **state)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < N(dcases); i++) {
		const struct dcase *c = &dcases[i];

		/* *negative must be written both ways, whatever it held */
		for (int init = -1; init <= 1; init++) {
			int neg = init;
			uint64_t d = stats_delta(c->small, c->large, &neg);

			if (d != c->delta || neg != c->negative) {
				print_error("delta(%llu, %llu) with *negative "
					    "%d before: %llu negative %d, want "
					    "%llu %d\n",
					    (unsigned long long)c->small,
					    (unsigned long long)c->large, init,
					    (unsigned long long)d, neg,
					    (unsigned long long)c->delta,
					    c->negative);
				bad++;
			}
		}
	}
	if (bad)
		fail_msg("%u delta cases wrong", bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_min_median_table),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_random_against_sort),
		cmocka_unit_test(test_64_sorted_reversed),
		cmocka_unit_test(test_delta),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
