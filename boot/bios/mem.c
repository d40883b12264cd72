/* mem: page allocation for the legacy-BIOS build (see boot/mem.h), from
 * the RAM the Multiboot memory map calls available (type 1), above 1 MiB
 * and below 4 GiB (the build runs with paging off: no higher address is
 * reachable), less the harness's own image.  Free memory is kept as a
 * short list of page-aligned ranges; mem_release() puts a block back. */
#include "bios.h"
#include "../mem.h"
#include "../../lib/string.h"

#define PAGE		4096u
#define MAX_RANGES	64
#define LOW_LIMIT	0x100000ull		/* the BIOS's first MiB */
#define HIGH_LIMIT	0x100000000ull		/* 4 GiB */

struct range {
	uint64_t start, end;			/* [start, end), page-aligned */
};

static struct range free_ranges[MAX_RANGES];
static unsigned n_ranges;

extern char _end[];

static void add_range(uint64_t start, uint64_t end)
{
	start = (start + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	end &= ~(uint64_t)(PAGE - 1);
	if (end <= start || n_ranges == MAX_RANGES)
		return;
	free_ranges[n_ranges++] = (struct range){ start, end };
}

/* Adds [start, end) less what lies below `floor` (the BIOS area, the
 * harness image) or above 4 GiB. */
static void add_available(uint64_t start, uint64_t end, uint64_t floor)
{
	if (end > HIGH_LIMIT)
		end = HIGH_LIMIT;
	if (start < floor)
		start = floor;
	add_range(start, end);
}

void bios_mem_init(const struct multiboot_info *mb)
{
	uint64_t floor = (uint64_t)(uintptr_t)_end;

	if (floor < LOW_LIMIT)
		floor = LOW_LIMIT;
	n_ranges = 0;
	if (mb->flags & MB_INFO_MMAP) {
		uintptr_t p = mb->mmap_addr, end = p + mb->mmap_length;

		while (p + sizeof(struct multiboot_mmap) <= end) {
			const struct multiboot_mmap *m = (const void *)p;

			if (m->type == MB_MMAP_AVAILABLE)
				add_available(m->addr, m->addr + m->len, floor);
			p += m->size + sizeof(m->size);
		}
	} else if (mb->flags & MB_INFO_MEMORY) {
		add_available(LOW_LIMIT, LOW_LIMIT +
			      (uint64_t)mb->mem_upper * 1024, floor);
	}
}

void *mem_alloc(uint64_t bytes, uint64_t align)
{
	uint64_t size = (bytes + PAGE - 1) & ~(uint64_t)(PAGE - 1);

	if (!size || align < PAGE)
		align = PAGE;
	for (unsigned i = 0; i < n_ranges && size; i++) {
		struct range *r = &free_ranges[i];
		uint64_t at = (r->start + align - 1) & ~(align - 1);

		if (at + size > r->end || at + size < at)
			continue;
		if (at > r->start && n_ranges < MAX_RANGES)
			free_ranges[n_ranges++] = (struct range){ r->start, at };
		else if (at > r->start)
			continue;	/* no slot to keep the gap in */
		r->start = at + size;
		memset((void *)(uintptr_t)at, 0, (size_t)size);
		return (void *)(uintptr_t)at;
	}
	return NULL;
}

void *mem_alloc_page(void)
{
	return mem_alloc(PAGE, PAGE);
}

/* Joins the block to a neighbouring range where it touches one. */
void mem_release(void *p, uint64_t bytes)
{
	uint64_t start = (uint64_t)(uintptr_t)p;
	uint64_t end = start + ((bytes + PAGE - 1) & ~(uint64_t)(PAGE - 1));

	if (!p || !bytes)
		return;
	for (unsigned i = 0; i < n_ranges; i++) {
		if (free_ranges[i].start == end) {
			free_ranges[i].start = start;
			return;
		}
		if (free_ranges[i].end == start) {
			free_ranges[i].end = end;
			return;
		}
	}
	add_range(start, end);
}

void mem_free(uint64_t *total, uint64_t *largest)
{
	*total = *largest = 0;
	for (unsigned i = 0; i < n_ranges; i++) {
		uint64_t n = free_ranges[i].end - free_ranges[i].start;

		*total += n;
		if (n > *largest)
			*largest = n;
	}
}
