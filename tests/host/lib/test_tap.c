/* Host tests for lib/tap.c: the exact lines of the TAP 13 writer, captured
 * through its emit callback, and YAML scalar quoting.  tap.c is included,
 * so that the quoting (quote_scalar()) is in reach with any buffer size,
 * without an interface for the tests alone. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/tap.c"

/* host-sources: lib/fmt.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_LINES 32

struct capture {
	struct tap tap;
	unsigned n;
	char lines[MAX_LINES][TAP_LINE_MAX];
};

static void emit(void *ctx, const char *line)
{
	struct capture *c = ctx;

	assert_true(strlen(line) < TAP_LINE_MAX);
	assert_true(c->n < MAX_LINES);
	strcpy(c->lines[c->n++], line);
}

static int setup(void **state)
{
	static struct capture c;

	memset(&c, 0, sizeof(c));
	tap_init(&c.tap, emit, &c);
	*state = &c;
	return 0;
}

/* The captured lines must be exactly want[0..n-1]. */
static void expect(const struct capture *c, const char *const *want,
		   unsigned n)
{
	for (unsigned i = 0; i < n && i < c->n; i++)
		if (strcmp(c->lines[i], want[i]))
			fail_msg("line %u: got \"%s\", want \"%s\"", i + 1,
				 c->lines[i], want[i]);
	assert_int_equal(c->n, n);
}

#define EXPECT(c, ...)                                                       \
	do {                                                                 \
		static const char *const want_[] = { __VA_ARGS__ };          \
		expect((c), want_, N(want_));                                \
	} while (0)

static void test_version_and_comment(void **state)
{
	struct capture *c = *state;

	tap_version(&c->tap);
	tap_comment(&c->tap, "harness: %s %d", "pmu-harness", 3);
	tap_comment(&c->tap, "plain");
	EXPECT(c, "TAP version 13", "# harness: pmu-harness 3", "# plain");
}

static void test_results(void **state)
{
	struct capture *c = *state;

	tap_result(&c->tap, TAP_PASS, "detect/cpuid", NULL);
	tap_result(&c->tap, TAP_FAIL, "arch/tsc-monotonic", NULL);
	tap_result(&c->tap, TAP_SKIP, "arch/pmc", "no PMU on this CPU");
	tap_result(&c->tap, TAP_PASS, "selftest/x", "ignored for a pass");
	EXPECT(c, "ok 1 - detect/cpuid", "not ok 2 - arch/tsc-monotonic",
	       "ok 3 - arch/pmc # SKIP no PMU on this CPU",
	       "ok 4 - selftest/x");
	assert_int_equal(c->tap.n, 4);
	assert_int_equal(c->tap.passed, 2);
	assert_int_equal(c->tap.failed, 1);
	assert_int_equal(c->tap.skipped, 1);
}

static void test_hash_in_name(void **state)
{
	struct capture *c = *state;

	tap_result(&c->tap, TAP_PASS, "a#b", NULL);
	tap_result(&c->tap, TAP_FAIL, "x # SKIP fake", NULL);
	tap_result(&c->tap, TAP_SKIP, "#", "why # not");
	EXPECT(c, "ok 1 - a_b", "not ok 2 - x _ SKIP fake",
	       "ok 3 - _ # SKIP why # not");
}

static void test_skip_without_reason(void **state)
{
	struct capture *c = *state;

	tap_result(&c->tap, TAP_SKIP, "arch/x", NULL);
	assert_int_equal(c->n, 1);
	assert_int_equal(strncmp(c->lines[0], "ok 1 - arch/x # SKIP", 20), 0);
	assert_int_equal(c->tap.skipped, 1);
}

static void test_long_name(void **state)
{
	struct capture *c = *state;
	char name[400];

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	tap_result(&c->tap, TAP_FAIL, name, NULL);
	assert_int_equal(c->n, 1);
	assert_int_equal(strncmp(c->lines[0], "not ok 1 - nnnn", 15), 0);
}

static void test_yaml_block(void **state)
{
	struct capture *c = *state;

	tap_result(&c->tap, TAP_FAIL, "arch/pmc-width", NULL);
	tap_yaml_begin(&c->tap);
	tap_yaml_begin(&c->tap);	/* no second "---" */
	tap_yaml_kv(&c->tap, "width", "%u", 48u);
	tap_yaml_kv(&c->tap, "delta", "%d", -5);
	tap_yaml_kv(&c->tap, "msa", "0x%x", 0xc1u);
	tap_yaml_kv(&c->tap, "message", "%s", "got: 40");
	tap_yaml_kv(&c->tap, "failures", "%s", "");
	tap_yaml_item(&c->tap, "counter %d is %s", 1, "stuck");
	tap_yaml_item(&c->tap, "%s", "# not a comment");
	tap_yaml_end(&c->tap);
	tap_yaml_end(&c->tap);	/* no second "..." */
	EXPECT(c, "not ok 1 - arch/pmc-width", "  ---", "  width: 48",
	       "  delta: -5", "  msa: 0xc1", "  message: \"got: 40\"",
	       "  failures: \"\"", "    - counter 1 is stuck",
	       "    - \"# not a comment\"", "  ...");
}

static void test_yaml_auto_begin_and_end(void **state)
{
	struct capture *c = *state;

	tap_result(&c->tap, TAP_PASS, "a/1", NULL);
	tap_yaml_kv(&c->tap, "k", "v");		/* opens the block */
	tap_result(&c->tap, TAP_PASS, "a/2", NULL);	/* closes it */
	tap_yaml_item(&c->tap, "i");
	tap_bail_out(&c->tap, "trap in trap");	/* closes it */
	tap_yaml_kv(&c->tap, "k", "%d", 1);
	tap_finish(&c->tap);			/* closes it */
	EXPECT(c, "ok 1 - a/1", "  ---", "  k: v", "  ...", "ok 2 - a/2",
	       "  ---", "    - i", "  ...", "Bail out! trap in trap", "  ---",
	       "  k: 1", "  ...", "1..2",
	       "# summary: passed=2 failed=0 skipped=0");
}

static void test_finish(void **state)
{
	struct capture *c = *state;

	tap_version(&c->tap);
	tap_result(&c->tap, TAP_PASS, "a", NULL);
	tap_result(&c->tap, TAP_FAIL, "b", NULL);
	tap_result(&c->tap, TAP_SKIP, "c", "r");
	tap_result(&c->tap, TAP_PASS, "d", NULL);
	tap_finish(&c->tap);
	EXPECT(c, "TAP version 13", "ok 1 - a", "not ok 2 - b",
	       "ok 3 - c # SKIP r", "ok 4 - d", "1..4",
	       "# summary: passed=2 failed=1 skipped=1");
}

static void test_finish_empty(void **state)
{
	struct capture *c = *state;

	tap_finish(&c->tap);
	EXPECT(c, "1..0", "# summary: passed=0 failed=0 skipped=0");
	assert_int_not_equal(tap_verdict(&c->tap), 0);
}

/* An untested run (docs/log-format.md "Verdicts"): nothing failed, so
 * the summary carries verdict=untested and its reason, before any other
 * field, and the verdict is 3, the value isa-debug-exit turns into QEMU's
 * status 7 (qemu-boot.sh: exit 77). */
static void test_finish_untested(void **state)
{
	struct capture *c = *state;

	tap_result(&c->tap, TAP_PASS, "a", NULL);
	tap_result(&c->tap, TAP_SKIP, "p/x", "no backend");
	tap_untested(&c->tap, "all 1 selected PMU tests skipped");
	tap_summary_field(&c->tap, "logfile_error", "e");
	tap_finish(&c->tap);
	EXPECT(c, "ok 1 - a", "ok 2 - p/x # SKIP no backend", "1..2",
	       "# summary: passed=1 failed=0 skipped=1 verdict=untested "
	       "reason=\"all 1 selected PMU tests skipped\" "
	       "logfile_error=\"e\"");
	assert_int_equal(tap_verdict(&c->tap), 3);
}

/* A failure outranks untested: verdict 1 and no verdict= field. */
static void test_untested_with_failure(void **state)
{
	struct capture *c = *state;

	tap_result(&c->tap, TAP_FAIL, "a", NULL);
	tap_untested(&c->tap, "why");
	tap_finish(&c->tap);
	EXPECT(c, "not ok 1 - a", "1..1",
	       "# summary: passed=0 failed=1 skipped=0");
	assert_int_equal(tap_verdict(&c->tap), 1);
}

/* A log file that failed says so in the summary, one quoted field. */
static void test_finish_summary_field(void **state)
{
	struct capture *c = *state;

	tap_result(&c->tap, TAP_PASS, "a", NULL);
	tap_summary_field(&c->tap, "logfile_error", "write failed "
			  "(EFI_VOLUME_FULL), 12 bytes kept in "
			  "\\pmu-harness\\x.log");
	tap_finish(&c->tap);
	EXPECT(c, "ok 1 - a", "1..1",
	       "# summary: passed=1 failed=0 skipped=0 logfile_error=\"write "
	       "failed (EFI_VOLUME_FULL), 12 bytes kept in "
	       "\\pmu-harness\\x.log\"");
}

/* The value cannot end the quoted field early or break the line; a value
 * too long is cut and still closed; a key that no longer fits is left
 * out, never half written. */
static void test_summary_field_hostile_and_long(void **state)
{
	struct capture *c = *state;
	char big[TAP_LINE_MAX];
	const char *s;

	tap_summary_field(&c->tap, "k", "a\"b\nc");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	tap_summary_field(&c->tap, "long", big);
	tap_summary_field(&c->tap, "dropped", "v");
	tap_finish(&c->tap);
	s = c->lines[1];
	assert_non_null(strstr(s, " k=\"a'b?c\" long=\"xxx"));
	assert_null(strstr(s, "dropped"));
	assert_int_equal(s[strlen(s) - 1], '"');
	assert_true(strlen(s) < TAP_LINE_MAX);
	assert_null(strchr(s, '\n'));
}

static void test_bail_out(void **state)
{
	struct capture *c = *state;

	tap_version(&c->tap);
	tap_bail_out(&c->tap, "no usable console");
	EXPECT(c, "TAP version 13", "Bail out! no usable console");
}

static void ignore(void *ctx, const char *line)
{
}

static int verdict_of(unsigned pass, unsigned fail, unsigned skip)
{
	struct tap t;

	tap_init(&t, ignore, NULL);
	while (pass--)
		tap_result(&t, TAP_PASS, "p", NULL);
	while (fail--)
		tap_result(&t, TAP_FAIL, "f", NULL);
	while (skip--)
		tap_result(&t, TAP_SKIP, "s", "r");
	return tap_verdict(&t);
}

struct verdict_case {
	unsigned pass, fail, skip;
	int zero;	/* verdict 0 expected */
};

static void test_verdict(void **state)
{
	static const struct verdict_case cases[] = {
		{ 0, 0, 0, 0 }, { 1, 0, 0, 1 }, { 5, 0, 2, 1 }, { 0, 0, 1, 1 },
		{ 0, 1, 0, 0 }, { 9, 1, 0, 0 }, { 3, 2, 4, 0 }, { 0, 3, 0, 0 },
	};

	for (unsigned i = 0; i < N(cases); i++) {
		const struct verdict_case *v = &cases[i];
		int got = verdict_of(v->pass, v->fail, v->skip);

		if ((got == 0) != v->zero)
			fail_msg("pass=%u fail=%u skip=%u: verdict %d",
				 v->pass, v->fail, v->skip, got);
	}
}

struct scalar_case {
	const char *in, *out;
};

static const struct scalar_case scalars[] = {
	/* plain */
	{ "42", "42" }, { "-5", "-5" }, { "-1.5", "-1.5" }, { "0", "0" },
	{ "0x3f8", "0x3f8" }, { "hello world", "hello world" },
	{ "key:value", "key:value" }, { "a-b", "a-b" },
	{ "arch/pmc-width", "arch/pmc-width" }, { "a, b", "a, b" },
	{ "it's", "it's" }, { "50%", "50%" }, { "a?b", "a?b" },
	/* ": " or a final ':' */
	{ "a: b", "\"a: b\"" }, { "trailing:", "\"trailing:\"" },
	{ ":", "\":\"" },
	/* '#' anywhere */
	{ "a # b", "\"a # b\"" }, { "a#b", "\"a#b\"" }, { "#", "\"#\"" },
	/* quotes and backslash */
	{ "say \"hi\"", "\"say \\\"hi\\\"\"" },
	{ "back\\slash", "\"back\\\\slash\"" }, { "\"", "\"\\\"\"" },
	/* control and non-ASCII bytes */
	{ "tab\there", "\"tab\\x09here\"" }, { "a\nb", "\"a\\x0ab\"" },
	{ "\r", "\"\\x0d\"" }, { "\x1f", "\"\\x1f\"" }, { "\x7f", "\"\\x7f\"" },
	{ "\xc3\xa9", "\"\\xc3\\xa9\"" },
	/* leading or trailing space, empty */
	{ " lead", "\" lead\"" }, { "trail ", "\"trail \"" }, { " ", "\" \"" },
	{ "", "\"\"" },
	/* leading indicators */
	{ "-", "\"-\"" }, { "- x", "\"- x\"" }, { "-x", "\"-x\"" },
	{ "--5", "\"--5\"" }, { "?x", "\"?x\"" }, { ":x", "\":x\"" },
	{ ",x", "\",x\"" }, { "[x]", "\"[x]\"" }, { "]x", "\"]x\"" },
	{ "{x}", "\"{x}\"" }, { "}x", "\"}x\"" }, { "&x", "\"&x\"" },
	{ "*x", "\"*x\"" }, { "!x", "\"!x\"" }, { "|x", "\"|x\"" },
	{ ">x", "\">x\"" }, { "'x'", "\"'x'\"" }, { "%x", "\"%x\"" },
	{ "@x", "\"@x\"" }, { "`x`", "\"`x`\"" },
};

static void test_yaml_scalar(void **state)
{
	for (unsigned i = 0; i < N(scalars); i++) {
		char buf[64];

		memset(buf, 'Z', sizeof(buf));
		quote_scalar(buf, sizeof(buf), scalars[i].in, 0);
		if (strcmp(buf, scalars[i].out))
			fail_msg("scalar %u: got [%s], want [%s]", i, buf,
				 scalars[i].out);
	}
}

/* List items: a ':' ending the first word is \x3a (for Perl's YAMLish
 * reader, which takes "- word: rest" for a mapping); later ones stay. */
static const struct scalar_case items[] = {
	{ "remove: WRMSR 0x600", "\"remove\\x3a WRMSR 0x600\"" },
	{ "a : b", "\"a \\x3a b\"" }, { "a:b: c", "\"a:b\\x3a c\"" },
	{ "by design: x", "\"by design: x\"" }, { "trailing:", "\"trailing:\"" },
	{ "x: y: z", "\"x\\x3a y: z\"" }, { "plain", "plain" },
};

static void test_yaml_item_scalar(void **state)
{
	for (unsigned i = 0; i < N(items); i++) {
		char buf[64];

		quote_scalar(buf, sizeof(buf), items[i].in, 1);
		if (strcmp(buf, items[i].out))
			fail_msg("item %u: got [%s], want [%s]", i, buf,
				 items[i].out);
	}
}

static void test_yaml_scalar_small_buffer(void **state)
{
	char buf[8];

	memset(buf, 'Z', sizeof(buf));
	quote_scalar(buf, 0, "x", 0);
	assert_int_equal(buf[0], 'Z');
	quote_scalar(buf, 4, "plain text", 0);
	assert_string_equal(buf, "pla");
	assert_int_equal(buf[4], 'Z');
	quote_scalar(buf, 1, "a: b", 0);
	assert_string_equal(buf, "");
}

/* A scalar as written: a plain one, or one complete double-quoted string
 * (closing quote present, no escape cut short). */
static int well_formed(const char *s)
{
	size_t n = strlen(s);

	if (s[0] != '"')
		return 1;
	for (size_t i = 1; i < n; i++) {
		if (s[i] == '\\') {
			if (i + 1 >= n)
				return 0;
			i += s[i + 1] == 'x' ? 3 : 1;
			if (i >= n)
				return 0;
		} else if (s[i] == '"') {
			return i == n - 1;
		}
	}
	return 0;
}

static void test_yaml_scalar_truncated_well_formed(void **state)
{
	/* Regression (found by this test, fixed): lib/tap.c quote_scalar()
	 * cuts a quoted scalar at the buffer's end and drops the closing
	 * quote, or leaves half an escape: size 8 and "a: bcdefgh" give
	 * ["a: bcd] (unterminated), size 4 and "a\\b" give ["a\] (a
	 * dangling backslash), size 5 and "\x01" give ["\x0].  A YAML
	 * reader then rejects the whole block.
	 * From size 3 on there is room for a complete quoted string. */
	static const char *const vals[] = {
		"a: bcdefgh", "\x01\x02\x03\x04", "a\\b\\c\\d", "\"\"\"\"\"",
	};

	for (unsigned i = 0; i < N(vals); i++)
		for (unsigned size = 3; size < 12; size++) {
			char buf[16];

			quote_scalar(buf, size, vals[i], 0);
			assert_true(strlen(buf) < size);
			if (!well_formed(buf))
				fail_msg("quote_scalar(size %u) of value %u:"
					 " [%s] is cut short", size, i, buf);
		}
}

static void test_yaml_kv_long_value_well_formed(void **state)
{
	/* Regression (found by this test, fixed): the same through tap_yaml_kv(): a 509-character value with
	 * ": " in it needs 511 characters quoted, so "  msg: " + value is cut
	 * at TAP_LINE_MAX and the line lacks its closing quote. */
	struct capture *c = *state;
	char val[510];
	const char *q;

	memset(val, 'v', sizeof(val) - 1);
	val[sizeof(val) - 1] = 0;
	val[1] = ':';
	val[2] = ' ';
	tap_yaml_kv(&c->tap, "msg", "%s", val);
	assert_int_equal(c->n, 2);
	q = strchr(c->lines[1], '"');
	assert_non_null(q);
	if (!well_formed(q))
		fail_msg("YAML line cut short: ...%s", c->lines[1] +
			 strlen(c->lines[1]) - 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_version_and_comment, setup),
		cmocka_unit_test_setup(test_results, setup),
		cmocka_unit_test_setup(test_hash_in_name, setup),
		cmocka_unit_test_setup(test_skip_without_reason, setup),
		cmocka_unit_test_setup(test_long_name, setup),
		cmocka_unit_test_setup(test_yaml_block, setup),
		cmocka_unit_test_setup(test_yaml_auto_begin_and_end, setup),
		cmocka_unit_test_setup(test_finish, setup),
		cmocka_unit_test_setup(test_finish_empty, setup),
		cmocka_unit_test_setup(test_finish_summary_field, setup),
		cmocka_unit_test_setup(test_finish_untested, setup),
		cmocka_unit_test_setup(test_untested_with_failure, setup),
		cmocka_unit_test_setup(test_summary_field_hostile_and_long,
					setup),
		cmocka_unit_test_setup(test_bail_out, setup),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_yaml_scalar),
		cmocka_unit_test(test_yaml_item_scalar),
		cmocka_unit_test(test_yaml_scalar_small_buffer),
		cmocka_unit_test(test_yaml_scalar_truncated_well_formed),
		cmocka_unit_test_setup(test_yaml_kv_long_value_well_formed,
				       setup),
	};

	return cmocka_run_group_tests_name("tap", tests, NULL, NULL);
}
