/* mmio: whether a physical register range is reachable (mmio.h). */
#include "mmio.h"
#include <stddef.h>
#include "cpu.h"
#include "paging.h"

const char *mmio_unreachable(uint64_t pa, uint64_t len)
{
	struct paging_leaf leaf;
	uint64_t last = pa + (len ? len - 1 : 0);

	if (last < pa || last > UINTPTR_MAX)
		return "above 4 GiB, out of a 32-bit build's reach (paging "
		       "off, 32-bit pointers)";
	if (!(read_cr0() & X86_CR0_PG))
		return NULL;	/* linear = physical */
	if (paging_lookup(read_cr3(), pa, &leaf))
		return "not mapped (or paging is not 4-level)";
	return NULL;
}
