/* mem: page allocation for the harness's buffers (benchmark data, page
 * tables), from the firmware's boot-services memory, and what the firmware
 * has free (its memory map's EfiConventionalMemory).  Buffers the benchmarks
 * hold for the whole run are given back with mem_release() before the
 * harness returns to the firmware (bench_release()); ring 3's page tables
 * stay with the firmware until reboot (a few pages). */
#ifndef BOOT_MEM_H
#define BOOT_MEM_H

#include <stdint.h>

/* Zeroed memory of at least bytes, aligned to align (a power of two, at
 * least 4096), or NULL.  Exactly the pages that hold bytes are taken: an
 * alignment above 4 KiB is met by choosing the address, not by taking more
 * pages (UEFI 2.10 §7.2 AllocatePages, AllocateAddress). */
void *mem_alloc(uint64_t bytes, uint64_t align);
void *mem_alloc_page(void);
/* Gives back what mem_alloc(bytes, ...) returned. */
void mem_release(void *p, uint64_t bytes);

/* Bytes the firmware has free now (EfiConventionalMemory, UEFI 2.10 §7.2
 * GetMemoryMap) in all and in the largest contiguous block; both 0 when
 * the map cannot be read. */
void mem_free(uint64_t *total, uint64_t *largest);

#endif
