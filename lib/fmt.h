/* fmt: a freestanding vsnprintf subset for log lines.
 * Supports %d %i %u %x %X %o %c %s %p %% with flags '-', '0', width,
 * precision for strings, and length modifiers hh h l ll z.  Output is always
 * NUL-terminated when size > 0; the return value is the length the full
 * output would have had (like C99 vsnprintf). */
#ifndef LIB_FMT_H
#define LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>

int fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
