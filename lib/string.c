/* string: freestanding memory and string helpers (see string.h). */
#include "string.h"

#include <stdint.h>

#ifndef HOST_TEST	/* the host build uses the C library's versions */
void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

/* The bulk as whole words with one REP STOS, the ends byte by byte: a
 * byte loop made the boot layers' allocators, which zero what they hand
 * out, spend seconds of emulated time on the 64 MiB pointer-chase buffer
 * (64 Mi iterations; Bochs counts instructions). */
void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uintptr_t w = (unsigned char)c * (UINTPTR_MAX / 0xff);
	size_t words;

	for (; n && ((uintptr_t)d & (sizeof(w) - 1)); n--)
		*d++ = (unsigned char)c;
	words = n / sizeof(w);
	n %= sizeof(w);
#ifdef __x86_64__
	__asm__ volatile("rep stosq" : "+D"(d), "+c"(words) : "a"(w)
			 : "memory");
#else
	__asm__ volatile("rep stosl" : "+D"(d), "+c"(words) : "a"(w)
			 : "memory");
#endif
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}
#endif

size_t str_len(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int str_cmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int str_ncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

size_t str_copy(char *dst, const char *src, size_t size)
{
	size_t n = str_len(src);

	if (size) {
		size_t k = n < size - 1 ? n : size - 1;

		memcpy(dst, src, k);
		dst[k] = 0;
	}
	return n;
}

int str_glob(const char *p, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s) {
		if (*p == '*') {
			star = p++;
			resume = s;
		} else if (*p == '?' || *p == *s) {
			p++;
			s++;
		} else if (star) {
			p = star + 1;
			s = ++resume;
		} else {
			return 0;
		}
	}
	while (*p == '*')
		p++;
	return *p == 0;
}

int str_list_next(const char **list, char *buf, unsigned size)
{
	const char *l = *list;
	unsigned n = 0;

	if (!l || !*l || !size)
		return 0;
	while (l[n] && l[n] != ',')
		n++;
	if (n < size) {
		memcpy(buf, l, n);
		buf[n] = 0;
	} else {
		buf[0] = 0;
	}
	*list = l + n + (l[n] == ',');
	return 1;
}
