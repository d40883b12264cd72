/* Host tests for harness/select.c: runner_selected(), which tests a tests=
 * glob list chooses, manual tests included; runner_applicable() and
 * runner_selected_on(), the PMU generation groups. */
#include <stdio.h>
#include <string.h>

/* Before cmocka.h: test.h declares a skip() that cmocka makes a macro. */
#include "harness/select.h"
#include "harness/test.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* host-sources: harness/select.c pmu/generation.c tests/host/pmu/p5/stub_generation.c tests/host/pmu/p6/stub_generation.c tests/host/pmu/netburst/stub_generation.c tests/host/pmu/perfmon/stub_generation.c pmu/pt/generation.c pmu/cpu_model.c lib/fmt.c lib/string.c */

/* The generations' descriptors are linked (the groups they name are
 * what runner_applicable() derives from), without their drivers and
 * models, which nothing runs here (tests/host/pmu/<gen>/stub_generation.c). */

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

/* An entry as long as a whole tests= value (4096 characters, issue 31)
 * is matched whole too. */
static void test_entry_of_4096(void **state)
{
	static char name[4097], glob[4097];
	struct test t = { name, "what", NULL, 0 };

	memset(name, 'x', 4096);
	memcpy(name, "arch/", 5);
	memcpy(glob, name, sizeof(glob));
	assert_true(runner_selected(&t, glob));
	glob[4095] = '?';
	assert_true(runner_selected(&t, glob));
	glob[4095] = 'y';
	assert_false(runner_selected(&t, glob));
}

/* Generation groups apply to their PMU kind; on another kind they are
 * chosen only by a pattern naming the group, like manual tests. */
struct kind_case {
	const char *name;
	enum pmu_kind kind;
	const char *globs;
	int applicable, selected;
};

static const struct kind_case kinds[] = {
	{ "p5/cc-010", PMU_P5, "*", 1, 1 },
	{ "p5/cc-010", PMU_ARCH, "*", 0, 0 },
	{ "p5/cc-010", PMU_ARCH, "p5/*", 0, 1 },
	{ "p5/cc-010", PMU_ARCH, "p?/*", 0, 0 },
	{ "p5/cc-010", PMU_NONE, "*/cc-010", 0, 0 },
	{ "p6/usr-os", PMU_P6, "*", 1, 1 },
	{ "p6/usr-os", PMU_P5, "*", 0, 0 },
	{ "perfmon/fixed-0", PMU_ARCH, "*", 1, 1 },
	{ "perfmon/fixed-0", PMU_P6, "*", 0, 0 },
	{ "perfmon/fixed-0", PMU_P6, "perfmon/fixed-0", 0, 1 },
	{ "netburst/cascade-14-16", PMU_NETBURST, "*", 1, 1 },
	{ "netburst/cascade-14-16", PMU_UNSUPPORTED, "*", 0, 0 },
	/* BTS and PEBS: the DS area of architectural perfmon */
	{ "bts/circular-wrap", PMU_ARCH, "*", 1, 1 },
	{ "bts/circular-wrap", PMU_P6, "*", 0, 0 },
	{ "bts/circular-wrap", PMU_P6, "bts/*", 0, 1 },
	{ "pebs/record-format", PMU_ARCH, "*", 1, 1 },
	{ "pebs/record-format", PMU_NETBURST, "*", 0, 0 },
	{ "pebs/record-format", PMU_P5, "pebs/record-format", 0, 1 },
	/* other groups apply everywhere */
	{ "detect/cpuid", PMU_NONE, "*", 1, 1 },
	{ "apic/state", PMU_UNSUPPORTED, "*", 1, 1 },
	/* a prefix of a group name is not the group */
	{ "p50/x", PMU_ARCH, "*", 1, 1 },
	{ "perfmonx/y", PMU_P5, "*", 1, 1 },
	{ "btsx/y", PMU_P6, "*", 1, 1 },
};

static void test_kinds(void **state)
{
	for (unsigned i = 0; i < N(kinds); i++) {
		const struct kind_case *c = &kinds[i];
		struct test t = { c->name, "what", NULL, 0 };
		int app = runner_applicable(&t, c->kind) != 0;
		int sel = runner_selected_on(&t, c->globs, c->kind) != 0;

		if (app != c->applicable || sel != c->selected)
			fail_msg("\"%s\" on kind %d with \"%s\": applicable %d "
				 "selected %d, want %d %d", c->name, c->kind,
				 c->globs, app, sel, c->applicable,
				 c->selected);
	}
}

/* runner_unmatched_patterns(): every non-empty pattern that chooses no
 * test on any CPU is named, in order (issue 30: a misspelt group in a
 * list used to run the rest silently, and alone it printed 1..0). */
static const struct test registered[] = {
	{ "detect/cpuid", "what", NULL, 0 },
	{ "perfmon/fixed-0", "what", NULL, 0 },
	{ "p5/cc-010", "what", NULL, 0 },
	{ "selftest/fault", "what", NULL, MANUAL },
};

struct unmatched_log {
	char text[256];
};

static void note(void *ctx, const char *pattern)
{
	struct unmatched_log *l = ctx;

	strcat(l->text, pattern);
	strcat(l->text, "|");
}

struct unmatched_case {
	const char *globs;
	unsigned count;
	const char *named;	/* the patterns, each followed by '|' */
};

static const struct unmatched_case unmatched[] = {
	{ "*", 0, "" },
	{ "detect/*,perfmon/*", 0, "" },
	{ "nosuch/*", 1, "nosuch/*|" },
	{ "perfmn/*,detect/*", 1, "perfmn/*|" },
	{ "detect/*,perfmn/*,pebs/*", 2, "perfmn/*|pebs/*|" },
	/* a group of another PMU kind is still a test of this build */
	{ "p5/*", 0, "" },
	/* a manual test needs its group spelled out */
	{ "self*/fault", 1, "self*/fault|" },
	{ "selftest/fault", 0, "" },
	/* empty entries name nothing */
	{ "", 0, "" },
	{ ",,detect/*,", 0, "" },
	{ "DETECT/*", 1, "DETECT/*|" },
};

static void test_unmatched(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N(unmatched); i++) {
		const struct unmatched_case *c = &unmatched[i];
		struct unmatched_log l = { "" };
		unsigned got = runner_unmatched_patterns(c->globs, registered,
			registered + N(registered), note, &l);

		if (got != c->count || strcmp(l.text, c->named))
			fail_msg("\"%s\": %u unmatched \"%s\", want %u \"%s\"",
				 c->globs, got, l.text, c->count, c->named);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ordinary),
		cmocka_unit_test(test_empty_entries),
		cmocka_unit_test(test_manual),
		cmocka_unit_test(test_long_entries),
		cmocka_unit_test(test_entry_of_4096),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_unmatched),
	};

	return cmocka_run_group_tests_name("select", tests, NULL, NULL);
}
