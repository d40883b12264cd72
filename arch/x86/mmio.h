/* mmio: reaching a device's registers (the local APIC, an I/O APIC, the
 * HPET) at a physical address the firmware or ACPI gave as 64 bits.
 *
 * The harness uses physical = linear addresses.  x86-64 (UEFI): paging is
 * on and UEFI identity-maps MMIO, but check the page tables before
 * touching it (paging.h).  i386 (BIOS boot): paging is off, so every
 * address below 4 GiB is reachable as it is (SDM Vol. 3A §3.1: linear =
 * physical without paging), and none above: a 32-bit pointer cannot name
 * it. */
#ifndef ARCH_X86_MMIO_H
#define ARCH_X86_MMIO_H

#include <stdint.h>

/* NULL when [pa, pa + len) can be reached through mmio_ptr(pa), else
 * why not: a constant phrase that ends "<the registers> are ...":
 * "not mapped (or paging is not 4-level)" or "above 4 GiB, ...". */
const char *mmio_unreachable(uint64_t pa, uint64_t len);

/* The pointer for pa (check mmio_unreachable() first). */
static inline volatile void *mmio_ptr(uint64_t pa)
{
	return (volatile void *)(uintptr_t)pa;
}

#endif
