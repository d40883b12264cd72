/* tap: TAP version 13 writer (see tap.h, docs/log-format.md). */
#include "tap.h"
#include "fmt.h"
#include "string.h"

void tap_init(struct tap *t, void (*emit)(void *, const char *), void *ctx)
{
	memset(t, 0, sizeof(*t));
	t->emit = emit;
	t->ctx = ctx;
}

static void line(struct tap *t, const char *s)
{
	t->emit(t->ctx, s);
}

void tap_version(struct tap *t)
{
	line(t, "TAP version 13");
}

void tap_comment(struct tap *t, const char *fmt, ...)
{
	char buf[TAP_LINE_MAX];
	va_list ap;

	buf[0] = '#';
	buf[1] = ' ';
	va_start(ap, fmt);
	fmt_vsnprintf(buf + 2, sizeof(buf) - 2, fmt, ap);
	va_end(ap);
	line(t, buf);
}

/* A TAP description must not contain '#' (it starts a directive) nor a
 * line break (it would end the line). */
static void clean_name(char *dst, unsigned size, const char *name)
{
	unsigned i;

	for (i = 0; name[i] && i + 1 < size; i++)
		dst[i] = name[i] == '#' ? '_' :
			 name[i] == '\n' || name[i] == '\r' ? ' ' : name[i];
	dst[i] = 0;
}

void tap_result(struct tap *t, enum tap_status st, const char *name,
		const char *skip_reason)
{
	char buf[TAP_LINE_MAX], nm[200];

	if (t->in_yaml)
		tap_yaml_end(t);
	t->n++;
	clean_name(nm, sizeof(nm), name);
	switch (st) {
	case TAP_PASS:
		t->passed++;
		fmt_snprintf(buf, sizeof(buf), "ok %u - %s", t->n, nm);
		break;
	case TAP_FAIL:
		t->failed++;
		fmt_snprintf(buf, sizeof(buf), "not ok %u - %s", t->n, nm);
		break;
	default:
		t->skipped++;
		if (skip_reason && *skip_reason)
			fmt_snprintf(buf, sizeof(buf), "ok %u - %s # SKIP %s",
				     t->n, nm, skip_reason);
		else
			fmt_snprintf(buf, sizeof(buf), "ok %u - %s # SKIP",
				     t->n, nm);
		break;
	}
	line(t, buf);
}

void tap_result_todo(struct tap *t, int ok, const char *name,
		     const char *why)
{
	char buf[TAP_LINE_MAX], nm[200], reason[TAP_LINE_MAX / 2];

	if (t->in_yaml)
		tap_yaml_end(t);
	t->n++;
	t->passed++;
	t->todo++;
	clean_name(nm, sizeof(nm), name);
	clean_name(reason, sizeof(reason), why);
	fmt_snprintf(buf, sizeof(buf), "%s %u - %s # TODO %s",
		     ok ? "ok" : "not ok", t->n, nm, reason);
	line(t, buf);
}

/* Opens the YAML block under the last result, once. */
static void tap_yaml_begin(struct tap *t)
{
	if (t->in_yaml)
		return;
	t->in_yaml = 1;
	line(t, "  ---");
}

/* YAML indicator characters that change a plain scalar's meaning up front. */
static int is_indicator(char c)
{
	const char *ind = "-?:,[]{}#&*!|>'\"%@`";

	for (; *ind; ind++)
		if (*ind == c)
			return 1;
	return 0;
}

static int needs_quotes(const char *v)
{
	if (!*v || *v == ' ' || v[str_len(v) - 1] == ' ')
		return 1;
	if (is_indicator(v[0]) && !(v[0] == '-' && v[1] >= '0' && v[1] <= '9'))
		return 1;
	for (; *v; v++) {
		if (*v == '"' || *v == '\\' || *v == '#' ||
		    (unsigned char)*v < 0x20 || (unsigned char)*v > 0x7e)
			return 1;
		if (*v == ':' && (v[1] == ' ' || v[1] == 0))
			return 1;
	}
	return 0;
}

/* Appends the n bytes of e when they fit with room left for the closing
 * quote and NUL; returns 0 when they did not fit. */
static int put_bytes(char *buf, unsigned size, unsigned *o, const char *e,
		     unsigned n)
{
	if (*o + n + 2 > size)
		return 0;
	memcpy(buf + *o, e, n);
	*o += n;
	return 1;
}

/* Appends c as YAML's \xNN escape, when it fits. */
static int put_hex(char *buf, unsigned size, unsigned *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char e[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

	return put_bytes(buf, size, o, e, 4);
}

/* Appends one character, or its escape, when it fits with room left for
 * the closing quote and NUL; returns 0 when it did not fit. */
static int put_escaped(char *buf, unsigned size, unsigned *o, unsigned char c)
{
	char e[2] = { '\\', (char)c };

	if (c == '"' || c == '\\')
		return put_bytes(buf, size, o, e, 2);
	if (c < 0x20 || c > 0x7e)
		return put_hex(buf, size, o, c);
	return put_bytes(buf, size, o, e + 1, 1);
}

/* Perl's TAP::Parser::YAMLish::Reader (what `prove` runs, Perl 5.36) reads
 * a list item "- first: rest" as a mapping even when quoted, and then
 * rejects the quoted key, failing the whole log.  In an item, a ':' that
 * ends its first word (": " before the second word begins) is written
 * \x3a: YAML's own escape, the same text to every YAML reader. */
static int item_colon(const char *start, const char *c)
{
	const char *p = start;

	if (c[0] != ':' || c[1] != ' ')
		return 0;
	while (p < c && *p != ' ')
		p++;
	while (p < c && *p == ' ')
		p++;
	return p == c;
}

/* Writes v as a YAML scalar into buf, double-quoted and escaped when it
 * holds characters YAML would read differently; with item set, for a list
 * item ("    - value"): a ':' ending the first word is written \x3a. */
static void quote_scalar(char *buf, unsigned size, const char *v, int item)
{
	const char *start = v;
	unsigned o = 0;

	if (!size)
		return;
	if (!needs_quotes(v)) {
		str_copy(buf, v, size);
		return;
	}
	if (size < 3) {		/* no room for a quoted scalar at all */
		buf[0] = 0;
		return;
	}
	/* Cut at a character boundary, never inside an escape, and always
	 * close the quote: the YAML stays well formed. */
	buf[o++] = '"';
	for (; *v; v++) {
		if (item && item_colon(start, v)) {
			if (!put_hex(buf, size, &o, ':'))
				break;
		} else if (!put_escaped(buf, size, &o, (unsigned char)*v)) {
			break;
		}
	}
	buf[o++] = '"';
	buf[o] = 0;
}

/* One YAML line: head ("  key: " or "    - ") and the formatted value,
 * quoted within what the line has left after the head. */
static void yaml_line(struct tap *t, const char *head, int item,
		      const char *fmt, va_list ap)
{
	char val[TAP_LINE_MAX], q[TAP_LINE_MAX], buf[TAP_LINE_MAX];

	fmt_vsnprintf(val, sizeof(val), fmt, ap);
	tap_yaml_begin(t);
	quote_scalar(q, sizeof(buf) - (unsigned)str_len(head), val, item);
	fmt_snprintf(buf, sizeof(buf), "%s%s", head, q);
	line(t, buf);
}

void tap_yaml_kv(struct tap *t, const char *key, const char *fmt, ...)
{
	char head[TAP_LINE_MAX / 2];
	va_list ap;

	fmt_snprintf(head, sizeof(head), "  %s: ", key);
	va_start(ap, fmt);
	yaml_line(t, head, 0, fmt, ap);
	va_end(ap);
}

void tap_yaml_list(struct tap *t, const char *key)
{
	char buf[TAP_LINE_MAX];

	tap_yaml_begin(t);
	fmt_snprintf(buf, sizeof(buf), "  %s:", key);
	line(t, buf);
}

void tap_yaml_item(struct tap *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	yaml_line(t, "    - ", 1, fmt, ap);
	va_end(ap);
}

void tap_yaml_end(struct tap *t)
{
	if (!t->in_yaml)
		return;
	t->in_yaml = 0;
	line(t, "  ...");
}

/* Appends ` key="value"` to buf: quotes without escapes (a '"' becomes
 * '\'', a control byte '?'), the value cut to fit, or nothing at all
 * when not even the key and both quotes fit. */
static void append_field(char *buf, unsigned size, const char *key,
			 const char *value)
{
	unsigned o = (unsigned)str_len(buf);

	if (o + str_len(key) + 4 >= size)
		return;
	o += (unsigned)fmt_snprintf(buf + o, size - o, " %s=\"", key);
	/* Room for the closing quote and the NUL stays. */
	for (; *value && o + 2 < size; value++, o++)
		buf[o] = *value == '"' ? '\'' :
			 (unsigned char)*value < 0x20 ? '?' : *value;
	buf[o++] = '"';
	buf[o] = 0;
}

void tap_summary_field(struct tap *t, const char *key, const char *value)
{
	append_field(t->summary_extra, sizeof(t->summary_extra), key, value);
}

void tap_untested(struct tap *t, const char *reason)
{
	t->untested = 1;
	t->untested_reason[0] = 0;
	append_field(t->untested_reason, sizeof(t->untested_reason),
		     "reason", reason);
}

void tap_finish(struct tap *t)
{
	char buf[64];

	if (t->in_yaml)
		tap_yaml_end(t);
	fmt_snprintf(buf, sizeof(buf), "1..%u", t->n);
	line(t, buf);
	if (t->todo)
		fmt_snprintf(buf, sizeof(buf), " todo=%u", t->todo);
	else
		buf[0] = 0;
	tap_comment(t, "summary: passed=%u failed=%u skipped=%u%s%s%s%s",
		    t->passed, t->failed, t->skipped, buf,
		    tap_verdict(t) == TAP_VERDICT_UNTESTED ?
		    " verdict=untested" : "",
		    tap_verdict(t) == TAP_VERDICT_UNTESTED ?
		    t->untested_reason : "", t->summary_extra);
}

void tap_bail_out(struct tap *t, const char *reason)
{
	char buf[TAP_LINE_MAX];

	if (t->in_yaml)
		tap_yaml_end(t);
	fmt_snprintf(buf, sizeof(buf), "Bail out! %s", reason);
	line(t, buf);
}

enum tap_verdict tap_verdict(const struct tap *t)
{
	if (t->failed || !t->n)
		return TAP_VERDICT_FAIL;
	return t->untested ? TAP_VERDICT_UNTESTED : TAP_VERDICT_PASS;
}
