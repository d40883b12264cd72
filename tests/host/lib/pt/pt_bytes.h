/* pt_bytes: Intel PT streams built byte by byte for the host tests of the
 * decoder and the timing (test_decode.c, test_timing.c), written
 * here from the SDM (Vol. 3C, order no. 326019-060US, §36.4.2) rather
 * than with the encoder under test. */
#ifndef TESTS_HOST_PT_BYTES_H
#define TESTS_HOST_PT_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct sb {
	uint8_t b[8192];
	size_t n;
};

static inline void put(struct sb *s, const uint8_t *p, size_t n)
{
	assert_true(s->n + n <= sizeof(s->b));
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

#define PUT(s, ...) do {						\
	const uint8_t bytes_[] = { __VA_ARGS__ };			\
	put((s), bytes_, sizeof(bytes_));				\
} while (0)

/* n bytes of v, least significant first */
static inline void put_le(struct sb *s, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		PUT(s, (uint8_t)(v >> 8 * i));
}

/* PSB (Table 36-36): 02 82 eight times */
static inline void e_psb(struct sb *s)
{
	for (int i = 0; i < 8; i++)
		PUT(s, 0x02, 0x82);
}

/* CYC in n bytes (Table 36-33): byte 0 bits 7:3 value[4:0], bit 2 Exp,
 * bits 1:0 11b; each further byte bits 7:1 the next 7 bits, bit 0 Exp. */
static inline void e_cyc_n(struct sb *s, uint64_t v, unsigned n)
{
	PUT(s, (uint8_t)((v & 31) << 3 | (n > 1) << 2 | 3));
	v >>= 5;
	for (unsigned i = 1; i < n; i++) {
		PUT(s, (uint8_t)((v & 127) << 1 | (i + 1 < n)));
		v >>= 7;
	}
}

/* the bytes of the shortest CYC of v */
static inline unsigned cyc_len(uint64_t v)
{
	unsigned n = 1;

	for (v >>= 5; v; v >>= 7)
		n++;
	return n;
}

static inline void e_cyc(struct sb *s, uint64_t v)
{
	e_cyc_n(s, v, cyc_len(v));
}

#endif
