/* tool: what the PT host tools (tools/pt/: ipt-dump, ipt-gen, pt-modelgen,
 * pt-bench) share - reading and writing whole files, numbers from the
 * command line, a seeded random generator.  Host code (libc). */
#ifndef TOOLS_PT_TOOL_H
#define TOOLS_PT_TOOL_H

#include <stddef.h>
#include <stdint.h>

/* The whole file into a malloc'ed *buf (NULL-safe for an empty file:
 * one byte is allocated).  Returns 0, or -1 with errno set. */
int pt_tool_read_file(const char *path, uint8_t **buf, size_t *len);
/* Writes buf[0, len) to path (created or truncated).  Returns 0, or -1
 * with errno set. */
int pt_tool_write_file(const char *path, const void *buf, size_t len);
/* A decimal or 0x-hex number, all of s.  Returns 0, or -1. */
int pt_tool_parse_u64(const char *s, uint64_t *v);

/* Is buf[at, at + 16) of buf[0, len) a PSB, 02 82 eight times (SDM Vol.
 * 3C §36.4.2, Table 36-36)?  Matched here byte by byte, not with the
 * decoder under test (the referee stays independent of it). */
int pt_tool_is_psb(const uint8_t *buf, size_t len, uint64_t at);

/* splitmix64: deterministic by its seed, good enough to pick packets. */
struct pt_rng {
	uint64_t s;
};
uint64_t pt_rng_next(struct pt_rng *r);
/* Uniform in [0, n), n > 0. */
uint64_t pt_rng_below(struct pt_rng *r, uint64_t n);

/* A growing byte buffer (exits the program when memory runs out). */
struct pt_bytes {
	uint8_t *p;
	size_t len, cap;
};
void pt_bytes_put(struct pt_bytes *b, const void *p, size_t n);

#endif
