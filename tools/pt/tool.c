/* tool: shared helpers of the PT host tools (tool.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/pt/tool.h"

int pt_tool_read_file(const char *path, uint8_t **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	uint8_t *p = malloc(cap);
	int err;

	if (!f || !p) {
		err = f ? ENOMEM : errno;
		goto fail;
	}
	while ((got = fread(p + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *q = realloc(p, cap *= 2);

			if (!q) {
				err = ENOMEM;
				goto fail;
			}
			p = q;
		}
	}
	if (ferror(f)) {
		err = errno ? errno : EIO;
		goto fail;
	}
	fclose(f);
	*buf = p;
	*len = n;
	return 0;
fail:
	if (f)
		fclose(f);
	free(p);
	errno = err;
	return -1;
}

int pt_tool_write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	int err;

	if (!f)
		return -1;
	if (fwrite(buf, 1, len, f) != len) {
		err = errno ? errno : EIO;
		fclose(f);
		errno = err;
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

int pt_tool_parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

int pt_tool_is_psb(const uint8_t *buf, size_t len, uint64_t at)
{
	if (at > len || len - at < 16)
		return 0;
	for (unsigned i = 0; i < 16; i++)
		if (buf[at + i] != (i & 1 ? 0x82 : 0x02))
			return 0;
	return 1;
}

uint64_t pt_rng_next(struct pt_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t pt_rng_below(struct pt_rng *r, uint64_t n)
{
	return pt_rng_next(r) % n;
}

/* Room for n more bytes at b->p + b->len (the caller adds to len). */
static uint8_t *pt_bytes_room(struct pt_bytes *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		uint8_t *q;

		while (cap < b->len + n)
			cap *= 2;
		q = realloc(b->p, cap);
		if (!q) {
			fprintf(stderr, "out of memory\n");
			exit(2);
		}
		b->p = q;
		b->cap = cap;
	}
	return b->p + b->len;
}

void pt_bytes_put(struct pt_bytes *b, const void *p, size_t n)
{
	memcpy(pt_bytes_room(b, n), p, n);
	b->len += n;
}
