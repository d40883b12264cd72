/* options: parser for key=value harness options (see options.h). */
#include "options.h"
#include "../arch/x86/pc_ports.h"
#include "../lib/escape.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

/* The longest word: the longest key ("emulated_fault=") and a value as long
 * as the longest option value, NUL included. */
#define KEY_MAX 16
#define WORD_MAX (KEY_MAX + OPT_TESTS_MAX)
_Static_assert(OPT_INJECT_MAX <= OPT_TESTS_MAX, "WORD_MAX fits inject=");
/* A word as messages show it: escaped, so always whole (lib/escape.h). */
#define SHOWN_MAX (WORD_MAX * ESC_PER_BYTE + 1)

void options_defaults(struct options *o)
{
	str_copy(o->tests, "*", sizeof(o->tests));
	o->backend = BACKEND_AUTO;
	o->serial_port = 0x3f8;
	o->serial_com = 1;
	o->exit = EXIT_AUTO;
	o->verbose = 0;
	o->timeout_s = OPT_TIMEOUT_DEFAULT;
	o->run_timeout_s = OPT_RUN_TIMEOUT_DEFAULT;
	o->inject[0] = 0;
	o->emulated_fault[0] = 0;
	o->emulated_noise = 0;
}

static const char *const backend_names[] = { "auto", "hw", "model",
					     "emulated" };
static const char *const exit_names[] = { "auto", "return", "shutdown",
					  "reboot" };
/* Conventional PC COM port bases (IBM PC/AT serial port assignment). */
static const unsigned com_bases[] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };

const char *options_backend_name(enum backend_want b)
{
	return backend_names[b];
}

const char *options_exit_name(enum opt_exit e)
{
	return exit_names[e];
}

struct parse {
	struct options *o;
	const char *source;
	opt_error_fn err;
	void *ctx;
	int errors;
	char shown[SHOWN_MAX];	/* show()'s result: one per message */
};

/* Text from the input as a message quotes it: escaped. */
static const char *show(struct parse *p, const char *s)
{
	esc_str(p->shown, sizeof(p->shown), s);
	return p->shown;
}

/* "source: message", cut to OPT_ERROR_MAX with a note saying how much
 * was cut. */
__attribute__((format(printf, 2, 3)))
static void report(struct parse *p, const char *fmt, ...)
{
	char line[OPT_ERROR_MAX];
	size_t used;
	int n, m;
	va_list ap;

	n = fmt_snprintf(line, sizeof(line), "%s: ", p->source);
	used = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
	va_start(ap, fmt);
	m = fmt_vsnprintf(line + used, sizeof(line) - used, fmt, ap);
	va_end(ap);
	esc_note_cut(line, sizeof(line), (size_t)n + (size_t)m);
	p->errors++;
	if (p->err)
		p->err(p->ctx, line);
}

static int pick(const char *v, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!str_cmp(v, names[i]))
			return i;
	return -1;
}

static int parse_hex(const char *v, unsigned *out)
{
	unsigned x = 0;

	if (v[0] != '0' || (v[1] != 'x' && v[1] != 'X') || !v[2])
		return -1;
	for (v += 2; *v; v++) {
		int d;

		if (*v >= '0' && *v <= '9')
			d = *v - '0';
		else if (*v >= 'a' && *v <= 'f')
			d = *v - 'a' + 10;
		else if (*v >= 'A' && *v <= 'F')
			d = *v - 'A' + 10;
		else
			return -1;
		x = x * 16 + (unsigned)d;
		if (x > 0xffff)
			return -1;
	}
	*out = x;
	return 0;
}

/* The serial setting as serial= would name it. */
static void serial_name(const struct options *o, char *buf, unsigned size)
{
	if (!o->serial_port)
		str_copy(buf, "none", size);
	else if (o->serial_com)
		fmt_snprintf(buf, size, "com%d", o->serial_com);
	else
		fmt_snprintf(buf, size, "0x%x", o->serial_port);
}

static void set_serial(struct parse *p, const char *v)
{
	struct options *o = p->o;
	const struct pc_port_range *owner;
	unsigned port;
	char kept[16];

	if (!str_cmp(v, "none")) {
		o->serial_port = 0;
		o->serial_com = 0;
		return;
	}
	if (!str_ncmp(v, "com", 3) && v[3] >= '1' && v[3] <= '4' && !v[4]) {
		o->serial_com = v[3] - '0';
		o->serial_port = com_bases[o->serial_com - 1];
		return;
	}
	/* An explicit base: a 16550 decodes 8 ports, so it is 8-aligned. */
	if (parse_hex(v, &port) || port == 0 || (port & 7)) {
		report(p, "serial=\"%s\": expected com1-com4, none or an "
		       "8-aligned hex I/O base such as 0x3f8", show(p, v));
		return;
	}
	/* Ports a known device decodes are never touched, not even read. */
	owner = pc_port_owner(port, port + 7);
	if (owner) {
		serial_name(o, kept, sizeof(kept));
		report(p, "serial=\"%s\": ports 0x%x-0x%x are %s, not a "
		       "UART; serial stays %s", show(p, v), port, port + 7,
		       owner->what, kept);
		return;
	}
	o->serial_port = port;
	o->serial_com = 0;
	for (int i = 0; i < 4; i++)
		if (com_bases[i] == port)
			o->serial_com = i + 1;
}

/* A decimal number of seconds, 1 .. OPT_TIMEOUT_MAX. */
static int parse_seconds(const char *v, unsigned *out)
{
	unsigned x = 0;

	if (!*v)
		return -1;
	for (; *v; v++) {
		if (*v < '0' || *v > '9')
			return -1;
		x = x * 10 + (unsigned)(*v - '0');
		if (x > OPT_TIMEOUT_MAX)
			return -1;
	}
	if (!x)
		return -1;
	*out = x;
	return 0;
}

static int valid_tests(const char *v)
{
	if (!*v || *v == ',' || v[str_len(v) - 1] == ',')
		return 0;
	for (; *v; v++) {
		if (*v == ',' && v[1] == ',')
			return 0;
		if (!((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') ||
		      (*v >= '0' && *v <= '9') ||
		      *v == '*' || *v == '?' || *v == '/' || *v == '-' ||
		      *v == '_' || *v == ',' || *v == '.'))
			return 0;
	}
	return 1;
}

/* A rejected tests= selects no test: falling back to the previous value
 * ("*" by default) would run the whole suite where a list was meant. */
static void reject_tests(struct parse *p)
{
	p->o->tests[0] = 0;
}

void options_reject_source(struct options *o)
{
	o->tests[0] = 0;
}

static void apply(struct parse *p, const char *key, const char *v)
{
	struct options *o = p->o;
	int i;

	if (!str_cmp(key, "tests")) {
		if (str_len(v) >= sizeof(o->tests)) {
			reject_tests(p);
			report(p, "tests=: value of %u characters is too long "
			       "(at most %u); no test runs",
			       (unsigned)str_len(v), OPT_TESTS_MAX - 1);
		} else if (!valid_tests(v)) {
			reject_tests(p);
			report(p, "tests=\"%s\": expected GLOB[,GLOB] of "
			       "letters, digits and / - _ . * ?; no test runs",
			       show(p, v));
		} else
			str_copy(o->tests, v, sizeof(o->tests));
	} else if (!str_cmp(key, "backend")) {
		i = pick(v, backend_names, 4);
		if (i < 0)
			report(p, "backend=\"%s\": expected auto, hw, model or "
			       "emulated",
			       show(p, v));
		else
			o->backend = (enum backend_want)i;
	} else if (!str_cmp(key, "serial")) {
		set_serial(p, v);
	} else if (!str_cmp(key, "exit")) {
		i = pick(v, exit_names, 4);
		if (i < 0)
			report(p, "exit=\"%s\": expected auto, return, shutdown "
			       "or reboot", show(p, v));
		else
			o->exit = (enum opt_exit)i;
	} else if (!str_cmp(key, "verbose")) {
		if (str_cmp(v, "0") && str_cmp(v, "1"))
			report(p, "verbose=\"%s\": expected 0 or 1",
			       show(p, v));
		else
			o->verbose = v[0] == '1';
	} else if (!str_cmp(key, "timeout")) {
		if (parse_seconds(v, &o->timeout_s))
			report(p, "timeout=\"%s\": expected seconds, 1 to %u",
			       show(p, v), OPT_TIMEOUT_MAX);
	} else if (!str_cmp(key, "run_timeout")) {
		if (parse_seconds(v, &o->run_timeout_s))
			report(p, "run_timeout=\"%s\": expected seconds, 1 to "
			       "%u", show(p, v), OPT_TIMEOUT_MAX);
	} else if (!str_cmp(key, "inject")) {
		/* The fault-injection spec (pmu/inject.h checks it). */
		if (str_len(v) >= sizeof(o->inject))
			report(p, "inject=: value of %u characters is too "
			       "long (at most %u)", (unsigned)str_len(v),
			       (unsigned)sizeof(o->inject) - 1);
		else
			str_copy(o->inject, v, sizeof(o->inject));
	} else if (!str_cmp(key, "emulated_fault")) {
		/* The names (pmu/emufault.h checks them, and the session
		 * arms them under backend=emulated alone). */
		if (str_len(v) >= sizeof(o->emulated_fault))
			report(p, "emulated_fault=: value of %u characters is "
			       "too long (at most %u)", (unsigned)str_len(v),
			       (unsigned)sizeof(o->emulated_fault) - 1);
		else
			str_copy(o->emulated_fault, v,
				 sizeof(o->emulated_fault));
	} else if (!str_cmp(key, "emulated_noise")) {
		/* silicon's documented noise (pmu/noise.h), armed by the
		 * session under backend=emulated alone */
		if (str_cmp(v, "0") && str_cmp(v, "1"))
			report(p, "emulated_noise=\"%s\": expected 0 or 1",
			       show(p, v));
		else
			o->emulated_noise = v[0] == '1';
	} else {
		report(p, "unknown option \"%s\" (known: tests, backend, "
		       "serial, exit, verbose, timeout, run_timeout, inject, "
		       "emulated_fault, emulated_noise)", show(p, key));
	}
}

static void parse_word(struct parse *p, char *w)
{
	char *eq = w;

	/* A control byte (an ESC sequence, say) or a non-ASCII byte is
	 * never part of an option: the word is reported, escaped. */
	if (!esc_is_printable(w)) {
		if (str_ncmp(w, "tests=", 6)) {
			report(p, "\"%s\": holds a control or non-ASCII "
			       "byte; not applied", show(p, w));
			return;
		}
		reject_tests(p);
		report(p, "\"%s\": holds a control or non-ASCII byte; not "
		       "applied, no test runs", show(p, w));
		return;
	}
	while (*eq && *eq != '=')
		eq++;
	if (!*eq || eq == w) {
		report(p, "\"%s\": expected key=value", show(p, w));
		return;
	}
	*eq = 0;
	apply(p, w, eq + 1);
}

/* A word longer than any option: the message names its key (the text
 * before '=', when that is short enough to be a key). */
static void too_long(struct parse *p, char *w, unsigned n)
{
	unsigned k = 0;

	while (k < KEY_MAX && w[k] && w[k] != '=')
		k++;
	if (w[k] != '=' || !k) {
		report(p, "word of %u characters (no key=) is too long", n);
		return;
	}
	w[k] = 0;
	if (!str_cmp(w, "tests")) {
		reject_tests(p);
		report(p, "tests=: value of %u characters is too long (at "
		       "most %u); no test runs", n - k - 1, OPT_TESTS_MAX - 1);
	} else if (!str_cmp(w, "inject"))
		report(p, "inject=: value of %u characters is too long (at "
		       "most %u)", n - k - 1, OPT_INJECT_MAX - 1);
	else
		report(p, "%s=: value of %u characters is too long",
		       show(p, w), n - k - 1);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int options_parse(struct options *o, const char *text, const char *source,
		  opt_error_fn err, void *ctx)
{
	struct parse p = { .o = o, .source = source, .err = err, .ctx = ctx };
	char word[WORD_MAX];

	while (*text) {
		unsigned n = 0;

		if (is_space(*text)) {
			text++;
			continue;
		}
		if (*text == '#') {
			while (*text && *text != '\n')
				text++;
			continue;
		}
		while (*text && !is_space(*text)) {
			if (n + 1 < sizeof(word))
				word[n] = *text;
			n++;
			text++;
		}
		if (n >= sizeof(word)) {
			word[sizeof(word) - 1] = 0;
			too_long(&p, word, n);
			continue;
		}
		word[n] = 0;
		parse_word(&p, word);
	}
	return p.errors;
}

static int ends_with_efi(const char *w, unsigned n)
{
	static const char ext[] = ".efi";

	if (n < 4)
		return 0;
	for (unsigned i = 0; i < 4; i++) {
		char c = w[n - 4 + i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != ext[i])
			return 0;
	}
	return 1;
}

const char *options_skip_program(const char *text)
{
	const char *s = text, *w;

	while (is_space(*s))
		s++;
	w = s;
	while (*s && !is_space(*s))
		s++;
	return ends_with_efi(w, (unsigned)(s - w)) ? s : text;
}
