/* Host tests for harness/select.c: runner_selected(), which tests a tests=
 * glob list chooses, manual tests included. */
#include <stdio.h>
#include <string.h>

/* Before cmocka.h: test.h declares a skip() that cmocka makes a macro. */
#include "harness/runner.h"
#include "harness/test.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: harness/select.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MANUAL TEST_MANUAL

struct sel_case {
	const char *name;
	unsigned flags;
	const char *globs;
	int selected;
};

/* Ordinary tests: any matching entry. */
static const struct sel_case ordinary[] = {
	{ "detect/cpuid", 0, "*", 1 },
	{ "detect/cpuid", 0, "detect/*", 1 },
	{ "detect/cpuid", 0, "detect/cpuid", 1 },
	{ "detect/cpuid", 0, "detect/cpu", 0 },
	{ "detect/cpuid", 0, "detect/cpu?d", 1 },
	{ "detect/cpuid", 0, "DETECT/*", 0 },
	{ "arch/tsc", 0, "detect/*", 0 },
	{ "arch/tsc", 0, "detect/*,arch/*", 1 },
	{ "arch/tsc", 0, "arch/*,detect/*", 1 },
	{ "bench/loop", 0, "detect/*,arch/*", 0 },
	{ "arch/tsc", 0, "*/tsc", 1 },
	{ "arch/tsc", 0, "*tsc*", 1 },
	{ "arch/tsc", 0, "*/*", 1 },
	{ "arch/tsc", 0, "arch", 0 },
	{ "arch/tsc", 0, "arch/", 0 },
	{ "selftest/pass", 0, "*", 1 },
	{ "selftest/pass", 0, "*/pass", 1 },
	/* other flag bits do not make a test manual */
	{ "arch/tsc", 2, "*", 1 },
};

/* Empty lists and entries match nothing and harm nothing. */
static const struct sel_case empty[] = {
	{ "arch/tsc", 0, "", 0 },
	{ "arch/tsc", 0, ",", 0 },
	{ "arch/tsc", 0, ",,", 0 },
	{ "arch/tsc", 0, ",arch/*", 1 },
	{ "arch/tsc", 0, "arch/*,", 1 },
	{ "arch/tsc", 0, "detect/*,,arch/tsc", 1 },
	{ "arch/tsc", 0, "detect/*,,", 0 },
	{ "selftest/fault", MANUAL, "", 0 },
	{ "selftest/fault", MANUAL, ",", 0 },
};

/* Manual tests: only a pattern whose group part has no wildcard. */
static const struct sel_case manual[] = {
	{ "selftest/fault", MANUAL, "*", 0 },
	{ "selftest/fault", MANUAL, "*/*", 0 },
	{ "selftest/fault", MANUAL, "*/fault", 0 },
	{ "selftest/fault", MANUAL, "*fault", 0 },
	{ "selftest/fault", MANUAL, "self*/fault", 0 },
	{ "selftest/fault", MANUAL, "?elftest/*", 0 },
	{ "selftest/fault", MANUAL, "selftes?/fault", 0 },
	{ "selftest/fault", MANUAL, "selftest*", 0 },
	{ "selftest/fault", MANUAL, "selftest", 0 },
	{ "selftest/fault", MANUAL, "arch/*", 0 },
	{ "selftest/fault", MANUAL, "selftest/other", 0 },
	{ "selftest/fault", MANUAL, "selftest/*", 1 },
	{ "selftest/fault", MANUAL, "selftest/fault", 1 },
	{ "selftest/fault", MANUAL, "selftest/f*", 1 },
	{ "selftest/fault", MANUAL, "selftest/?ault", 1 },
	{ "selftest/fault", MANUAL, "selftest/*t", 1 },
	{ "selftest/fault", MANUAL, "*,selftest/fault", 1 },
	{ "selftest/fault", MANUAL, "selftest/*,*", 1 },
	{ "selftest/fault", MANUAL, "detect/*,selftest/*", 1 },
	{ "selftest/fault", MANUAL, "*,*/fault,self*/*", 0 },
	{ "selftest/fault", MANUAL, ",selftest/fault,", 1 },
	{ "bench/loop", MANUAL, "bench/*", 1 },
	{ "bench/loop", MANUAL, "*", 0 },
	{ "arch/tsc", MANUAL | 2, "*", 0 },
	{ "arch/tsc", MANUAL | 2, "arch/*", 1 },
};

static void run_cases(const struct sel_case *cases, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const struct sel_case *c = &cases[i];
		struct test t = { c->name, "what", NULL, c->flags };
		int got = runner_selected(&t, c->globs) != 0;

		if (got != c->selected)
			fail_msg("\"%s\"%s with \"%s\": %d, want %d", c->name,
				 c->flags & MANUAL ? " (manual)" : "",
				 c->globs, got, c->selected);
	}
}

static void test_ordinary(void **state)
{
	run_cases(ordinary, N(ordinary));
}

static void test_empty_entries(void **state)
{
	run_cases(empty, N(empty));
}

static void test_manual(void **state)
{
	run_cases(manual, N(manual));
}

/* A long entry is matched whole; an entry too long to match is skipped
 * without harming the entries around it. */
static void test_long_entries(void **state)
{
	char name[128], globs[400];
	struct test t = { name, "what", NULL, 0 };
	struct test tsc = { "arch/tsc", "what", NULL, 0 };

	memset(name, 'x', sizeof(name) - 1);
	memcpy(name, "arch/", 5);
	name[sizeof(name) - 1] = 0;	/* 127 characters */
	assert_true(runner_selected(&t, name));
	snprintf(globs, sizeof(globs), "detect/*,%s,bench/*", name);
	assert_true(runner_selected(&t, globs));
	name[sizeof(name) - 2] = 'y';
	assert_false(runner_selected(&t, globs));

	memset(globs, 'z', 300);
	strcpy(globs + 300, ",arch/*");
	assert_true(runner_selected(&tsc, globs));
	strcpy(globs + 300, ",bench/*");
	assert_false(runner_selected(&tsc, globs));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ordinary),
		cmocka_unit_test(test_empty_entries),
		cmocka_unit_test(test_manual),
		cmocka_unit_test(test_long_entries),
	};

	return cmocka_run_group_tests_name("select", tests, NULL, NULL);
}
