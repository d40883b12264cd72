/* Host tests for boot/options.c: defaults, every key with good and bad
 * values, errors through the callback, comments, long words, and
 * options_skip_program(). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "boot/options.h"

/* host-sources: boot/options.c lib/fmt.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SRC "\\pmu-harness.cfg"
#define MAX_ERRORS 8

struct errors {
	unsigned n;
	char msg[MAX_ERRORS][600];
};

static void collect(void *ctx, const char *msg)
{
	struct errors *e = ctx;

	assert_true(e->n < MAX_ERRORS);
	snprintf(e->msg[e->n++], sizeof(e->msg[0]), "%s", msg);
}

static int parse(struct options *o, const char *text, struct errors *e)
{
	memset(e, 0, sizeof(*e));
	return options_parse(o, text, SRC, collect, e);
}

/* Writes the first difference into why; 0 when there is none. */
static int differ(const struct options *got, const struct options *want,
		  char *why, size_t size)
{
	if (strcmp(got->tests, want->tests))
		snprintf(why, size, "tests \"%s\", want \"%s\"", got->tests,
			 want->tests);
	else if (got->backend != want->backend)
		snprintf(why, size, "backend %d, want %d", got->backend,
			 want->backend);
	else if (got->serial_port != want->serial_port)
		snprintf(why, size, "serial_port 0x%x, want 0x%x",
			 got->serial_port, want->serial_port);
	else if (got->serial_com != want->serial_com)
		snprintf(why, size, "serial_com %d, want %d", got->serial_com,
			 want->serial_com);
	else if (got->exit != want->exit)
		snprintf(why, size, "exit %d, want %d", got->exit, want->exit);
	else if (got->verbose != want->verbose)
		snprintf(why, size, "verbose %d, want %d", got->verbose,
			 want->verbose);
	else
		return 0;
	return 1;
}

static void test_defaults(void **state)
{
	struct options o;

	memset(&o, 0x5a, sizeof(o));
	options_defaults(&o);
	assert_string_equal(o.tests, "*");
	assert_int_equal(o.backend, BACKEND_AUTO);
	assert_int_equal(o.serial_port, 0x3f8);
	assert_int_equal(o.serial_com, 1);
	assert_int_equal(o.exit, EXIT_AUTO);
	assert_int_equal(o.verbose, 0);
}

static void test_names(void **state)
{
	assert_string_equal(options_backend_name(BACKEND_AUTO), "auto");
	assert_string_equal(options_backend_name(BACKEND_HW), "hw");
	assert_string_equal(options_backend_name(BACKEND_MODEL), "model");
	assert_string_equal(options_exit_name(EXIT_AUTO), "auto");
	assert_string_equal(options_exit_name(EXIT_RETURN), "return");
	assert_string_equal(options_exit_name(EXIT_SHUTDOWN), "shutdown");
	assert_string_equal(options_exit_name(EXIT_REBOOT), "reboot");
}

/* A good input and what it leaves, starting from the defaults. */
struct good_case {
	const char *text;
	const char *tests;
	enum backend_want backend;
	unsigned port;
	int com;
	enum opt_exit exit;
	int verbose;
};

#define DEF_TESTS "*"
#define DEF BACKEND_AUTO, 0x3f8, 1, EXIT_AUTO, 0

static const struct good_case good[] = {
	{ "", DEF_TESTS, DEF },
	{ " \t\r\n ", DEF_TESTS, DEF },
	{ "# only a comment tests=bad", DEF_TESTS, DEF },
	{ "tests=detect/*", "detect/*", DEF },
	{ "tests=detect/*,arch/*", "detect/*,arch/*", DEF },
	{ "tests=a-b_c.d/e?f*,*", "a-b_c.d/e?f*,*", DEF },
	{ "tests=selftest/fault", "selftest/fault", DEF },
	{ "backend=hw", DEF_TESTS, BACKEND_HW, 0x3f8, 1, EXIT_AUTO, 0 },
	{ "backend=model", DEF_TESTS, BACKEND_MODEL, 0x3f8, 1, EXIT_AUTO, 0 },
	{ "backend=model backend=auto", DEF_TESTS, DEF },
	{ "serial=com1", DEF_TESTS, BACKEND_AUTO, 0x3f8, 1, EXIT_AUTO, 0 },
	{ "serial=com2", DEF_TESTS, BACKEND_AUTO, 0x2f8, 2, EXIT_AUTO, 0 },
	{ "serial=com3", DEF_TESTS, BACKEND_AUTO, 0x3e8, 3, EXIT_AUTO, 0 },
	{ "serial=com4", DEF_TESTS, BACKEND_AUTO, 0x2e8, 4, EXIT_AUTO, 0 },
	{ "serial=none", DEF_TESTS, BACKEND_AUTO, 0, 0, EXIT_AUTO, 0 },
	{ "serial=0x2f8", DEF_TESTS, BACKEND_AUTO, 0x2f8, 2, EXIT_AUTO, 0 },
	{ "serial=0X3E8", DEF_TESTS, BACKEND_AUTO, 0x3e8, 3, EXIT_AUTO, 0 },
	{ "serial=0x2E8", DEF_TESTS, BACKEND_AUTO, 0x2e8, 4, EXIT_AUTO, 0 },
	{ "serial=0x3F8", DEF_TESTS, BACKEND_AUTO, 0x3f8, 1, EXIT_AUTO, 0 },
	{ "serial=0xe000", DEF_TESTS, BACKEND_AUTO, 0xe000, 0, EXIT_AUTO, 0 },
	{ "serial=0x8", DEF_TESTS, BACKEND_AUTO, 0x8, 0, EXIT_AUTO, 0 },
	{ "serial=0xfff8", DEF_TESTS, BACKEND_AUTO, 0xfff8, 0, EXIT_AUTO, 0 },
	{ "serial=0x00002f8", DEF_TESTS, BACKEND_AUTO, 0x2f8, 2, EXIT_AUTO,
	  0 },
	{ "serial=none serial=com2", DEF_TESTS, BACKEND_AUTO, 0x2f8, 2,
	  EXIT_AUTO, 0 },
	{ "serial=com3 serial=0x1000", DEF_TESTS, BACKEND_AUTO, 0x1000, 0,
	  EXIT_AUTO, 0 },
	{ "exit=return", DEF_TESTS, BACKEND_AUTO, 0x3f8, 1, EXIT_RETURN, 0 },
	{ "exit=shutdown", DEF_TESTS, BACKEND_AUTO, 0x3f8, 1, EXIT_SHUTDOWN,
	  0 },
	{ "exit=reboot", DEF_TESTS, BACKEND_AUTO, 0x3f8, 1, EXIT_REBOOT, 0 },
	{ "exit=reboot exit=auto", DEF_TESTS, DEF },
	{ "verbose=1", DEF_TESTS, BACKEND_AUTO, 0x3f8, 1, EXIT_AUTO, 1 },
	{ "verbose=1 verbose=0", DEF_TESTS, DEF },
	{ "tests=a/* backend=model serial=com2 exit=reboot verbose=1", "a/*",
	  BACKEND_MODEL, 0x2f8, 2, EXIT_REBOOT, 1 },
	{ "\ttests=x/y\n\tbackend=hw\r\n", "x/y", BACKEND_HW, 0x3f8, 1,
	  EXIT_AUTO, 0 },
	{ "backend=hw\r\nexit=shutdown\r\n# c\r\nverbose=1\r\n", DEF_TESTS,
	  BACKEND_HW, 0x3f8, 1, EXIT_SHUTDOWN, 1 },
	{ "# header\nbackend=hw # exit=reboot tests=bad\nverbose=1 # x\n",
	  DEF_TESTS, BACKEND_HW, 0x3f8, 1, EXIT_AUTO, 1 },
	{ "#\n#tests=x\n  # exit=reboot\r\nexit=return", DEF_TESTS,
	  BACKEND_AUTO, 0x3f8, 1, EXIT_RETURN, 0 },
};

static void test_good(void **state)
{
	for (unsigned i = 0; i < N(good); i++) {
		const struct good_case *g = &good[i];
		struct options o, want;
		struct errors e;
		char why[600];
		int n;

		options_defaults(&o);
		n = parse(&o, g->text, &e);
		if (n || e.n)
			fail_msg("good case %u: %d errors, first: %s", i, n,
				 e.n ? e.msg[0] : "(none reported)");
		options_defaults(&want);
		snprintf(want.tests, sizeof(want.tests), "%s", g->tests);
		want.backend = g->backend;
		want.serial_port = g->port;
		want.serial_com = g->com;
		want.exit = g->exit;
		want.verbose = g->verbose;
		if (differ(&o, &want, why, sizeof(why)))
			fail_msg("good case %u \"%s\": %s", i, g->text, why);
	}
}

static void test_tests_longest(void **state)
{
	struct options o;
	struct errors e;
	char text[300];

	options_defaults(&o);
	memcpy(text, "tests=", 6);
	memset(text + 6, 'a', OPT_TESTS_MAX - 1);
	text[6 + OPT_TESTS_MAX - 1] = 0;
	assert_int_equal(parse(&o, text, &e), 0);
	assert_int_equal(strlen(o.tests), OPT_TESTS_MAX - 1);
	/* One more character does not fit: reported, old value kept. */
	memset(text + 6, 'b', OPT_TESTS_MAX);
	text[6 + OPT_TESTS_MAX] = 0;
	assert_int_equal(parse(&o, text, &e), 1);
	assert_int_equal(o.tests[0], 'a');
	assert_non_null(strstr(e.msg[0], "tests="));
}

/* A bad input: the errors it reports (each starting "SRC: " and holding
 * 'mention'), leaving the options as they were. */
struct bad_case {
	const char *text;
	int errors;
	const char *mention;
};

static const struct bad_case bad[] = {
	{ "tests=", 1, "tests=\"\"" },
	{ "tests=,", 1, "tests=\",\"" },
	{ "tests=,a/*", 1, "tests=\",a/*\"" },
	{ "tests=a/*,", 1, "tests=\"a/*,\"" },
	{ "tests=a/*,,b/*", 1, "tests=\"a/*,,b/*\"" },
	{ "tests=a;b", 1, "tests=\"a;b\"" },
	{ "tests=a=b", 1, "tests=\"a=b\"" },
	{ "tests=a[bc]", 1, "tests=\"a[bc]\"" },
	{ "backend=", 1, "backend=\"\"" },
	{ "backend=HW", 1, "backend=\"HW\"" },
	{ "backend=hardware", 1, "backend=\"hardware\"" },
	{ "serial=", 1, "serial=\"\"" },
	{ "serial=com0", 1, "serial=\"com0\"" },
	{ "serial=com5", 1, "serial=\"com5\"" },
	{ "serial=com", 1, "serial=\"com\"" },
	{ "serial=com12", 1, "serial=\"com12\"" },
	{ "serial=COM1", 1, "serial=\"COM1\"" },
	{ "serial=None", 1, "serial=\"None\"" },
	{ "serial=3f8", 1, "serial=\"3f8\"" },
	{ "serial=0x", 1, "serial=\"0x\"" },
	{ "serial=0x0", 1, "serial=\"0x0\"" },
	{ "serial=0x000", 1, "serial=\"0x000\"" },
	{ "serial=0x3f9", 1, "serial=\"0x3f9\"" },
	{ "serial=0x3fc", 1, "serial=\"0x3fc\"" },
	{ "serial=0x4", 1, "serial=\"0x4\"" },
	{ "serial=0x10000", 1, "serial=\"0x10000\"" },
	{ "serial=0x1fff8", 1, "serial=\"0x1fff8\"" },
	{ "serial=0x1000000003f8", 1, "serial=\"0x1000000003f8\"" },
	{ "serial=0x3g8", 1, "serial=\"0x3g8\"" },
	{ "serial=-0x3f8", 1, "serial=\"-0x3f8\"" },
	{ "serial=1016", 1, "serial=\"1016\"" },
	{ "exit=", 1, "exit=\"\"" },
	{ "exit=poweroff", 1, "exit=\"poweroff\"" },
	{ "exit=Reboot", 1, "exit=\"Reboot\"" },
	{ "verbose=", 1, "verbose=\"\"" },
	{ "verbose=2", 1, "verbose=\"2\"" },
	{ "verbose=yes", 1, "verbose=\"yes\"" },
	{ "verbose=01", 1, "verbose=\"01\"" },
	{ "verbose=10", 1, "verbose=\"10\"" },
	{ "foo=bar", 1, "\"foo\"" },
	{ "Tests=x", 1, "\"Tests\"" },
	{ "test=x", 1, "\"test\"" },
	{ "tests", 1, "\"tests\"" },
	{ "hello", 1, "\"hello\"" },
	{ "=value", 1, "\"=value\"" },
	{ "=", 1, "\"=\"" },
	{ "backend=bad exit=bad verbose=bad", 3, "backend=\"bad\"" },
};

static void keep_state(struct options *o)
{
	struct errors e;

	options_defaults(o);
	assert_int_equal(parse(o, "tests=keep/* backend=model serial=com2 "
			       "exit=reboot verbose=1", &e), 0);
}

static void test_bad(void **state)
{
	for (unsigned i = 0; i < N(bad); i++) {
		const struct bad_case *b = &bad[i];
		struct options o, want;
		struct errors e;
		char why[600];
		int n;

		keep_state(&o);
		keep_state(&want);
		n = parse(&o, b->text, &e);
		if (n != b->errors || e.n != (unsigned)b->errors)
			fail_msg("bad case \"%s\": %d errors (%u reported), "
				 "want %d", b->text, n, e.n, b->errors);
		for (unsigned k = 0; k < e.n; k++)
			if (strncmp(e.msg[k], SRC ": ", strlen(SRC ": ")))
				fail_msg("bad case \"%s\": message \"%s\" "
					 "lacks the source", b->text, e.msg[k]);
		if (!strstr(e.msg[0], b->mention))
			fail_msg("bad case \"%s\": message \"%s\" lacks "
				 "'%s'", b->text, e.msg[0], b->mention);
		if (differ(&o, &want, why, sizeof(why)))
			fail_msg("bad case \"%s\" changed the options: %s",
				 b->text, why);
	}
}

/* After a bad word, later words still apply. */
static void test_bad_then_good(void **state)
{
	struct options o;
	struct errors e;

	options_defaults(&o);
	assert_int_equal(parse(&o, "backend=bogus exit=reboot nokey "
			       "serial=0x3f9 verbose=1 =x tests=detect/*",
			       &e), 4);
	assert_int_equal(o.backend, BACKEND_AUTO);
	assert_int_equal(o.exit, EXIT_REBOOT);
	assert_int_equal(o.serial_port, 0x3f8);
	assert_int_equal(o.serial_com, 1);
	assert_int_equal(o.verbose, 1);
	assert_string_equal(o.tests, "detect/*");
	assert_non_null(strstr(e.msg[0], "bogus"));
	assert_non_null(strstr(e.msg[1], "nokey"));
	assert_non_null(strstr(e.msg[2], "0x3f9"));
	assert_non_null(strstr(e.msg[3], "=x"));
}

static void test_source_name(void **state)
{
	struct options o;
	struct errors e = { 0 };

	options_defaults(&o);
	assert_int_equal(options_parse(&o, "x", "load options", collect, &e),
			 1);
	assert_int_equal(e.n, 1);
	assert_int_equal(strncmp(e.msg[0], "load options: ", 14), 0);
}

static void test_no_callback(void **state)
{
	struct options o;

	options_defaults(&o);
	assert_int_equal(options_parse(&o, "a b=c backend=hw", "s", NULL,
				       NULL), 2);
	assert_int_equal(o.backend, BACKEND_HW);
}

/* Words of up to 299 characters are parsed; longer ones are reported as
 * too long, not cut, and the next word still counts. */
static void test_long_words(void **state)
{
	static const unsigned lens[] = { 299, 300, 301, 1000 };

	for (unsigned i = 0; i < N(lens); i++) {
		char text[1100];
		struct options o;
		struct errors e;

		options_defaults(&o);
		memcpy(text, "verbose=", 8);
		memset(text + 8, '1', lens[i] - 8);
		strcpy(text + lens[i], " backend=hw");
		assert_int_equal(parse(&o, text, &e), 1);
		assert_int_equal(o.verbose, 0);
		assert_int_equal(o.backend, BACKEND_HW);
		assert_int_equal(strncmp(e.msg[0], SRC ": ",
					 strlen(SRC ": ")), 0);
		if (lens[i] < 300) {
			assert_non_null(strstr(e.msg[0], "verbose="));
		} else {
			char want[64];

			snprintf(want, sizeof(want), "%u characters", lens[i]);
			assert_non_null(strstr(e.msg[0], "too long"));
			assert_non_null(strstr(e.msg[0], want));
		}
	}
}

struct skip_case {
	const char *text;
	unsigned offset;	/* where the options start */
};

static const struct skip_case skips[] = {
	{ "FS0:\\EFI\\BOOT\\BOOTX64.EFI tests=x", 25 },
	{ "tests=x", 0 },
	{ "tests=x backend=hw", 0 },
	{ "  \\pmu-harness.efi backend=hw", 18 },
	{ "\tFS0:\\BOOTX64.EFI\ttests=x", 17 },
	{ "BOOTX64.Efi", 11 },
	{ "x.eFI", 5 },
	{ "", 0 },
	{ "   ", 0 },
	{ "efi tests=x", 0 },
	{ "efi", 0 },
	{ "foo.efix a=b", 0 },
	{ "foo.ef a=b", 0 },
	{ "foo_efi a=b", 0 },
	{ "tests=x a.efi", 0 },
};

/* timeout= and run_timeout=: seconds 1..OPT_TIMEOUT_MAX; anything else is
 * an error that keeps the previous value. */
struct seconds_case {
	const char *text;
	unsigned timeout, run_timeout;
	int errors;
};

static const struct seconds_case seconds[] = {
	{ .text = "", .timeout = OPT_TIMEOUT_DEFAULT,
	  .run_timeout = OPT_RUN_TIMEOUT_DEFAULT },
	{ .text = "timeout=1", .timeout = 1,
	  .run_timeout = OPT_RUN_TIMEOUT_DEFAULT },
	{ .text = "timeout=86400 run_timeout=5", .timeout = 86400,
	  .run_timeout = 5 },
	{ .text = "timeout=0", .timeout = OPT_TIMEOUT_DEFAULT,
	  .run_timeout = OPT_RUN_TIMEOUT_DEFAULT, .errors = 1 },
	{ .text = "timeout=86401", .timeout = OPT_TIMEOUT_DEFAULT,
	  .run_timeout = OPT_RUN_TIMEOUT_DEFAULT, .errors = 1 },
	{ .text = "timeout=99999999999999999999", .timeout = OPT_TIMEOUT_DEFAULT,
	  .run_timeout = OPT_RUN_TIMEOUT_DEFAULT, .errors = 1 },
	{ .text = "timeout=3 timeout=-1 run_timeout=1x", .timeout = 3,
	  .run_timeout = OPT_RUN_TIMEOUT_DEFAULT, .errors = 2 },
	{ .text = "run_timeout= timeout=0x10", .timeout = OPT_TIMEOUT_DEFAULT,
	  .run_timeout = OPT_RUN_TIMEOUT_DEFAULT, .errors = 2 },
};

static void test_seconds(void **state)
{
	for (unsigned i = 0; i < N(seconds); i++) {
		const struct seconds_case *c = &seconds[i];
		struct options o;
		struct errors e;
		int n;

		options_defaults(&o);
		n = parse(&o, c->text, &e);
		if (n != c->errors || o.timeout_s != c->timeout ||
		    o.run_timeout_s != c->run_timeout)
			fail_msg("seconds case %u \"%s\": %d errors, timeout "
				 "%u, run_timeout %u", i, c->text, n,
				 o.timeout_s, o.run_timeout_s);
	}
}

static void test_skip_program(void **state)
{
	for (unsigned i = 0; i < N(skips); i++) {
		const char *got = options_skip_program(skips[i].text);

		if (got != skips[i].text + skips[i].offset)
			fail_msg("options_skip_program(\"%s\") skipped %td, "
				 "want %u", skips[i].text,
				 got - skips[i].text, skips[i].offset);
	}
}

/* What the UEFI entry does with load options: skip, then parse. */
static void test_skip_then_parse(void **state)
{
	struct options o;
	struct errors e;

	options_defaults(&o);
	assert_int_equal(parse(&o, options_skip_program(
		"FS0:\\EFI\\BOOT\\BOOTX64.EFI tests=arch/* exit=shutdown"), &e),
		0);
	assert_string_equal(o.tests, "arch/*");
	assert_int_equal(o.exit, EXIT_SHUTDOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_tests_longest),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_bad_then_good),
		cmocka_unit_test(test_source_name),
		cmocka_unit_test(test_no_callback),
		cmocka_unit_test(test_long_words),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_skip_program),
		cmocka_unit_test(test_skip_then_parse),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
