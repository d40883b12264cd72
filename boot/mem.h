/* mem: page allocation for the harness's buffers (benchmark data, page
 * tables), from the firmware's boot-services memory.  Freed by nobody: the
 * run is short and the firmware reclaims loader memory on reboot. */
#ifndef BOOT_MEM_H
#define BOOT_MEM_H

#include <stdint.h>

/* Zeroed memory of at least bytes, aligned to align (a power of two, at
 * least 4096), or NULL. */
void *mem_alloc(uint64_t bytes, uint64_t align);
void *mem_alloc_page(void);

#endif
