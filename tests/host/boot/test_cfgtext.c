/* Host tests for boot/cfgtext.c: the bytes of \pmu-harness.cfg to option
 * text.  The size limit (nothing applied past it), the UTF-8 byte-order
 * mark, UTF-16 with and without a byte-order mark (surrogates, odd
 * lengths), NUL and control bytes named by offset, the output buffer's
 * bound, and the whole path through options_parse(). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/cfgtext.h"

/* host-sources: boot/cfgtext.c boot/options.c arch/x86/pc_ports.c lib/escape.c lib/fmt.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ERRORS 6

struct errors {
	unsigned n;
	char msg[MAX_ERRORS][OPT_ERROR_MAX];
};

static void collect(void *ctx, const char *msg)
{
	struct errors *e = ctx;

	assert_true(e->n < MAX_ERRORS);
	assert_true(strlen(msg) < OPT_ERROR_MAX);
	snprintf(e->msg[e->n++], sizeof(e->msg[0]), "%s", msg);
}

/* Bytes in, text and messages out.  Messages are given without the
 * "\pmu-harness.cfg: " every one starts with. */
struct decode_case {
	const char *name;
	const char *in;
	size_t n;
	const char *text;
	size_t text_n;
	const char *errors[MAX_ERRORS];
};

#define IN(s) .in = (s), .n = sizeof(s) - 1
#define TEXT(s) .text = (s), .text_n = sizeof(s) - 1

static const struct decode_case cases[] = {
	{ .name = "empty", IN(""), TEXT("") },
	{ .name = "ascii", IN("tests=detect/*\r\n# c\n"),
	  TEXT("tests=detect/*\r\n# c\n") },
	{ .name = "tab kept", IN("\ttests=a\t"), TEXT("\ttests=a\t") },
	{ .name = "utf-8 bom skipped", IN("\xef\xbb\xbftests=detect/*\n"),
	  TEXT("tests=detect/*\n") },
	{ .name = "utf-8 bom alone", IN("\xef\xbb\xbf"), TEXT("") },
	{ .name = "utf-8 bom cut short", IN("\xef\xbb"), TEXT("\xef\xbb") },
	{ .name = "utf-8 bom later is text", IN("a \xef\xbb\xbf"),
	  TEXT("a \xef\xbb\xbf") },
	{ .name = "utf-8 kept", IN("# caf\xc3\xa9\n"),
	  TEXT("# caf\xc3\xa9\n") },
	{ .name = "nul", IN("tests=a/*\0verbose=1\n"),
	  TEXT("tests=a/* verbose=1\n"),
	  .errors = { "NUL byte at offset 9 (1 in all); read as a space" } },
	{ .name = "nul padding", IN("exit=auto\n\0\0\0\0"),
	  TEXT("exit=auto\n    "),
	  .errors = { "NUL byte at offset 10 (4 in all); read as a space" } },
	{ .name = "nul first", IN("\0x"), TEXT(" x"),
	  .errors = { "NUL byte at offset 0 (1 in all); read as a space" } },
	{ .name = "esc", IN("a\n\x1b[2J\x1b[31mx\n"),
	  TEXT("a\n\x1b[2J\x1b[31mx\n"),
	  .errors = { "control byte \\x1b at offset 2 (2 in all); a word "
		      "holding one is not applied" } },
	{ .name = "del", IN("a=\x7f"), TEXT("a=\x7f"),
	  .errors = { "control byte \\x7f at offset 2 (1 in all); a word "
		      "holding one is not applied" } },
	{ .name = "nul and control", IN("\x01 \0"), TEXT("\x01  "),
	  .errors = { "NUL byte at offset 2 (1 in all); read as a space",
		      "control byte \\x01 at offset 0 (1 in all); a word "
		      "holding one is not applied" } },
	{ .name = "utf-16le bom",
	  IN("\xff\xfet\0=\0a\0/\0*\0\r\0\n\0"), TEXT("t=a/*\r\n"),
	  .errors = { "UTF-16LE text (byte-order mark FF FE at offset 0); "
		      "read as UTF-16, save it as ASCII or UTF-8 instead" } },
	{ .name = "utf-16be bom", IN("\xfe\xff\0t\0=\0a"), TEXT("t=a"),
	  .errors = { "UTF-16BE text (byte-order mark FE FF at offset 0); "
		      "read as UTF-16, save it as ASCII or UTF-8 instead" } },
	{ .name = "utf-16le bom alone", IN("\xff\xfe"), TEXT(""),
	  .errors = { "UTF-16LE text (byte-order mark FF FE at offset 0); "
		      "read as UTF-16, save it as ASCII or UTF-8 instead" } },
	{ .name = "utf-16le no bom", IN("t\0=\0a\0\n\0"), TEXT("t=a\n"),
	  .errors = { "UTF-16LE text (no byte-order mark: NUL bytes at the "
		      "odd offsets); read as UTF-16, save it as ASCII or "
		      "UTF-8 instead" } },
	{ .name = "utf-16be no bom", IN("\0t\0=\0a"), TEXT("t=a"),
	  .errors = { "UTF-16BE text (no byte-order mark: NUL bytes at the "
		      "even offsets); read as UTF-16, save it as ASCII or "
		      "UTF-8 instead" } },
	/* one code unit is too little to tell: NUL bytes as such */
	{ .name = "one unit", IN("t\0"), TEXT("t "),
	  .errors = { "NUL byte at offset 1 (1 in all); read as a space" } },
	/* a NUL in the first 32 units that is not every other byte */
	{ .name = "not utf-16", IN("ab\0\0cd"), TEXT("ab  cd"),
	  .errors = { "NUL byte at offset 2 (2 in all); read as a space" } },
	{ .name = "utf-16 non-ascii",
	  IN("\xff\xfe#\0 \0\xe9\0\x2d\x4e\x3d\xd8\x00\xde"),
	  TEXT("# \xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80"),
	  .errors = { "UTF-16LE text (byte-order mark FF FE at offset 0); "
		      "read as UTF-16, save it as ASCII or UTF-8 instead" } },
	{ .name = "utf-16 lone surrogates",
	  IN("\xff\xfe\x3d\xd8x\0\x00\xde\x3d\xd8"),
	  TEXT("\xef\xbf\xbdx\xef\xbf\xbd\xef\xbf\xbd"),
	  .errors = { "UTF-16LE text (byte-order mark FF FE at offset 0); "
		      "read as UTF-16, save it as ASCII or UTF-8 instead",
		      "unpaired UTF-16 surrogate 0xd83d at offset 2 (3 in "
		      "all); read as U+FFFD" } },
	{ .name = "utf-16 odd length", IN("\xff\xfe" "a\0b"), TEXT("a"),
	  .errors = { "UTF-16LE text (byte-order mark FF FE at offset 0); "
		      "read as UTF-16, save it as ASCII or UTF-8 instead",
		      "odd byte at offset 4 after the last UTF-16 code unit; "
		      "ignored" } },
	{ .name = "utf-16 nul and control",
	  IN("\xfe\xff\0a\0\0\0\x1b\0\0"), TEXT("a \x1b "),
	  .errors = { "UTF-16BE text (byte-order mark FE FF at offset 0); "
		      "read as UTF-16, save it as ASCII or UTF-8 instead",
		      "NUL character at offset 4 (2 in all); read as a "
		      "space",
		      "control character \\x1b at offset 6 (1 in all); a "
		      "word holding one is not applied" } },
};

static void check_errors(const char *name, const struct errors *e,
			 const char *const *want)
{
	unsigned n_want = 0;

	while (n_want < MAX_ERRORS && want[n_want])
		n_want++;
	for (unsigned i = 0; i < e->n || i < n_want; i++) {
		char full[OPT_ERROR_MAX + 32];

		if (i >= e->n || i >= n_want)
			fail_msg("%s: %u errors, want %u; first: %s", name,
				 e->n, n_want, e->n ? e->msg[0] : want[0]);
		snprintf(full, sizeof(full), CFG_SOURCE ": %s", want[i]);
		if (strcmp(e->msg[i], full))
			fail_msg("%s: error %u:\n  got  %s\n  want %s", name,
				 i, e->msg[i], full);
	}
}

static void test_decode(void **state)
{
	for (unsigned i = 0; i < N(cases); i++) {
		const struct decode_case *c = &cases[i];
		struct errors e = { 0 };
		char out[256];

		memset(out, 'Z', sizeof(out));
		if (cfg_decode((const unsigned char *)c->in, c->n, c->n, out,
			       sizeof(out), CFG_SOURCE, collect, &e))
			fail_msg("%s: refused", c->name);
		if (memcmp(out, c->text, c->text_n + 1))
			fail_msg("%s: text differs", c->name);
		check_errors(c->name, &e, c->errors);
	}
}

/* The limit: a file of CFG_LIMIT bytes is read, one byte more is an error
 * and nothing is returned to apply, whether all of it was read or not. */
struct limit_case {
	size_t n, file_size;
	int result;
	const char *error;
};

static const struct limit_case limits[] = {
	{ .n = CFG_LIMIT, .file_size = CFG_LIMIT, .result = 0 },
	{ .n = CFG_LIMIT, .file_size = 0, .result = 0 },
	{ .n = CFG_LIMIT + 1, .file_size = CFG_LIMIT + 1, .result = -1,
	  .error = "65537 bytes, over the limit of 65536 bytes; nothing from "
		   "it applied, and no test runs" },
	{ .n = CFG_LIMIT + 1, .file_size = 0, .result = -1,
	  .error = "65537 bytes, over the limit of 65536 bytes; nothing from "
		   "it applied, and no test runs" },
	{ .n = CFG_LIMIT + 1, .file_size = 1 << 30, .result = -1,
	  .error = "1073741824 bytes, over the limit of 65536 bytes; nothing "
		   "from it applied, and no test runs" },
	{ .n = 10, .file_size = 70000, .result = -1,
	  .error = "70000 bytes, over the limit of 65536 bytes; nothing from "
		   "it applied, and no test runs" },
};

static void test_limit(void **state)
{
	static unsigned char raw[CFG_LIMIT + 1];
	static char out[CFG_TEXT_MAX];

	memset(raw, ' ', sizeof(raw));
	memcpy(raw, "tests=x", 7);
	for (unsigned i = 0; i < N(limits); i++) {
		const struct limit_case *c = &limits[i];
		const char *want[MAX_ERRORS] = { c->error };
		struct errors e = { 0 };
		int r;

		out[0] = 'Z';
		r = cfg_decode(raw, c->n, c->file_size, out, sizeof(out),
			       CFG_SOURCE, collect, &e);
		if (r != c->result)
			fail_msg("limit case %u: %d, want %d", i, r, c->result);
		check_errors("limit", &e, want);
		if (r) {
			assert_int_equal(out[0], 0);
		} else {
			assert_int_equal(strlen(out), c->n);
		}
	}
}

/* UTF-16 of CFG_LIMIT bytes, all non-ASCII: CFG_TEXT_MAX holds it. */
static void test_text_max(void **state)
{
	static unsigned char raw[CFG_LIMIT];
	static char out[CFG_TEXT_MAX];
	struct errors e = { 0 };

	raw[0] = 0xff;
	raw[1] = 0xfe;
	for (size_t i = 2; i < sizeof(raw); i += 2) {
		raw[i] = 0x2d;	/* U+4E2D: three bytes of UTF-8 */
		raw[i + 1] = 0x4e;
	}
	assert_int_equal(cfg_decode(raw, sizeof(raw), sizeof(raw), out,
				    sizeof(out), CFG_SOURCE, collect, &e), 0);
	assert_int_equal(strlen(out), (CFG_LIMIT - 2) / 2 * 3);
	assert_int_equal(e.n, 1);
}

/* A buffer too small for the text: nothing, and an error. */
static void test_small_buffer(void **state)
{
	struct errors e = { 0 };
	char out[8];

	memset(out, 'Z', sizeof(out));
	assert_int_equal(cfg_decode((const unsigned char *)"tests=abcd", 10,
				    10, out, sizeof(out), CFG_SOURCE, collect,
				    &e), -1);
	assert_int_equal(out[0], 0);
	assert_int_equal(e.n, 1);
	assert_non_null(strstr(e.msg[0], "nothing from it applied"));
	assert_int_equal(cfg_decode((const unsigned char *)"tests=a", 7, 7,
				    out, sizeof(out), CFG_SOURCE, collect,
				    &e), 0);
	assert_string_equal(out, "tests=a");
	/* no callback: still decoded */
	assert_int_equal(cfg_decode((const unsigned char *)"a\0b", 3, 3, out,
				    sizeof(out), CFG_SOURCE, NULL, NULL), 0);
	assert_string_equal(out, "a b");
}

/* Decode, then parse: what the harness does with the file. */
static int decode_parse(const unsigned char *raw, size_t n,
			struct options *o, struct errors *e)
{
	static char out[CFG_TEXT_MAX];

	memset(e, 0, sizeof(*e));
	options_defaults(o);
	if (cfg_decode(raw, n, n, out, sizeof(out), CFG_SOURCE, collect, e))
		return -1;
	return options_parse(o, out, CFG_SOURCE, collect, e);
}

/* The row of issue 11: a tests= word of two globs across offset 4096
 * applies whole, at every position around the old 4096-byte buffer's
 * end. */
static void test_word_across_4096(void **state)
{
	static const char word[] = "tests=detect/*,arch/*";
	unsigned char raw[5000];

	for (size_t at = 4096 - sizeof(word); at <= 4097; at++) {
		struct options o;
		struct errors e;

		memset(raw, '\n', sizeof(raw));
		memcpy(raw, "#", 1);
		memset(raw + 1, 'c', at - 2);	/* one long comment line */
		memcpy(raw + at, word, sizeof(word) - 1);
		assert_int_equal(decode_parse(raw, sizeof(raw), &o, &e), 0);
		if (strcmp(o.tests, "detect/*,arch/*"))
			fail_msg("word at %zu: tests=%s", at, o.tests);
	}
}

/* Whole files through the parser: what each row of the issue expects. */
struct file_case {
	const char *name;
	const char *in;
	size_t n;
	const char *tests;
	int verbose;
	int errors;		/* cfg_decode's and options_parse's */
	const char *mention;	/* in the last error */
};

static const struct file_case files[] = {
	{ .name = "bom", IN("\xef\xbb\xbftests=detect/*\r\nverbose=1\r\n"),
	  .tests = "detect/*", .verbose = 1 },
	{ .name = "nul", IN("tests=detect/*\0verbose=1\n"),
	  .tests = "detect/*", .verbose = 1, .errors = 1,
	  .mention = "NUL byte at offset 14" },
	{ .name = "utf-16le", IN("\xff\xfet\0e\0s\0t\0s\0=\0d\0/\0*\0 \0v\0"
				 "e\0r\0b\0o\0s\0e\0=\0" "1\0"),
	  .tests = "d/*", .verbose = 1, .errors = 1, .mention = "UTF-16LE" },
	{ .name = "esc", IN("tests=d/*\n\x1b[2J\x1b[31mverbose=1\x1b[0m\n"),
	  .tests = "d/*", .verbose = 0, .errors = 2,
	  .mention = "\"\\x1b[2J\\x1b[31mverbose=1\\x1b[0m\": holds a "
		     "control" },
	{ .name = "utf-16 non-ascii word",
	  IN("\xff\xfev\0=\0\xe9\0 \0t\0=\0x\0"), .tests = "*", .errors = 3,
	  .mention = "unknown option \"t\"" },
};

static void test_files(void **state)
{
	for (unsigned i = 0; i < N(files); i++) {
		const struct file_case *c = &files[i];
		struct options o;
		struct errors e;

		decode_parse((const unsigned char *)c->in, c->n, &o, &e);
		if ((int)e.n != c->errors || strcmp(o.tests, c->tests) ||
		    o.verbose != c->verbose)
			fail_msg("%s: %u errors, tests=%s verbose=%d", c->name,
				 e.n, o.tests, o.verbose);
		if (c->mention && !strstr(e.msg[e.n - 1], c->mention))
			fail_msg("%s: \"%s\" lacks '%s'", c->name,
				 e.msg[e.n - 1], c->mention);
	}
}

/* The fixture files the boot table once booted one by one (issue 24 made
 * these host tests of the same files; tools/check/matrix.yaml keeps the boots
 * only a boot can show: cfg-over-64k, a file read through UEFI in full,
 * and cfg-control-esc, escaped error text on the serial port).  Each
 * expects what its boot's log said after "# error: option " (the whole
 * message, or none) and on "# options:".
 * The rows of issue 11 (docs/reliability.md) are what they restate. */
struct fixture_case {
	const char *file;
	const char *tests;
	int verbose;
	const char *error;	/* the one error's whole text, or NULL */
};

static const struct fixture_case fixture_files[] = {
	{ .file = "over-4096.cfg", .tests = "detect/*,arch/*" },
	{ .file = "nul-byte.cfg", .tests = "detect/*", .verbose = 1,
	  .error = "\\pmu-harness.cfg: NUL byte at offset 65 (1 in all); "
		   "read as a space" },
	{ .file = "bom-utf8.cfg", .tests = "detect/*", .verbose = 1 },
	{ .file = "utf16le-bom.cfg", .tests = "detect/*", .verbose = 1,
	  .error = "\\pmu-harness.cfg: UTF-16LE text (byte-order mark FF FE "
		   "at offset 0); read as UTF-16, save it as ASCII or UTF-8 "
		   "instead" },
};

static size_t read_fixture(const char *name, unsigned char *buf,
			   size_t size)
{
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "tests/fixtures/cfg/%s", name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: cannot open (run from the tree's root)", path);
	n = fread(buf, 1, size, f);
	fclose(f);
	return n;
}

static void test_fixture_files(void **state)
{
	static unsigned char raw[CFG_LIMIT];

	for (unsigned i = 0; i < N(fixture_files); i++) {
		const struct fixture_case *c = &fixture_files[i];
		size_t n = read_fixture(c->file, raw, sizeof(raw));
		struct options o;
		struct errors e;

		decode_parse(raw, n, &o, &e);
		if (strcmp(o.tests, c->tests) || o.verbose != c->verbose)
			fail_msg("%s: tests=%s verbose=%d, want tests=%s "
				 "verbose=%d", c->file, o.tests, o.verbose,
				 c->tests, c->verbose);
		if (e.n != (c->error ? 1u : 0u))
			fail_msg("%s: %u errors (first: %s)", c->file, e.n,
				 e.n ? e.msg[0] : "-");
		if (c->error && strcmp(e.msg[0], c->error))
			fail_msg("%s: error \"%s\", want \"%s\"", c->file,
				 e.msg[0], c->error);
	}
}

/* Over the limit, nothing applies, not even what comes first. */
static void test_over_limit_applies_nothing(void **state)
{
	static unsigned char raw[CFG_LIMIT + 100];
	struct options o;
	struct errors e;

	memset(raw, '\n', sizeof(raw));
	memcpy(raw, "tests=detect/* verbose=1", 24);
	assert_int_equal(decode_parse(raw, sizeof(raw), &o, &e), -1);
	assert_string_equal(o.tests, "*");
	assert_int_equal(o.verbose, 0);
	assert_int_equal(e.n, 1);
	assert_non_null(strstr(e.msg[0], "65636 bytes, over the limit"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_text_max),
		cmocka_unit_test(test_small_buffer),
		cmocka_unit_test(test_word_across_4096),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_over_limit_applies_nothing),
		cmocka_unit_test(test_fixture_files),
	};

	return cmocka_run_group_tests_name("cfgtext", tests, NULL, NULL);
}
