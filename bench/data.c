/* data: benchmark and test buffers from the boot layer's pages (data.h). */
#include "data.h"
#include "../arch/x86/ring3.h"
#include "../arch/x86/smp.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

#define MAX_BENCHES 64
#define MAX_HELD 64	/* buffers given back at the end */
#define MIB (1ull << 20)
/* Buffers of 2 MiB and more start on a 2 MiB boundary, so ring 3 keeps
 * the firmware's 2 MiB pages for them (arch/x86/ring3.c maps a large page
 * whole when the range covers it); smaller ones take 4 KiB pages where the
 * firmware has them, not a 2 MiB-aligned spot each. */
#define LARGE_PAGE (2ull << 20)
#define SMALL_DATA 64		/* a benchmark that states no size */

static const struct bench_mem *mem;

static struct {
	const struct bench *b;
	void *data;
	uint64_t size;
} buffers[MAX_BENCHES];

struct held {
	void *p;
	uint64_t bytes;
};

static struct held held[MAX_HELD];
static unsigned n_held;

/* The last allocation that failed: the bytes it asked for in one block,
 * what it leaves free besides (BENCH_KEEP_FREE for a sized buffer, else
 * 0) and what the firmware had free then (bench_shortfall_text()). */
struct bench_shortfall {
	uint64_t need, keep;
	uint64_t free, largest;		/* 0, 0: unknown */
	int sibling;			/* asked on the sibling processor */
};

static struct bench_shortfall last;

void bench_init(const struct bench_mem *m)
{
	mem = m;
}

static void firmware_free(uint64_t *total, uint64_t *largest)
{
	*total = *largest = 0;
	if (mem && mem->free)
		mem->free(total, largest);
}

static void short_of(uint64_t need, uint64_t keep)
{
	last = (struct bench_shortfall){ .need = need, .keep = keep };
	if (smp_on_sibling())
		last.sibling = 1;
	else
		firmware_free(&last.free, &last.largest);
}

void *bench_alloc(uint64_t bytes, uint64_t align)
{
	void *p = NULL;

	/* The allocator is the firmware's: never from the sibling. */
	if (!smp_on_sibling() && mem && mem->alloc)
		p = mem->alloc(bytes, align);
	if (!p)
		short_of(bytes, 0);
	else if (n_held < MAX_HELD)
		held[n_held++] = (struct held){ p, bytes };
	return p;
}

static uint64_t fixed_size(const struct bench *b)
{
	return b->data_size ? b->data_size : SMALL_DATA;
}

static int too_big(uint64_t size, uint64_t total, uint64_t largest)
{
	return size > largest || size + BENCH_KEEP_FREE > total;
}

/* The buffer size bench_data(b) asks for when the firmware has total bytes
 * free, largest in one block (pure: host-tested). */
static uint64_t bench_data_want(const struct bench *b, uint64_t total,
				uint64_t largest)
{
	uint64_t size = fixed_size(b);

	if (!b->data_min || (!total && !largest))
		return size;
	while (size / 2 >= b->data_min && too_big(size, total, largest))
		size /= 2;
	return size;
}

/* A new buffer for b, sized and user-mapped; NULL with last set. */
static void *new_buffer(const struct bench *b, uint64_t *size)
{
	uint64_t total, largest;
	void *d;

	firmware_free(&total, &largest);
	*size = bench_data_want(b, total, largest);
	if (b->data_min && (total || largest) &&
	    too_big(*size, total, largest)) {
		short_of(*size, BENCH_KEEP_FREE);
		return NULL;
	}
	/* The largest block may hold the size but not at 2 MiB alignment:
	 * then halve, down to data_min, as when it did not fit at all. */
	while (!(d = bench_alloc(*size, *size >= LARGE_PAGE ? LARGE_PAGE :
				 4096))) {
		if (!b->data_min || *size / 2 < b->data_min)
			return NULL;
		*size /= 2;
	}
	if (ring3_ready() && ring3_map_user(d, *size)) {
		/* no page for ring 3's tables: d stays held, released at
		 * the end (it may be partly user-mapped) */
		short_of(*size, 0);
		return NULL;
	}
	return d;
}

static unsigned slot_of(const struct bench *b)
{
	unsigned i;

	for (i = 0; i < MAX_BENCHES && buffers[i].b; i++)
		if (buffers[i].b == b)
			break;
	return i;
}

void *bench_data(const struct bench *b)
{
	unsigned i = slot_of(b);
	uint64_t size;
	void *d;

	if (i < MAX_BENCHES && buffers[i].b)
		return buffers[i].data;
	if (i == MAX_BENCHES) {
		short_of(fixed_size(b), 0);	/* no slot left */
		return NULL;
	}
	if (!(d = new_buffer(b, &size)))
		return NULL;
	if (b->prepare)
		b->prepare(d, size, 0);
	buffers[i].b = b;
	buffers[i].data = d;
	buffers[i].size = size;
	return d;
}

uint64_t bench_data_size(const struct bench *b)
{
	unsigned i = slot_of(b);

	return i < MAX_BENCHES && buffers[i].b ? buffers[i].size : 0;
}

void bench_release(void)
{
	for (unsigned i = 0; i < n_held; i++)
		if (mem && mem->release)
			mem->release(held[i].p, held[i].bytes);
	n_held = 0;
	memset(buffers, 0, sizeof(buffers));
}

static unsigned long long mib_up(uint64_t bytes)
{
	return (bytes + MIB - 1) / MIB;
}

void bench_shortfall_text(char *buf, unsigned size)
{
	unsigned long long need = mib_up(last.need);
	unsigned long long free = last.free / MIB;

	if (last.sibling)
		fmt_snprintf(buf, size, "needs %llu MiB, asked on the sibling "
			     "processor (no firmware calls there)", need);
	else if (!last.free && !last.largest)
		fmt_snprintf(buf, size, "needs %llu MiB, free memory unknown",
			     need);
	else if (last.need > last.free)
		fmt_snprintf(buf, size, "needs %llu MiB, %llu MiB free", need,
			     free);
	else if (last.need > last.largest)
		fmt_snprintf(buf, size, "needs %llu MiB, %llu MiB free "
			     "(largest block %llu MiB)", need, free,
			     (unsigned long long)(last.largest / MIB));
	else if (last.keep)
		fmt_snprintf(buf, size, "needs %llu MiB, %llu MiB free (%llu "
			     "MiB of it kept for the rest of the run)", need,
			     free, mib_up(last.keep));
	else
		fmt_snprintf(buf, size, "needs %llu MiB, %llu MiB free (the "
			     "allocation failed all the same)", need, free);
}
