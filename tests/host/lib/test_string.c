/* Host tests for lib/string.c (built with -DHOST_TEST, so memcpy and friends
 * are the C library's): str_len, str_cmp, str_ncmp, str_copy, str_glob. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fnmatch.h>
#include <string.h>

#include "lib/string.h"

/* host-sources: lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

static void test_len(void **state)
{
	static const char *const cases[] = {
		"", "a", "ab", "hello world", "tab\there", "\xff\x80",
		"0123456789012345678901234567890123456789012345678901234567",
	};

	for (unsigned i = 0; i < N(cases); i++)
		assert_int_equal(str_len(cases[i]), strlen(cases[i]));
}

struct cmp_case {
	const char *a, *b;
};

static const struct cmp_case cmp_cases[] = {
	{ "", "" }, { "a", "a" }, { "abc", "abc" }, { "a", "b" },
	{ "b", "a" }, { "abc", "abd" }, { "abc", "abcd" }, { "abcd", "abc" },
	{ "", "a" }, { "a", "" }, { "\xff", "a" }, { "a", "\xff" },
	{ "\x80", "\x7f" }, { "A", "a" }, { "detect/cpuid", "detect/cpu" },
};

static void test_cmp(void **state)
{
	for (unsigned i = 0; i < N(cmp_cases); i++) {
		const struct cmp_case *c = &cmp_cases[i];

		if (sign(str_cmp(c->a, c->b)) != sign(strcmp(c->a, c->b)))
			fail_msg("str_cmp(\"%s\", \"%s\") = %d, strcmp %d",
				 c->a, c->b, str_cmp(c->a, c->b),
				 strcmp(c->a, c->b));
	}
}

static void test_ncmp(void **state)
{
	for (unsigned i = 0; i < N(cmp_cases); i++) {
		const struct cmp_case *c = &cmp_cases[i];

		for (size_t n = 0; n < 8; n++) {
			int got = str_ncmp(c->a, c->b, n);
			int want = strncmp(c->a, c->b, n);

			if (sign(got) != sign(want))
				fail_msg("str_ncmp(\"%s\", \"%s\", %zu) = %d, "
					 "strncmp %d", c->a, c->b, n, got,
					 want);
		}
	}
}

/* The options parser relies on this: "com1x" vs "com" over 3 bytes. */
static void test_ncmp_prefix(void **state)
{
	assert_int_equal(str_ncmp("com1", "com", 3), 0);
	assert_int_equal(str_ncmp("co", "com", 3) < 0, 1);
	assert_int_equal(str_ncmp("ab\0x", "ab\0y", 4), 0);
}

static void test_copy(void **state)
{
	static const char *const srcs[] = { "", "a", "hello", "0123456789" };

	for (unsigned i = 0; i < N(srcs); i++) {
		for (size_t size = 0; size < 14; size++) {
			char buf[16];
			size_t k = strlen(srcs[i]);

			if (size && k > size - 1)
				k = size - 1;
			memset(buf, 'Z', sizeof(buf));
			assert_int_equal(str_copy(buf, srcs[i], size),
					 strlen(srcs[i]));
			if (size) {
				assert_memory_equal(buf, srcs[i], k);
				assert_int_equal(buf[k], 0);
				k++;
			}
			for (; k < sizeof(buf); k++)
				assert_int_equal(buf[k], 'Z');
		}
	}
}

static void test_copy_null_dst_size_zero(void **state)
{
	assert_int_equal(str_copy(NULL, "abc", 0), 3);
}

struct glob_case {
	const char *p, *s;
	int match;
};

static const struct glob_case glob_cases[] = {
	{ "", "", 1 }, { "", "a", 0 }, { "a", "", 0 },
	{ "*", "", 1 }, { "*", "anything/at/all", 1 }, { "**", "x", 1 },
	{ "?", "", 0 }, { "?", "a", 1 }, { "?", "ab", 0 }, { "??", "ab", 1 },
	{ "a", "a", 1 }, { "a", "b", 0 }, { "A", "a", 0 },
	{ "abc", "abc", 1 }, { "abc", "ab", 0 }, { "ab", "abc", 0 },
	{ "a*", "a", 1 }, { "a*", "abc", 1 }, { "a*", "ba", 0 },
	{ "*c", "abc", 1 }, { "*c", "abd", 0 }, { "*c", "c", 1 },
	{ "a*c", "ac", 1 }, { "a*c", "abbbc", 1 }, { "a*c", "abcd", 0 },
	{ "a**b", "ab", 1 }, { "a*b*c", "axxbyyc", 1 },
	{ "a*b*c", "axxcyyb", 0 }, { "*a*", "bab", 1 }, { "*a*", "bbb", 0 },
	{ "*?", "", 0 }, { "*?", "x", 1 }, { "?*?", "x", 0 },
	{ "?*?", "xy", 1 }, { "*aab", "aaab", 1 }, { "*ab*ab", "abxabab", 1 },
	{ "*ab*ab", "abxab", 1 }, { "*ab*ab", "abxa", 0 },
	{ "a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaac", 0 },
	{ "detect/*", "detect/cpuid", 1 }, { "detect/*", "arch/tsc", 0 },
	{ "detect/*", "detect/", 1 }, { "detect/*", "detect", 0 },
	{ "*/tsc*", "arch/tsc-monotonic", 1 }, { "arch/?sc", "arch/tsc", 1 },
	{ "arch/?sc", "arch/sc", 0 }, { "*/*", "arch/tsc", 1 },
	{ "*/*", "arch", 0 }, { "selftest/fault", "selftest/fault", 1 },
};

static void test_glob_table(void **state)
{
	for (unsigned i = 0; i < N(glob_cases); i++) {
		const struct glob_case *c = &glob_cases[i];
		int got = str_glob(c->p, c->s) != 0;

		/* The table itself must agree with fnmatch(3). */
		assert_int_equal(fnmatch(c->p, c->s, 0) == 0, c->match);
		if (got != c->match)
			fail_msg("str_glob(\"%s\", \"%s\") = %d, want %d",
				 c->p, c->s, got, c->match);
	}
}

/* Writes the n-th word of length len over alphabet abc into w. */
static void word(char *w, const char *abc, unsigned len, unsigned n)
{
	unsigned k = (unsigned)strlen(abc);

	for (unsigned i = 0; i < len; i++, n /= k)
		w[i] = abc[n % k];
	w[len] = 0;
}

static unsigned power(unsigned b, unsigned e)
{
	unsigned r = 1;

	while (e--)
		r *= b;
	return r;
}

/* Pattern p against every string over {a b} up to 6 long, with fnmatch(3)
 * as the oracle; returns how many were checked. */
static unsigned glob_vs_fnmatch(const char *p)
{
	unsigned checked = 0;
	char s[8];

	for (unsigned sl = 0; sl <= 6; sl++)
		for (unsigned sn = 0; sn < power(2, sl); sn++) {
			int want, got;

			word(s, "ab", sl, sn);
			want = fnmatch(p, s, 0) == 0;
			got = str_glob(p, s) != 0;
			if (got != want)
				fail_msg("str_glob(\"%s\", \"%s\") = %d, "
					 "fnmatch %d", p, s, got, want);
			checked++;
		}
	return checked;
}

/* Every pattern over {a b * ?} up to 5 long. */
static void test_glob_exhaustive(void **state)
{
	unsigned checked = 0;
	char p[8];

	for (unsigned pl = 0; pl <= 5; pl++)
		for (unsigned pn = 0; pn < power(4, pl); pn++) {
			word(p, "ab*?", pl, pn);
			checked += glob_vs_fnmatch(p);
		}
	assert_true(checked > 100000);
}

/* str_list_next: items of a comma-separated list in order, empty ones
 * kept, one too long for the buffer given back empty. */
static void test_list_next(void **state)
{
	const char *l = "p5/*,,netburst/ht-*,abcdefghij";
	char b[8];

	(void)state;
	assert_true(str_list_next(&l, b, sizeof(b)));
	assert_string_equal(b, "p5/*");
	assert_true(str_list_next(&l, b, sizeof(b)));
	assert_string_equal(b, "");
	assert_true(str_list_next(&l, b, sizeof(b)));
	assert_string_equal(b, "");	/* 13 bytes: too long for 8 */
	assert_true(str_list_next(&l, b, sizeof(b)));
	assert_string_equal(b, "");	/* 10 bytes */
	assert_false(str_list_next(&l, b, sizeof(b)));
	l = "a,b,";
	assert_true(str_list_next(&l, b, sizeof(b)));
	assert_string_equal(b, "a");
	assert_true(str_list_next(&l, b, sizeof(b)));
	assert_string_equal(b, "b");
	assert_false(str_list_next(&l, b, sizeof(b)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_len),
		cmocka_unit_test(test_list_next),
		cmocka_unit_test(test_cmp),
		cmocka_unit_test(test_ncmp),
		cmocka_unit_test(test_ncmp_prefix),
		cmocka_unit_test(test_copy),
		cmocka_unit_test(test_copy_null_dst_size_zero),
		cmocka_unit_test(test_glob_table),
		cmocka_unit_test(test_glob_exhaustive),
	};

	return cmocka_run_group_tests_name("string", tests, NULL, NULL);
}
