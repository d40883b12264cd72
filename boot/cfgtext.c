/* cfgtext: \pmu-harness.cfg bytes to option text (see cfgtext.h). */
#include "cfgtext.h"
#include "../lib/escape.h"
#include "../lib/fmt.h"

enum enc { ENC_BYTES, ENC_UTF16LE, ENC_UTF16BE };

/* Where the first of a kind of bad input was, and how many there were. */
struct seen {
	size_t first, count;
	unsigned value;
};

struct decode {
	char *out;
	size_t size, len;
	int overflow;
	struct seen nul, control, surrogate;
};

static void put(struct decode *d, unsigned char c)
{
	if (d->len + 1 < d->size)
		d->out[d->len++] = (char)c;
	else
		d->overflow = 1;
}

static void note(struct seen *s, size_t offset, unsigned value)
{
	if (!s->count++) {
		s->first = offset;
		s->value = value;
	}
}

/* UTF-8 (RFC 3629 section 3) of a code point below 0x110000. */
static void put_utf8(struct decode *d, unsigned cp)
{
	if (cp < 0x80) {
		put(d, (unsigned char)cp);
	} else if (cp < 0x800) {
		put(d, (unsigned char)(0xc0 | cp >> 6));
		put(d, (unsigned char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		put(d, (unsigned char)(0xe0 | cp >> 12));
		put(d, (unsigned char)(0x80 | (cp >> 6 & 0x3f)));
		put(d, (unsigned char)(0x80 | (cp & 0x3f)));
	} else {
		put(d, (unsigned char)(0xf0 | cp >> 18));
		put(d, (unsigned char)(0x80 | (cp >> 12 & 0x3f)));
		put(d, (unsigned char)(0x80 | (cp >> 6 & 0x3f)));
		put(d, (unsigned char)(0x80 | (cp & 0x3f)));
	}
}

static int is_control(unsigned c)
{
	return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f;
}

/* One character of the file: a byte, or a decoded UTF-16 code point. */
static void character(struct decode *d, unsigned c, size_t offset)
{
	if (c == 0) {
		note(&d->nul, offset, 0);
		put(d, ' ');
		return;
	}
	if (is_control(c))
		note(&d->control, offset, c);
	put_utf8(d, c);
}

static void decode_bytes(struct decode *d, const unsigned char *raw,
			 size_t n, size_t start)
{
	for (size_t i = start; i < n; i++) {
		if (raw[i] < 0x80)
			character(d, raw[i], i);
		else
			put(d, raw[i]);	/* UTF-8 or not, kept as it is */
	}
}

static unsigned unit(const unsigned char *raw, size_t i, enum enc e)
{
	return e == ENC_UTF16LE ? raw[i] | (unsigned)raw[i + 1] << 8 :
				  (unsigned)raw[i] << 8 | raw[i + 1];
}

/* UTF-16 (RFC 2781 section 2.2): a high surrogate D800-DBFF followed by a
 * low one DC00-DFFF is one code point; an unpaired one reads as U+FFFD. */
static void decode_utf16(struct decode *d, const unsigned char *raw,
			 size_t n, size_t start, enum enc e)
{
	size_t i = start;

	while (i + 1 < n) {
		unsigned u = unit(raw, i, e), lo;

		if (u < 0xd800 || u > 0xdfff) {
			character(d, u, i);
			i += 2;
			continue;
		}
		if (u <= 0xdbff && i + 3 < n) {
			lo = unit(raw, i + 2, e);
			if (lo >= 0xdc00 && lo <= 0xdfff) {
				put_utf8(d, 0x10000 + ((u - 0xd800) << 10) +
					    (lo - 0xdc00));
				i += 4;
				continue;
			}
		}
		note(&d->surrogate, i, u);
		put_utf8(d, 0xfffd);
		i += 2;
	}
}

/* UTF-16 without a byte-order mark: in the first code units (up to 32,
 * at least 2), the byte of every unit that is NUL in ASCII text is NUL and
 * the other byte never is. */
static int looks_utf16(const unsigned char *raw, size_t n, int zero_at)
{
	size_t k = n < 64 ? n & ~(size_t)1 : 64;

	if (k < 4)
		return 0;
	for (size_t i = 0; i < k; i += 2)
		if (raw[i + zero_at] || !raw[i + 1 - zero_at])
			return 0;
	return 1;
}

static enum enc detect(const unsigned char *raw, size_t n, size_t *start,
		       const char **how)
{
	*start = 0;
	if (n >= 2 && raw[0] == 0xff && raw[1] == 0xfe) {
		*start = 2;
		*how = "byte-order mark FF FE at offset 0";
		return ENC_UTF16LE;
	}
	if (n >= 2 && raw[0] == 0xfe && raw[1] == 0xff) {
		*start = 2;
		*how = "byte-order mark FE FF at offset 0";
		return ENC_UTF16BE;
	}
	if (looks_utf16(raw, n, 1)) {
		*how = "no byte-order mark: NUL bytes at the odd offsets";
		return ENC_UTF16LE;
	}
	if (looks_utf16(raw, n, 0)) {
		*how = "no byte-order mark: NUL bytes at the even offsets";
		return ENC_UTF16BE;
	}
	/* The UTF-8 byte-order mark (Unicode 15.0 section 23.8): skipped. */
	if (n >= 3 && raw[0] == 0xef && raw[1] == 0xbb && raw[2] == 0xbf)
		*start = 3;
	return ENC_BYTES;
}

__attribute__((format(printf, 4, 5)))
static void say(opt_error_fn err, void *ctx, const char *source,
		const char *fmt, ...)
{
	char msg[OPT_ERROR_MAX], line[OPT_ERROR_MAX];
	va_list ap;
	int n;

	if (!err)
		return;
	va_start(ap, fmt);
	fmt_vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	n = fmt_snprintf(line, sizeof(line), "%s: %s", source, msg);
	esc_note_cut(line, sizeof(line), (size_t)n);
	err(ctx, line);
}

static void report_seen(const struct decode *d, int utf16,
			const char *source, opt_error_fn err, void *ctx)
{
	const char *unit_name = utf16 ? "character" : "byte";
	char shown[8];

	if (d->nul.count)
		say(err, ctx, source, "NUL %s at offset %zu (%zu in all); "
		    "read as a space", unit_name, d->nul.first, d->nul.count);
	if (d->control.count) {
		char c = (char)d->control.value;

		esc_bytes(shown, sizeof(shown), &c, 1);
		say(err, ctx, source, "control %s %s at offset %zu (%zu in "
		    "all); a word holding one is not applied", unit_name,
		    shown, d->control.first, d->control.count);
	}
	if (d->surrogate.count)
		say(err, ctx, source, "unpaired UTF-16 surrogate 0x%04x at "
		    "offset %zu (%zu in all); read as U+FFFD",
		    d->surrogate.value, d->surrogate.first,
		    d->surrogate.count);
}

int cfg_decode(const unsigned char *raw, size_t n, size_t file_size,
	       char *out, size_t out_size, const char *source,
	       opt_error_fn err, void *ctx)
{
	struct decode d = { .out = out, .size = out_size };
	const char *how = "";
	size_t start;
	enum enc e;

	if (out_size)
		out[0] = 0;
	if (file_size < n)
		file_size = n;
	if (file_size > CFG_LIMIT) {
		say(err, ctx, source, "%zu bytes, over the limit of %u bytes; "
		    "nothing from it applied, and no test runs", file_size,
		    CFG_LIMIT);
		return -1;
	}
	e = detect(raw, n, &start, &how);
	if (e == ENC_BYTES) {
		decode_bytes(&d, raw, n, start);
	} else {
		say(err, ctx, source, "UTF-16%s text (%s); read as UTF-16, "
		    "save it as ASCII or UTF-8 instead",
		    e == ENC_UTF16LE ? "LE" : "BE", how);
		decode_utf16(&d, raw, n, start, e);
		if ((n - start) & 1)
			say(err, ctx, source, "odd byte at offset %zu after "
			    "the last UTF-16 code unit; ignored", n - 1);
	}
	if (d.overflow || !out_size) {
		say(err, ctx, source, "text longer than the %zu-byte buffer; "
		    "nothing from it applied, and no test runs", out_size);
		if (out_size)
			out[0] = 0;
		return -1;
	}
	out[d.len] = 0;
	report_seen(&d, e != ENC_BYTES, source, err, ctx);
	return 0;
}
