/* Host tests for boot/logname.c: candidate names, the first free one is
 * chosen and no taken one is overwritten, a directory where every name is
 * taken gives the collision state, a failing probe stops the search, and
 * the header words of each state.  logname.c is included, so that any
 * attempt's candidate name (logname_candidate()) is in reach without an
 * interface for the tests alone. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "boot/logname.c"

/* host-sources: lib/fmt.c lib/string.c */

static const struct logname_time clock_ok = {
	.valid = 1, .year = 2024, .month = 3, .day = 7,
	.hour = 9, .minute = 5, .second = 1,
};
static const struct logname_time no_clock = { .valid = 0 };

/* A fake \pmu-harness: the names it holds, and what the probe saw. */
struct fake_dir {
	const char *const *names;	/* NULL-terminated */
	int all_taken;			/* every name is taken */
	const char *fail_on;		/* the probe fails on this name */
	unsigned probes;
	char probed[LOGNAME_ATTEMPTS + 1][LOGNAME_MAX];
};

static int probe(void *ctx, const char *name)
{
	struct fake_dir *d = ctx;

	assert_true(d->probes <= LOGNAME_ATTEMPTS);
	snprintf(d->probed[d->probes++], LOGNAME_MAX, "%s", name);
	if (d->fail_on && !strcmp(name, d->fail_on))
		return -1;
	if (d->all_taken)
		return 1;
	for (const char *const *n = d->names; n && *n; n++)
		if (!strcmp(*n, name))
			return 1;
	return 0;
}

static void test_candidates(void **state)
{
	char name[LOGNAME_MAX];

	(void)state;
	logname_candidate(&clock_ok, 0, name, sizeof(name));
	assert_string_equal(name, "20240307-090501.log");
	logname_candidate(&clock_ok, 1, name, sizeof(name));
	assert_string_equal(name, "20240307-090501-1.log");
	logname_candidate(&clock_ok, LOGNAME_ATTEMPTS - 1, name, sizeof(name));
	assert_string_equal(name, "20240307-090501-99.log");
	logname_candidate(&no_clock, 0, name, sizeof(name));
	assert_string_equal(name, "run-0.log");
	logname_candidate(&no_clock, 7, name, sizeof(name));
	assert_string_equal(name, "run-7.log");
}

static void test_empty_dir_takes_base_name(void **state)
{
	struct fake_dir d = { 0 };
	char name[LOGNAME_MAX];
	unsigned taken = 99;

	(void)state;
	assert_int_equal(logname_choose(&clock_ok, probe, &d, name,
					sizeof(name), &taken), LOGFILE_OPEN);
	assert_string_equal(name, "20240307-090501.log");
	assert_int_equal(taken, 0);
	assert_int_equal(d.probes, 1);
}

static void test_taken_names_are_skipped(void **state)
{
	static const char *const held[] = {
		"20240307-090501.log", "20240307-090501-1.log",
		"20240307-090501-2.log", NULL,
	};
	struct fake_dir d = { .names = held };
	char name[LOGNAME_MAX];
	unsigned taken;

	(void)state;
	assert_int_equal(logname_choose(&clock_ok, probe, &d, name,
					sizeof(name), &taken), LOGFILE_OPEN);
	assert_string_equal(name, "20240307-090501-3.log");
	assert_int_equal(taken, 3);
}

/* The case: every name taken must not read like "no volume". */
static void test_all_taken_is_a_collision(void **state)
{
	struct fake_dir d = { .all_taken = 1 };
	char name[LOGNAME_MAX], text[200];
	unsigned taken;
	enum logfile_state st;

	(void)state;
	st = logname_choose(&clock_ok, probe, &d, name, sizeof(name), &taken);
	assert_int_equal(st, LOGFILE_COLLISION);
	assert_int_equal(taken, LOGNAME_ATTEMPTS);
	assert_int_equal(d.probes, LOGNAME_ATTEMPTS);
	assert_string_equal(d.probed[0], "20240307-090501.log");
	assert_string_equal(d.probed[LOGNAME_ATTEMPTS - 1],
			    "20240307-090501-99.log");
	logfile_describe(text, sizeof(text), st, name, taken, NULL);
	assert_string_equal(text, "name collision: 100 names taken");
}

static void test_all_taken_without_clock(void **state)
{
	struct fake_dir d = { .all_taken = 1 };
	char name[LOGNAME_MAX];
	unsigned taken;

	(void)state;
	assert_int_equal(logname_choose(&no_clock, probe, &d, name,
					sizeof(name), &taken),
			 LOGFILE_COLLISION);
	assert_string_equal(d.probed[LOGNAME_ATTEMPTS - 1], "run-99.log");
}

static void test_probe_failure_stops(void **state)
{
	static const char *const held[] = { "20240307-090501.log", NULL };
	struct fake_dir d = { .names = held,
			      .fail_on = "20240307-090501-1.log" };
	char name[LOGNAME_MAX];
	unsigned taken;

	(void)state;
	assert_int_equal(logname_choose(&clock_ok, probe, &d, name,
					sizeof(name), &taken),
			 LOGFILE_FAILED);
	assert_string_equal(name, "20240307-090501-1.log");
	assert_int_equal(taken, 1);
	assert_int_equal(d.probes, 2);
}

static void test_describe_states(void **state)
{
	char text[200];

	(void)state;
	logfile_describe(text, sizeof(text), LOGFILE_OPEN,
			 "20240307-090501.log", 0, NULL);
	assert_string_equal(text, "\\pmu-harness\\20240307-090501.log");
	logfile_describe(text, sizeof(text), LOGFILE_NO_VOLUME, "", 0, NULL);
	assert_string_equal(text, "none (no file system on the boot device)");
	logfile_describe(text, sizeof(text), LOGFILE_READ_ONLY, "", 0, NULL);
	assert_string_equal(text, "volume read-only");
	logfile_describe(text, sizeof(text), LOGFILE_NOT_DIR, "", 0, NULL);
	assert_string_equal(text, "\\pmu-harness is not a directory");
	logfile_describe(text, sizeof(text), LOGFILE_FAILED, "", 0,
			 "cannot create x.log (EFI_VOLUME_FULL)");
	assert_string_equal(text,
			    "unwritable: cannot create x.log (EFI_VOLUME_FULL)");
	logfile_describe(text, sizeof(text), LOGFILE_FAILED, "", 0, NULL);
	assert_string_equal(text, "unwritable: unknown error");
}

/* The header quotes the state; a '"' in it would end the value early. */
static void test_describe_never_quotes(void **state)
{
	char text[16];

	(void)state;
	logfile_describe(text, sizeof(text), LOGFILE_FAILED, "", 0,
			 "a \"b\" c d e f g h");
	assert_null(strchr(text, '"'));
	assert_int_equal(strlen(text), sizeof(text) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_empty_dir_takes_base_name),
		cmocka_unit_test(test_taken_names_are_skipped),
		cmocka_unit_test(test_all_taken_is_a_collision),
		cmocka_unit_test(test_all_taken_without_clock),
		cmocka_unit_test(test_probe_failure_stops),
		cmocka_unit_test(test_describe_states),
		cmocka_unit_test(test_describe_never_quotes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
