/* string: the few libc string routines a freestanding build needs.
 * GCC may emit calls to memcpy/memset/memmove/memcmp itself, so those keep
 * their standard names; the rest are prefixed. */
#ifndef LIB_STRING_H
#define LIB_STRING_H

#include <stddef.h>

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

size_t str_len(const char *s);
int str_cmp(const char *a, const char *b);
int str_ncmp(const char *a, const char *b, size_t n);
/* Copies at most size-1 bytes and always terminates; returns str_len(src). */
size_t str_copy(char *dst, const char *src, size_t size);
/* Shell-style match: '*' any run, '?' one character. */
int str_glob(const char *pattern, const char *s);
/* The next item of a comma-separated list at *list into buf (size
 * bytes, NUL-terminated), *list moved past it and its comma: 1, or 0 at
 * the end.  An item too long for buf comes back empty (it matches no
 * glob). */
int str_list_next(const char **list, char *buf, unsigned size);

#endif
