/* mem: page allocation through UEFI boot services (see mem.h). */
#include "../mem.h"
#include "efi.h"
#include "../../lib/string.h"

#define PAGE 4096ull
#define MAP_TRIES 4

static uint64_t pages_of(uint64_t bytes)
{
	return (bytes + PAGE - 1) / PAGE;
}

/* The memory map in pool memory the caller frees, or NULL.  The pool
 * allocation itself may add descriptors, hence room for a few more and
 * the retries (UEFI 2.10 §7.2 GetMemoryMap: EFI_BUFFER_TOO_SMALL returns
 * the size needed). */
static EFI_MEMORY_DESCRIPTOR *read_map(UINTN *size, UINTN *desc_size)
{
	EFI_MEMORY_DESCRIPTOR *map = NULL;
	UINTN key;
	UINT32 version;
	EFI_STATUS s;

	*size = 0;
	for (int i = 0; i < MAP_TRIES; i++) {
		s = efi.bs->GetMemoryMap(size, map, &key, desc_size, &version);
		if (s == EFI_SUCCESS && map)
			return map;
		if (map)
			efi.bs->FreePool(map);
		map = NULL;
		if (s != EFI_BUFFER_TOO_SMALL)
			return NULL;
		*size += 4 * sizeof(EFI_MEMORY_DESCRIPTOR);
		if (efi.bs->AllocatePool(EfiLoaderData, *size, (void **)&map) !=
		    EFI_SUCCESS)
			return NULL;
	}
	if (map)
		efi.bs->FreePool(map);
	return NULL;
}

static EFI_MEMORY_DESCRIPTOR *desc_at(EFI_MEMORY_DESCRIPTOR *map, UINTN i,
				      UINTN desc_size)
{
	return (EFI_MEMORY_DESCRIPTOR *)((uint8_t *)map + i * desc_size);
}

void mem_free(uint64_t *total, uint64_t *largest)
{
	UINTN size, desc_size;
	EFI_MEMORY_DESCRIPTOR *map = read_map(&size, &desc_size);

	*total = *largest = 0;
	if (!map)
		return;
	for (UINTN i = 0; i < size / desc_size; i++) {
		EFI_MEMORY_DESCRIPTOR *d = desc_at(map, i, desc_size);
		uint64_t bytes = d->NumberOfPages * PAGE;

		if (d->Type != EfiConventionalMemory)
			continue;
		*total += bytes;
		if (bytes > *largest)
			*largest = bytes;
	}
	efi.bs->FreePool(map);
}

/* The highest address aligned to align at which pages free pages start,
 * inside one EfiConventionalMemory descriptor; 0 when there is none.  Any
 * such address is usable as is: on x64 the firmware identity-maps all
 * memory its map describes (UEFI 2.10 §2.3.4). */
static uint64_t aligned_spot(uint64_t pages, uint64_t align)
{
	UINTN size, desc_size;
	EFI_MEMORY_DESCRIPTOR *map = read_map(&size, &desc_size);
	uint64_t best = 0;

	if (!map)
		return 0;
	for (UINTN i = 0; i < size / desc_size; i++) {
		EFI_MEMORY_DESCRIPTOR *d = desc_at(map, i, desc_size);
		uint64_t lo = d->PhysicalStart;
		uint64_t hi = lo + d->NumberOfPages * PAGE, at;

		if (d->Type != EfiConventionalMemory ||
		    d->NumberOfPages < pages)
			continue;
		at = (hi - pages * PAGE) & ~(align - 1);
		if (at >= lo && at && at > best)
			best = at;
	}
	efi.bs->FreePool(map);
	return best;
}

void *mem_alloc(uint64_t bytes, uint64_t align)
{
	EFI_PHYSICAL_ADDRESS a;
	uint64_t pages = pages_of(bytes ? bytes : 1);

	if (align <= PAGE) {
		if (efi.bs->AllocatePages(AllocateAnyPages, EfiLoaderData,
					  pages, &a) != EFI_SUCCESS)
			return NULL;
	} else {
		a = aligned_spot(pages, align);
		if (!a || efi.bs->AllocatePages(AllocateAddress, EfiLoaderData,
						pages, &a) != EFI_SUCCESS)
			return NULL;
	}
	memset((void *)(uintptr_t)a, 0, pages * PAGE);
	return (void *)(uintptr_t)a;
}

void *mem_alloc_page(void)
{
	return mem_alloc(PAGE, PAGE);
}

void mem_release(void *p, uint64_t bytes)
{
	if (p)
		efi.bs->FreePages((EFI_PHYSICAL_ADDRESS)(uintptr_t)p,
				  pages_of(bytes ? bytes : 1));
}
