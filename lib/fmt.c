/* fmt: freestanding formatting for the harness log (see fmt.h). */
#include "fmt.h"

#include <stdint.h>

struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

struct spec {
	int left, zero, width, prec;
	int len;	/* -2 hh, -1 h, 0 int, 1 long, 2 long long, 3 size_t */
};

static void put_str(struct out *o, const char *s, const struct spec *sp)
{
	int n = 0;

	if (!s)
		s = "(null)";
	while (s[n] && (sp->prec < 0 || n < sp->prec))
		n++;
	if (!sp->left)
		put_pad(o, ' ', sp->width - n);
	for (int i = 0; i < n; i++)
		put(o, s[i]);
	if (sp->left)
		put_pad(o, ' ', sp->width - n);
}

static void put_num(struct out *o, uint64_t v, int neg, unsigned base,
		    int upper, const struct spec *sp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, total;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	total = n + neg;
	if (!sp->left && !sp->zero)
		put_pad(o, ' ', sp->width - total);
	if (neg)
		put(o, '-');
	if (!sp->left && sp->zero)
		put_pad(o, '0', sp->width - total);
	while (n)
		put(o, tmp[--n]);
	if (sp->left)
		put_pad(o, ' ', sp->width - total);
}

/* A character is written as is, NUL included (C99 7.19.6.1). */
static void put_char(struct out *o, char c, const struct spec *sp)
{
	if (!sp->left)
		put_pad(o, ' ', sp->width - 1);
	put(o, c);
	if (sp->left)
		put_pad(o, ' ', sp->width - 1);
}

/* "0x" and digits pad as one field. */
static void put_pointer(struct out *o, uint64_t v, const struct spec *sp)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v % 16];
		v /= 16;
	} while (v);
	if (!sp->left)
		put_pad(o, ' ', sp->width - n - 2);
	put(o, '0');
	put(o, 'x');
	for (int i = n; i; i--)
		put(o, tmp[i - 1]);
	if (sp->left)
		put_pad(o, ' ', sp->width - n - 2);
}

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	sp->left = sp->zero = sp->width = sp->len = 0;
	sp->prec = -1;
	for (;; f++) {
		if (*f == '-')
			sp->left = 1;
		else if (*f == '0')
			sp->zero = 1;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {	/* C99: a negative width means '-' */
			sp->left = 1;
			sp->width = -sp->width;
		}
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		f++;
		sp->prec = 0;
		if (*f == '*') {
			sp->prec = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->prec = sp->prec * 10 + (*f++ - '0');
	}
	if (*f == 'h') {
		sp->len = -1;
		if (*++f == 'h') {
			sp->len = -2;
			f++;
		}
	} else if (*f == 'l') {
		sp->len = 1;
		if (*++f == 'l') {
			sp->len = 2;
			f++;
		}
	} else if (*f == 'z') {
		sp->len = 3;
		f++;
	}
	return f;
}

static uint64_t get_unsigned(const struct spec *sp, va_list *ap)
{
	switch (sp->len) {
	case -2: return (unsigned char)va_arg(*ap, unsigned int);
	case -1: return (unsigned short)va_arg(*ap, unsigned int);
	case 1: return va_arg(*ap, unsigned long);
	case 2: return va_arg(*ap, unsigned long long);
	case 3: return va_arg(*ap, size_t);
	default: return va_arg(*ap, unsigned int);
	}
}

static int64_t get_signed(const struct spec *sp, va_list *ap)
{
	switch (sp->len) {
	case -2: return (signed char)va_arg(*ap, int);
	case -1: return (short)va_arg(*ap, int);
	case 1: return va_arg(*ap, long);
	case 2: return va_arg(*ap, long long);
	case 3: return (int64_t)va_arg(*ap, size_t);
	default: return va_arg(*ap, int);
	}
}

static void convert(struct out *o, char c, struct spec *sp, va_list *ap)
{
	int64_t s;

	switch (c) {
	case 'd':
	case 'i':
		s = get_signed(sp, ap);
		put_num(o, s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s,
			s < 0, 10, 0, sp);
		break;
	case 'u':
		put_num(o, get_unsigned(sp, ap), 0, 10, 0, sp);
		break;
	case 'x':
	case 'X':
		put_num(o, get_unsigned(sp, ap), 0, 16, c == 'X', sp);
		break;
	case 'o':
		put_num(o, get_unsigned(sp, ap), 0, 8, 0, sp);
		break;
	case 'p':
		put_pointer(o, (uintptr_t)va_arg(*ap, void *), sp);
		break;
	case 'c':
		put_char(o, (char)va_arg(*ap, int), sp);
		break;
	case 's':
		put_str(o, va_arg(*ap, const char *), sp);
		break;
	case '%':
		put(o, '%');
		break;
	default:	/* unknown conversion: show it rather than guess */
		put(o, '%');
		put(o, c);
		break;
	}
}

int fmt_vsnprintf(char *buf, size_t size, const char *f, va_list ap)
{
	struct out o = { buf, size, 0 };
	struct spec sp;
	va_list aq;

	va_copy(aq, ap);
	while (*f) {
		if (*f != '%') {
			put(&o, *f++);
			continue;
		}
		f = parse_spec(f + 1, &sp, &aq);
		if (!*f)
			break;
		convert(&o, *f++, &sp, &aq);
	}
	va_end(aq);
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}

int fmt_snprintf(char *buf, size_t size, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = fmt_vsnprintf(buf, size, f, ap);
	va_end(ap);
	return n;
}
