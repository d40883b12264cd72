/* pt-fuzz: the libFuzzer target of the PT decoder (Debian's clang,
 * -fsanitize=fuzzer,address,undefined; tools/pt/fuzz.sh runs it, `make
 * fuzz` for FUZZ_TIME seconds, make check's pt stage for a few).
 *
 * Any input is a stream: pt_dec_next must walk it to the end and
 * pt_timing must finish on it, neither reading outside it (ASan: libFuzzer
 * hands over a buffer of exactly the input's size), with no undefined
 * behaviour (UBSan) and without hanging.  What it also holds them to:
 *   - every packet lies inside the input, the next one starts at or after
 *     its end (after an error: no more than 15 bytes before the error's
 *     offset, and after the last PSB: a PSB the damaged packet ran into),
 *     and the walk ends within 2 * size + 2 calls (a decoder that stops
 *     moving would loop for ever);
 *   - an error is followed by a PSB or by the end (resume at the next
 *     PSB);
 *   - all of this without errata and with every workaround on
 *     (PT_ERRATUM_*);
 *   - pt_dec_sync from an offset the input picks lands on the first PSB
 *     at or after it, or returns -1 when there is none;
 *   - pt_timing writes no more than its max and counts the rest as lost
 *     (a run with room for 4 gives the same first 4 and the same total);
 *     its branches are in stream order, within the input, and an exact
 *     one has hi == time.
 * A broken rule aborts: libFuzzer keeps the input as a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/pt/packet.h"
#include "lib/pt/timing.h"
#include "tools/pt/tool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BRANCHES 256

static void fail(const char *what, uint64_t at)
{
	fprintf(stderr, "pt-fuzz: %s at offset %llu\n", what,
		(unsigned long long)at);
	abort();
}

static void walk(const uint8_t *data, size_t size, unsigned errata)
{
	struct pt_dec d;
	struct pt_pkt k;
	uint64_t next = 0, calls = 0, past_psb = 0;
	int after_error = 0;

	pt_dec_init(&d, data, size);
	d.errata = (uint8_t)errata;
	while (pt_dec_next(&d, &k) != PT_PKT_NONE) {
		if (++calls > 2 * (uint64_t)size + 2)
			fail("no progress", k.offset);
		if (k.offset < next || k.offset + k.size > size ||
		    (!k.size && k.type != PT_PKT_ERROR))
			fail("packet outside the input or going back",
			     k.offset);
		if (after_error && !pt_tool_is_psb(data, size, k.offset))
			fail("no resume at a PSB after an error", k.offset);
		after_error = k.type == PT_PKT_ERROR;
		if (k.type >= PT_PKT_NR ||
		    (after_error && k.err >= PT_ERR_NR))
			fail("type or error out of range", k.offset);
		if (k.type == PT_PKT_PSB)
			past_psb = k.offset + 1;
		/* the next PSB may start inside the damaged bytes, or up to
		 * 15 bytes before them, but not at or before the last PSB */
		next = !after_error ? k.offset + k.size :
		       k.offset > 15 && k.offset - 15 > past_psb ?
		       k.offset - 15 : past_psb;
	}
}

static void sync_from(const uint8_t *data, size_t size)
{
	struct pt_dec d;
	uint64_t from = size ? data[0] % size : 0, at;
	int r;

	pt_dec_init(&d, data, size);
	d.pos = from;
	r = pt_dec_sync(&d);
	for (at = from; at < size && !pt_tool_is_psb(data, size, at); at++)
		;
	if (r ? at < size : d.pos != at)
		fail("sync", d.pos);
}

static void timing(const uint8_t *data, size_t size)
{
	static struct pt_branch out[BRANCHES], few[4];
	struct pt_timing_result r, rf;
	uint64_t last = 0;

	/* fields a branch does not use must compare equal too */
	__builtin_memset(out, 0, sizeof(out));
	__builtin_memset(few, 0, sizeof(few));
	pt_timing(data, size, out, BRANCHES, &r);
	pt_timing(data, size, few, 4, &rf);
	if (r.branches > BRANCHES || rf.branches > 4)
		fail("more branches than room", r.branches);
	if (r.branches + r.lost != rf.branches + rf.lost ||
	    __builtin_memcmp(out, few, rf.branches * sizeof(*few)))
		fail("room for 4 changes the branches", 0);
	for (size_t i = 0; i < r.branches; i++) {
		const struct pt_branch *b = &out[i];

		if (b->offset >= size || b->offset < last)
			fail("branch outside the input or out of order",
			     b->offset);
		/* (a bounded one's [time, hi) is not checked: CYC sums of
		 * an arbitrary input may pass 2^64) */
		if (b->exact && b->hi != b->time)
			fail("an exact branch with hi != time", b->offset);
		last = b->offset;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	walk(data, size, 0);
	walk(data, size, PT_ERRATUM_SKD007 | PT_ERRATUM_SKZ84);
	sync_from(data, size);
	timing(data, size);
	return 0;
}
