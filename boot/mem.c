/* mem: page allocation through UEFI boot services (see mem.h). */
#include "mem.h"
#include "efi.h"
#include "../lib/string.h"

void *mem_alloc(uint64_t bytes, uint64_t align)
{
	EFI_PHYSICAL_ADDRESS a;
	uint64_t pages, aligned;

	if (align < 4096)
		align = 4096;
	pages = (bytes + align - 1 + 4095) / 4096;
	if (efi.bs->AllocatePages(AllocateAnyPages, EfiLoaderData, pages, &a) !=
	    EFI_SUCCESS)
		return NULL;
	aligned = (a + align - 1) & ~(align - 1);
	memset((void *)(uintptr_t)aligned, 0, bytes);
	return (void *)(uintptr_t)aligned;
}

void *mem_alloc_page(void)
{
	return mem_alloc(4096, 4096);
}
