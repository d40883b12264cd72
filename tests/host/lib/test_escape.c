/* Host tests for lib/escape.c: which bytes are escaped and how, escapes
 * never cut in two, the return value when the buffer is short, and the
 * note a cut line ends with. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "lib/escape.h"

/* host-sources: lib/escape.c lib/fmt.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct esc_case {
	const char *in;
	size_t n;		/* bytes of in (it may hold NULs) */
	const char *out;
};

#define CASE(i, o) { .in = (i), .n = sizeof(i) - 1, .out = (o) }

static const struct esc_case esc_cases[] = {
	CASE("", ""),
	CASE("tests=detect/*", "tests=detect/*"),
	CASE(" ~!#$%&'()*+,-./:;<=>?@[]^_`{|}",
	     " ~!#$%&'()*+,-./:;<=>?@[]^_`{|}"),
	CASE("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"),
	CASE("a\0b", "a\\x00b"),
	CASE("\t\r\n", "\\x09\\x0d\\x0a"),
	CASE("\x01\x1f\x7f", "\\x01\\x1f\\x7f"),
	CASE("\x80\xff\xc3\xa9", "\\x80\\xff\\xc3\\xa9"),
	CASE("\\x41", "\\x5cx41"),
	CASE("say \"hi\"", "say \\x22hi\\x22"),
	CASE("\xef\xbb\xbftests", "\\xef\\xbb\\xbftests"),
};

static void test_escapes(void **state)
{
	for (unsigned i = 0; i < N(esc_cases); i++) {
		const struct esc_case *c = &esc_cases[i];
		char buf[128];
		size_t len;

		memset(buf, 'Z', sizeof(buf));
		len = esc_bytes(buf, sizeof(buf), c->in, c->n);
		if (strcmp(buf, c->out) || len != strlen(c->out))
			fail_msg("case %u: got \"%s\" (%zu), want \"%s\"", i,
				 buf, len, c->out);
	}
}

/* Every byte value: as is exactly when printable and not \ or ". */
static void test_every_byte(void **state)
{
	for (unsigned b = 0; b < 256; b++) {
		char in = (char)b, buf[8], want[8];
		int plain = b >= 0x20 && b <= 0x7e && b != '\\' && b != '"';

		if (plain)
			snprintf(want, sizeof(want), "%c", b);
		else
			snprintf(want, sizeof(want), "\\x%02x", b);
		esc_bytes(buf, sizeof(buf), &in, 1);
		if (strcmp(buf, want))
			fail_msg("byte 0x%02x: \"%s\", want \"%s\"", b, buf,
				 want);
	}
}

static void test_str(void **state)
{
	char buf[64];

	assert_int_equal(esc_str(buf, sizeof(buf), "a\x1b" "b"), 6);
	assert_string_equal(buf, "a\\x1bb");
}

/* A short buffer: the prefix holds only whole escapes, and the return
 * value is the whole length. */
struct short_case {
	size_t size;
	const char *out;
};

static const struct short_case shorts[] = {
	{ .size = 1, .out = "" },
	{ .size = 2, .out = "a" },
	{ .size = 3, .out = "a" },
	{ .size = 5, .out = "a" },
	{ .size = 6, .out = "a\\x1b" },
	{ .size = 7, .out = "a\\x1bb" },
	{ .size = 8, .out = "a\\x1bb" },
	{ .size = 11, .out = "a\\x1bb\\x00" },
	{ .size = 12, .out = "a\\x1bb\\x00c" },
};

static void test_short_buffer(void **state)
{
	static const char in[] = "a\x1b" "b\0c";

	for (unsigned i = 0; i < N(shorts); i++) {
		char buf[32];
		size_t len;

		memset(buf, 'Z', sizeof(buf));
		len = esc_bytes(buf, shorts[i].size, in, sizeof(in) - 1);
		if (len != 11 || strcmp(buf, shorts[i].out) ||
		    buf[shorts[i].size] != 'Z')
			fail_msg("size %zu: \"%s\" (%zu), want \"%s\" (11)",
				 shorts[i].size, buf, len, shorts[i].out);
	}
	/* size 0 writes nothing at all */
	{
		char z = 'Z';

		assert_int_equal(esc_bytes(&z, 0, in, 1), 1);
		assert_int_equal(z, 'Z');
	}
}

struct printable_case {
	const char *s;
	int printable;
};

static const struct printable_case printables[] = {
	{ .s = "", .printable = 1 },
	{ .s = "tests=a/* x", .printable = 1 },
	{ .s = "~", .printable = 1 },
	{ .s = "a\tb", .printable = 0 },
	{ .s = "\x1b", .printable = 0 },
	{ .s = "\x7f", .printable = 0 },
	{ .s = "caf\xc3\xa9", .printable = 0 },
};

static void test_printable(void **state)
{
	for (unsigned i = 0; i < N(printables); i++)
		if (esc_is_printable(printables[i].s) !=
		    printables[i].printable)
			fail_msg("case %u: want %d", i,
				 printables[i].printable);
}

/* esc_note_cut() on snprintf-cut text: what is kept, and that the note's
 * count plus what was kept is the whole length. */
static void check_cut(const char *text, size_t size)
{
	char buf[512];
	size_t full = strlen(text), kept, cut;
	const char *note;

	assert_true(size <= sizeof(buf));
	snprintf(buf, size, "%s", text);
	if (full < size) {
		assert_int_equal(esc_note_cut(buf, size, full), 0);
		assert_string_equal(buf, text);
		return;
	}
	assert_int_equal(esc_note_cut(buf, size, full), 1);
	assert_true(strlen(buf) < size);
	note = strstr(buf, " [");
	assert_non_null(note);
	kept = (size_t)(note - buf);
	assert_int_equal(strncmp(buf, text, kept), 0);
	assert_int_equal(sscanf(note, " [%zu more characters cut]", &cut), 1);
	if (kept + cut != full)
		fail_msg("size %zu: kept %zu + cut %zu != %zu: \"%s\"", size,
			 kept, cut, full, buf);
	/* The note is the last thing on the line. */
	assert_string_equal(strchr(note, ']'), "]");
	/* No escape cut in two: a backslash is followed by x and 2 digits. */
	for (const char *b = strchr(buf, '\\'); b && b < note;
	     b = strchr(b + 1, '\\'))
		if (note - b < 4 || b[1] != 'x')
			fail_msg("size %zu: escape cut: \"%s\"", size, buf);
}

static void test_note_cut(void **state)
{
	char text[400], esc[400];

	memset(text, 'a', 300);
	text[300] = 0;
	for (size_t size = ESC_CUT_MIN; size <= 310; size++)
		check_cut(text, size);
	/* Escapes at every alignment against the cut point. */
	memset(text, '\x1b', 90);
	esc_bytes(esc, sizeof(esc), text, 90);
	for (size_t size = ESC_CUT_MIN; size <= 370; size++)
		check_cut(esc, size);
	esc_bytes(esc, sizeof(esc), "x\x01yz\x02", 5);
	for (size_t size = ESC_CUT_MIN; size <= 60; size++)
		check_cut(esc, size);
}

/* The note of a long line cut at 200: its exact text. */
static void test_note_text(void **state)
{
	char buf[200];
	char text[1000];

	memset(text, 'b', 999);
	text[999] = 0;
	memcpy(buf, text, sizeof(buf) - 1);	/* as snprintf leaves it */
	buf[sizeof(buf) - 1] = 0;
	assert_int_equal(esc_note_cut(buf, sizeof(buf), 999), 1);
	assert_int_equal(strlen(buf), 199);
	assert_string_equal(buf + 173, " [826 more characters cut]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_str),
		cmocka_unit_test(test_short_buffer),
		cmocka_unit_test(test_printable),
		cmocka_unit_test(test_note_cut),
		cmocka_unit_test(test_note_text),
	};

	return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}
