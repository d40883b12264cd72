/* Host tests for boot/options.c: defaults, every key with good and bad
 * values, errors through the callback, comments, long words, serial= bases
 * refused by the PC port map, control and non-ASCII bytes escaped in
 * messages, messages cut with a note, and options_skip_program(). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "boot/options.h"

/* host-sources: boot/options.c arch/x86/pc_ports.c lib/escape.c lib/fmt.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SRC "\\pmu-harness.cfg"
#define MAX_ERRORS 8

struct errors {
	unsigned n;
	char msg[MAX_ERRORS][600];
};

/* Every message: shorter than OPT_ERROR_MAX, printable ASCII only. */
static void collect(void *ctx, const char *msg)
{
	struct errors *e = ctx;

	assert_true(e->n < MAX_ERRORS);
	if (strlen(msg) >= OPT_ERROR_MAX)
		fail_msg("message of %zu characters: %s", strlen(msg), msg);
	for (const char *c = msg; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
			fail_msg("byte 0x%02x in message: %s",
				 (unsigned char)*c, msg);
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

/* emulated_noise= (README "Options", pmu/noise.h): 0 (the default) or
 * 1; anything else is one error naming the value, and the option keeps
 * what it had. */
static void test_emulated_noise(void **state)
{
	struct options o;
	struct errors e;

	options_defaults(&o);
	assert_int_equal(o.emulated_noise, 0);
	assert_int_equal(parse(&o, "emulated_noise=1", &e), 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(o.emulated_noise, 1);
	assert_int_equal(parse(&o, "emulated_noise=1 emulated_noise=0", &e),
			 0);
	assert_int_equal(o.emulated_noise, 0);
	options_defaults(&o);
	assert_int_equal(parse(&o, "emulated_noise=1", &e), 0);
	assert_int_not_equal(parse(&o, "emulated_noise=yes", &e), 0);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.msg[0], SRC ": emulated_noise=\"yes\": "
			    "expected 0 or 1");
	assert_int_equal(o.emulated_noise, 1);
	assert_int_not_equal(parse(&o, "emulated_noise=", &e), 0);
	assert_int_equal(e.n, 1);
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
	/* the model counting as silicon would (docs/emulators.md) */
	{ "backend=emulated", DEF_TESTS, BACKEND_EMULATED, 0x3f8, 1, EXIT_AUTO,
	  0 },
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
	{ "serial=0x100", DEF_TESTS, BACKEND_AUTO, 0x100, 0, EXIT_AUTO, 0 },
	{ "serial=0xcf0", DEF_TESTS, BACKEND_AUTO, 0xcf0, 0, EXIT_AUTO, 0 },
	{ "serial=0xd00", DEF_TESTS, BACKEND_AUTO, 0xd00, 0, EXIT_AUTO, 0 },
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

/* tests= and inject= hold up to 4096 characters (issue 31: a lab's list
 * of test names; INJECT_MAX = 16 items of the longest form
 * "msr:0xXXXXXXXX:stuck", pmu/inject.h); one more is an error that names
 * the key, and a rejected tests= selects nothing, never the whole suite. */
#define VALUE_LIMIT 4096

static char long_text[2 * VALUE_LIMIT + 64];

static const char *long_word(const char *key, char fill, unsigned n)
{
	size_t k = strlen(key);

	memcpy(long_text, key, k);
	memset(long_text + k, fill, n);
	long_text[k + n] = 0;
	return long_text;
}

static void test_tests_longest(void **state)
{
	struct options o;
	struct errors e;

	options_defaults(&o);
	assert_int_equal(parse(&o, long_word("tests=", 'a', VALUE_LIMIT),
			       &e), 0);
	assert_int_equal(strlen(o.tests), VALUE_LIMIT);
	/* One more character does not fit: reported, and no test runs. */
	assert_int_equal(parse(&o, long_word("tests=", 'b', VALUE_LIMIT + 1),
			       &e), 1);
	assert_string_equal(o.tests, "");
	assert_non_null(strstr(e.msg[0], "tests="));
	assert_non_null(strstr(e.msg[0], "no test runs"));
}

static void test_inject_longest(void **state)
{
	struct options o;
	struct errors e;
	char items[400] = "";

	/* 16 items of 20 characters and 15 commas: 335 characters */
	for (unsigned i = 0; i < 16; i++)
		snprintf(items + strlen(items), sizeof(items) - strlen(items),
			 "%smsr:0x%08x:stuck", i ? "," : "", 0xc0000100u + i);
	assert_int_equal(strlen(items), 335);
	options_defaults(&o);
	memcpy(long_text, "inject=", 7);
	strcpy(long_text + 7, items);
	assert_int_equal(parse(&o, long_text, &e), 0);
	assert_string_equal(o.inject, items);
	assert_int_equal(parse(&o, long_word("inject=", 'x', VALUE_LIMIT),
			       &e), 0);
	assert_int_equal(strlen(o.inject), VALUE_LIMIT);
	assert_int_equal(parse(&o, long_word("inject=", 'y',
					     VALUE_LIMIT + 1), &e), 1);
	assert_non_null(strstr(e.msg[0], "inject="));
	assert_non_null(strstr(e.msg[0], "4097 characters is too long"));
	assert_int_equal(o.inject[0], 'x');
}

/* A word far longer than any option names its key; tests= then selects
 * nothing, even after a good tests= and with the default "*". */
static void test_too_long_names_key(void **state)
{
	struct options o;
	struct errors e;

	options_defaults(&o);
	assert_int_equal(parse(&o, long_word("tests=", 'c',
					     2 * VALUE_LIMIT - 7), &e), 1);
	assert_string_equal(o.tests, "");
	assert_non_null(strstr(e.msg[0], "tests=: value of 8185 characters "
				       "is too long"));
	assert_non_null(strstr(e.msg[0], "no test runs"));
	assert_int_equal(parse(&o, "tests=detect/*", &e), 0);
	assert_int_equal(parse(&o, long_word("inject=", 'c',
					     2 * VALUE_LIMIT - 8), &e), 1);
	assert_non_null(strstr(e.msg[0], "inject=: value of 8184 characters "
				       "is too long"));
	assert_string_equal(o.tests, "detect/*");
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
	{ "backend=emulate", 1, "backend=\"emulate\"" },
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
	{ "serial=0x80", 1, "serial=\"0x80\": ports 0x80-0x87 are the POST "
	  "code port" },
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
		/* a rejected tests= selects no test, all else stays */
		if (!strncmp(b->text, "tests=", 6))
			want.tests[0] = 0;
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

/* serial= bases that well-known PC devices decode are refused before any
 * port is touched: the message names the device, and the previous serial
 * setting stays. */
struct port_case {
	const char *text;
	const char *mention;
};

static const struct port_case refused_ports[] = {
	{ .text = "serial=0x80",
	  .mention = "0x80-0x87 are the POST code port" },
	{ .text = "serial=0xf0", .mention = "isa-debug-exit" },
	{ .text = "serial=0xf8", .mention = "0xf8-0xff are the coprocessor" },
	{ .text = "serial=0xcf8", .mention = "PCI configuration space" },
	{ .text = "serial=0x20", .mention = "master interrupt controller" },
	{ .text = "serial=0xa0", .mention = "slave interrupt controller" },
	{ .text = "serial=0xb0", .mention = "APM/SMI" },
	{ .text = "serial=0x40", .mention = "interval timer" },
	{ .text = "serial=0x60", .mention = "keyboard controller" },
	{ .text = "serial=0x70", .mention = "RTC/CMOS" },
	{ .text = "serial=0x90", .mention = "port A (0x92" },
	{ .text = "serial=0x8", .mention = "DMA controller" },
	{ .text = "serial=0xc0", .mention = "DMA controller" },
	{ .text = "serial=0x1f0", .mention = "primary IDE" },
	{ .text = "serial=0x170", .mention = "secondary IDE" },
	{ .text = "serial=0x370", .mention = "secondary IDE control" },
	{ .text = "serial=0x3f0", .mention = "floppy" },
	{ .text = "serial=0x378", .mention = "LPT1" },
	{ .text = "serial=0x278", .mention = "LPT2" },
	{ .text = "serial=0x3b8", .mention = "VGA" },
	{ .text = "serial=0x3d8", .mention = "VGA" },
	{ .text = "serial=0x4d0", .mention = "ELCR" },
	{ .text = "serial=0x510", .mention = "fw_cfg" },
	{ .text = "serial=0x518", .mention = "fw_cfg" },
	{ .text = "serial=0xCF8", .mention = "reset control 0xcf9" },
};

static void test_refused_ports(void **state)
{
	static const char *const before[] = { "serial=com1", "serial=com2",
					      "serial=none", "serial=0xe000" };
	static const char *const stays[] = { "serial stays com1",
					     "serial stays com2",
					     "serial stays none",
					     "serial stays 0xe000" };

	for (unsigned i = 0; i < N(refused_ports); i++) {
		for (unsigned k = 0; k < N(before); k++) {
			struct options o, want;
			struct errors e;
			char why[600];

			options_defaults(&o);
			assert_int_equal(parse(&o, before[k], &e), 0);
			want = o;
			if (parse(&o, refused_ports[i].text, &e) != 1)
				fail_msg("\"%s\" not refused",
					 refused_ports[i].text);
			if (!strstr(e.msg[0], refused_ports[i].mention) ||
			    !strstr(e.msg[0], "not a UART") ||
			    !strstr(e.msg[0], stays[k]))
				fail_msg("\"%s\" after %s: \"%s\"",
					 refused_ports[i].text, before[k],
					 e.msg[0]);
			if (differ(&o, &want, why, sizeof(why)))
				fail_msg("\"%s\" changed the options: %s",
					 refused_ports[i].text, why);
		}
	}
}

/* The whole messages of the refused bases the boot table once booted one
 * by one (serial-0x80, -0xf0, -0xcf8; issue 24 made them host tests): the
 * same option text, the message as their logs said it after "# error:
 * option ", serial still COM1. */
struct whole_message_case {
	const char *text;
	const char *message;
};

static const struct whole_message_case refused_whole[] = {
	{ .text = "serial=0x80 tests=detect/*",
	  .message = "\\pmu-harness.cfg: serial=\"0x80\": ports 0x80-0x87 "
		     "are the POST code port (0x80) and the DMA page "
		     "registers, not a UART; serial stays com1" },
	{ .text = "serial=0xf0 tests=detect/*",
	  .message = "\\pmu-harness.cfg: serial=\"0xf0\": ports 0xf0-0xf7 "
		     "are the coprocessor ports (QEMU's isa-debug-exit is at "
		     "0xf4), not a UART; serial stays com1" },
	{ .text = "serial=0xcf8 tests=detect/*",
	  .message = "\\pmu-harness.cfg: serial=\"0xcf8\": ports "
		     "0xcf8-0xcff are PCI configuration space" },
};

static void test_refused_whole_messages(void **state)
{
	for (unsigned i = 0; i < N(refused_whole); i++) {
		const struct whole_message_case *c = &refused_whole[i];
		struct options o;
		struct errors e;

		options_defaults(&o);
		if (parse(&o, c->text, &e) != 1)
			fail_msg("\"%s\": %u errors, want 1", c->text, e.n);
		if (strncmp(e.msg[0], c->message, strlen(c->message)))
			fail_msg("\"%s\": \"%s\", want \"%s\"", c->text,
				 e.msg[0], c->message);
		if (o.serial_port != 0x3f8 || strcmp(o.tests, "detect/*"))
			fail_msg("\"%s\": serial 0x%x tests=%s", c->text,
				 o.serial_port, o.tests);
	}
}

/* The whole system-board range below 0x100 is refused, every base. */
static void test_system_board_refused(void **state)
{
	for (unsigned port = 8; port < 0x100; port += 8) {
		struct options o;
		struct errors e;
		char text[32];

		options_defaults(&o);
		snprintf(text, sizeof(text), "serial=0x%x", port);
		if (parse(&o, text, &e) != 1 || o.serial_port != 0x3f8)
			fail_msg("%s: accepted", text);
	}
}

/* Bytes outside printable ASCII: the word is reported with them escaped
 * (collect() fails on any raw one), and nothing of it applies. */
struct escape_case {
	const char *text;
	const char *mention;
};

static const struct escape_case escaped[] = {
	{ .text = "\x1b[2J", .mention = "\"\\x1b[2J\": holds a control or "
	  "non-ASCII byte; not applied" },
	{ .text = "tests=detect/*\x1b[31m",
	  .mention = "\"tests=detect/*\\x1b[31m\": holds a control" },
	{ .text = "\x1b[31mred=1\x1b[0m",
	  .mention = "\"\\x1b[31mred=1\\x1b[0m\"" },
	{ .text = "backend=\x07model", .mention = "\"backend=\\x07model\"" },
	{ .text = "inject=msr:0x12:gp\x1b",
	  .mention = "inject=msr:0x12:gp\\x1b" },
	{ .text = "verbose=1\x7f", .mention = "verbose=1\\x7f" },
	{ .text = "caf\xc3\xa9=1", .mention = "\"caf\\xc3\\xa9=1\"" },
	{ .text = "tests=d\xe9tect/*", .mention = "tests=d\\xe9tect/*" },
	{ .text = "\x01\x02\x03", .mention = "\"\\x01\\x02\\x03\"" },
	{ .text = "\x0b\x0c", .mention = "\"\\x0b\\x0c\"" },
	/* printable, but \ and " are escaped too: quotes stay unambiguous */
	{ .text = "backend=\"hw\"", .mention = "backend=\"\\x22hw\\x22\"" },
	{ .text = "tests=a\\b", .mention = "tests=\"a\\x5cb\"" },
	{ .text = "x\"y", .mention = "\"x\\x22y\": expected key=value" },
	{ .text = "\\e[1m=1", .mention = "unknown option \"\\x5ce[1m\"" },
	{ .text = "serial=\"com2\"", .mention = "serial=\"\\x22com2\\x22\"" },
};

static void test_escaped_in_messages(void **state)
{
	for (unsigned i = 0; i < N(escaped); i++) {
		struct options o, want;
		struct errors e;
		char why[600];

		keep_state(&o);
		keep_state(&want);
		/* a rejected tests= selects no test, all else stays */
		if (!strncmp(escaped[i].text, "tests=", 6))
			want.tests[0] = 0;
		if (parse(&o, escaped[i].text, &e) != 1)
			fail_msg("case %u: %u errors", i, e.n);
		if (!strstr(e.msg[0], escaped[i].mention))
			fail_msg("case %u: \"%s\" lacks '%s'", i, e.msg[0],
				 escaped[i].mention);
		if (differ(&o, &want, why, sizeof(why)) || o.inject[0])
			fail_msg("case %u changed the options: %s", i, why);
	}
}

/* Messages longer than OPT_ERROR_MAX are cut and say how much: the count
 * plus what was kept is the whole message. */
static void check_cut_message(const char *text, const char *full_msg)
{
	struct options o;
	struct errors e;
	const char *note;
	size_t kept, cut;

	options_defaults(&o);
	assert_int_equal(parse(&o, text, &e), 1);
	note = strstr(e.msg[0], " [");
	if (!note)
		fail_msg("no note: %s", e.msg[0]);
	assert_int_equal(sscanf(note, " [%zu more characters cut]", &cut), 1);
	kept = (size_t)(note - e.msg[0]);
	assert_int_equal(strncmp(e.msg[0], full_msg, kept), 0);
	if (kept + cut != strlen(full_msg))
		fail_msg("kept %zu + cut %zu != %zu: %s", kept, cut,
			 strlen(full_msg), e.msg[0]);
	assert_true(strlen(e.msg[0]) > OPT_ERROR_MAX - 30);
}

static void test_cut_messages(void **state)
{
	char text[400], want[2000];

	/* a long plain value */
	memset(text, 0, sizeof(text));
	memcpy(text, "tests=", 6);
	memset(text + 6, 'a', 250);
	text[256] = ';';
	snprintf(want, sizeof(want), SRC ": tests=\"%s\": expected "
		 "GLOB[,GLOB] of letters, digits and / - _ . * ?; no test runs",
		 text + 6);
	check_cut_message(text, want);
	/* values of escapes, four characters each, shifted against the cut
	 * point: none is cut in two (check_cut_message compares the kept
	 * part with the whole message) */
	for (unsigned lead = 0; lead < 4; lead++) {
		char key[8];
		size_t at;

		snprintf(key, sizeof(key), "k%.*s=", (int)lead, "zzz");
		memset(text, 0, sizeof(text));
		snprintf(text, sizeof(text), "%s", key);
		memset(text + strlen(key), '\x1b', 290);
		at = (size_t)snprintf(want, sizeof(want), SRC ": \"%s", key);
		for (unsigned i = 0; i < 290; i++, at += 4)
			memcpy(want + at, "\\x1b", 5);
		snprintf(want + at, sizeof(want) - at, "\": holds a control or "
			 "non-ASCII byte; not applied");
		check_cut_message(text, want);
	}
	/* a short message is whole, with no note */
	{
		struct options o;
		struct errors e;

		options_defaults(&o);
		assert_int_equal(parse(&o, "backend=x", &e), 1);
		assert_null(strstr(e.msg[0], "cut]"));
	}
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

/* Words of 300 and 1000 characters are parsed (and verbose= refuses
 * their value); one longer than any option is reported as too long with
 * its key, not cut, and the next word still counts. */
static void test_long_words(void **state)
{
	static const unsigned lens[] = { 300, 1000, 2 * VALUE_LIMIT - 1 };

	for (unsigned i = 0; i < N(lens); i++) {
		struct options o;
		struct errors e;

		options_defaults(&o);
		long_word("verbose=", '1', lens[i] - 8);
		strcat(long_text, " backend=hw");
		assert_int_equal(parse(&o, long_text, &e), 1);
		assert_int_equal(o.verbose, 0);
		assert_int_equal(o.backend, BACKEND_HW);
		assert_int_equal(strncmp(e.msg[0], SRC ": ",
					 strlen(SRC ": ")), 0);
		if (lens[i] < VALUE_LIMIT) {
			assert_non_null(strstr(e.msg[0], "verbose=\"111"));
		} else {
			char want[64];

			snprintf(want, sizeof(want), "verbose=: value of %u "
				 "characters is too long", lens[i] - 8);
			assert_non_null(strstr(e.msg[0], want));
		}
	}
}

/* A long word without '=' has no key to name: its length is told. */
static void test_long_word_without_key(void **state)
{
	struct options o;
	struct errors e;

	options_defaults(&o);
	assert_int_equal(parse(&o, long_word("", 'w', 2 * VALUE_LIMIT - 1),
			       &e), 1);
	assert_non_null(strstr(e.msg[0], "word of 8191 characters (no key=) "
				       "is too long"));
	assert_string_equal(o.tests, "*");
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
		cmocka_unit_test(test_emulated_noise),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_tests_longest),
		cmocka_unit_test(test_inject_longest),
		cmocka_unit_test(test_too_long_names_key),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_bad_then_good),
		cmocka_unit_test(test_refused_ports),
		cmocka_unit_test(test_refused_whole_messages),
		cmocka_unit_test(test_system_board_refused),
		cmocka_unit_test(test_escaped_in_messages),
		cmocka_unit_test(test_cut_messages),
		cmocka_unit_test(test_source_name),
		cmocka_unit_test(test_no_callback),
		cmocka_unit_test(test_long_words),
		cmocka_unit_test(test_long_word_without_key),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_skip_program),
		cmocka_unit_test(test_skip_then_parse),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
