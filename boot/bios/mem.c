/* mem: page allocation for the legacy-BIOS build (see boot/mem.h), from
 * the RAM the Multiboot memory map calls available (type 1), above 1 MiB
 * and below 4 GiB (the build runs with paging off: no higher address is
 * reachable), less the harness's own image.  Free memory is kept as a
 * short list of page-aligned ranges; mem_release() puts a block back.
 * Below 1 MiB it hands out one page, for the application processors'
 * start-up code (bios_low_page()). */
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

/* Below 1 MiB: the map's available RAM, and what the loader left there
 * that the harness may still read (bios_low_page()). */
#define MAX_LOW 16
#define MAX_LOADER 16
#define LOW_FIRST 0x1000ull	/* past the IVT (0-3FFh) and BDA (400h-4FFh) */
static struct range low_ranges[MAX_LOW], loader_ranges[MAX_LOADER];
static unsigned n_low, n_loader;

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

static void add_low(uint64_t start, uint64_t end)
{
	if (end > LOW_LIMIT)
		end = LOW_LIMIT;
	if (start < end && n_low < MAX_LOW)
		low_ranges[n_low++] = (struct range){ start, end };
}

static void add_loader(uint64_t start, uint64_t bytes)
{
	if (bytes && start < LOW_LIMIT && n_loader < MAX_LOADER)
		loader_ranges[n_loader++] = (struct range){ start,
							    start + bytes };
}

static uint64_t string_bytes(uint32_t at)
{
	const char *s = (const char *)(uintptr_t)at;
	uint64_t n = 0;

	while (at && at + n < LOW_LIMIT && s[n])
		n++;
	return at ? n + 1 : 0;
}

/* What of the loader's the harness may still read after the entry (the
 * strings are copied, but a page is claimed later): the information
 * structure and what it points to (Multiboot 0.6.96 §3.3). */
static void note_loader(const struct multiboot_info *mb)
{
	const uint32_t *mod = (const uint32_t *)(uintptr_t)mb->mods_addr;

	n_loader = 0;
	add_loader((uintptr_t)mb, sizeof(*mb));
	if (mb->flags & MB_INFO_MMAP)
		add_loader(mb->mmap_addr, mb->mmap_length);
	if (mb->flags & MB_INFO_CMDLINE)
		add_loader(mb->cmdline, string_bytes(mb->cmdline));
	if (mb->flags & MB_INFO_LOADER_NAME)
		add_loader(mb->boot_loader_name,
			   string_bytes(mb->boot_loader_name));
	if (!(mb->flags & MB_INFO_MODS) || !mb->mods_addr)
		return;
	add_loader(mb->mods_addr, (uint64_t)mb->mods_count * 16);
	/* each module: start, end, its string, reserved */
	for (uint32_t i = 0; i < mb->mods_count && i < MAX_LOADER; i++)
		add_loader(mod[4 * i], mod[4 * i + 1] - mod[4 * i]);
}

void bios_mem_init(const struct multiboot_info *mb)
{
	uint64_t floor = (uint64_t)(uintptr_t)_end;

	if (floor < LOW_LIMIT)
		floor = LOW_LIMIT;
	n_ranges = n_low = 0;
	note_loader(mb);
	if (mb->flags & MB_INFO_MMAP) {
		uintptr_t p = mb->mmap_addr, end = p + mb->mmap_length;

		while (p + sizeof(struct multiboot_mmap) <= end) {
			const struct multiboot_mmap *m = (const void *)p;

			if (m->type == MB_MMAP_AVAILABLE) {
				add_available(m->addr, m->addr + m->len, floor);
				add_low(m->addr, m->addr + m->len);
			}
			p += m->size + sizeof(m->size);
		}
	} else if (mb->flags & MB_INFO_MEMORY) {
		add_available(LOW_LIMIT, LOW_LIMIT +
			      (uint64_t)mb->mem_upper * 1024, floor);
		add_low(0, (uint64_t)mb->mem_lower * 1024);
	}
}

static int overlaps(const struct range *r, unsigned n, uint64_t start,
		    uint64_t end)
{
	for (unsigned i = 0; i < n; i++)
		if (start < r[i].end && r[i].start < end)
			return 1;
	return 0;
}

static int inside_low(uint64_t start, uint64_t end)
{
	for (unsigned i = 0; i < n_low; i++)
		if (low_ranges[i].start <= start && end <= low_ranges[i].end)
			return 1;
	return 0;
}

/* The lowest page from 1000h up, below the EBDA (or the end of base
 * memory the BDA gives), that the map calls available and the loader's
 * structures do not touch.  Why the lowest: low memory's top holds the
 * EBDA and, on some BIOSes, data the map does not mark; from 1000h up
 * nothing of the BIOS's remains once it has booted (its own AP start-up
 * and boot-sector areas are dead), and the harness puts nothing below
 * 1 MiB.  The SIPI's vector is the page number (SDM Vol. 3A §8.4.4.1),
 * so the page is below 100000h and not at 0. */
uint32_t bios_low_page(const char **why)
{
	uint64_t top = bios_ebda() ? bios_ebda() : bios_base_memory_end();

	if (!n_low) {
		*why = "the Multiboot memory map lists no RAM below 1 MiB";
		return 0;
	}
	for (uint64_t p = LOW_FIRST; p + PAGE <= top; p += PAGE)
		if (inside_low(p, p + PAGE) &&
		    !overlaps(loader_ranges, n_loader, p, p + PAGE))
			return (uint32_t)p;
	*why = "no 4 KiB page below the EBDA that the memory map calls "
	       "available and the loader's data leave free";
	return 0;
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
