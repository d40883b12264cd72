/* paging: read-only walk of IA-32e page tables (paging.h). */
#include "paging.h"
#include "cpu.h"

/* Paging off (the i386 build): linear addresses are physical ones (SDM
 * Vol. 3A §4.1.1), 32 bits wide, with no page-level protection (§5.1) and
 * no PAT index (the PAT is selected by paging-structure entries, §11.12.3;
 * the MTRRs give the memory type, §11.11). */
static int lookup_identity(uint64_t va, struct paging_leaf *out)
{
	if (va > 0xffffffffull)
		return -1;
	out->entry = va & ~0xfffull;
	out->level = 0;
	out->writable = 1;
	out->user = 1;
	out->pat_index = 0;
	return 0;
}

static unsigned pat_index(uint64_t e, int level)
{
	uint64_t pat = level == 1 ? PG_PAT_4K : PG_PAT_LARGE;

	return (e & pat ? 4u : 0) | (e & PG_PCD ? 2u : 0) |
	       (e & PG_PWT ? 1u : 0);
}

int paging_lookup(uint64_t cr3, uint64_t va, struct paging_leaf *out)
{
	const uint64_t *t = (const uint64_t *)(uintptr_t)(cr3 & PG_ADDR);
	int writable = 1, user = 1;

	if (!(read_cr0() & X86_CR0_PG))
		return lookup_identity(va, out);
	/* A 32-bit build would find 32-bit or PAE tables, which are not
	 * walked here; the i386 build never turns paging on (paging.h). */
	if (sizeof(uintptr_t) < 8 || (read_cr4() & CR4_LA57))
		return -1;
	for (int level = 4; level >= 1; level--) {
		unsigned shift = 12 + 9 * (unsigned)(level - 1);
		uint64_t e = t[(va >> shift) & 511];

		if (!(e & PG_P))
			return -1;
		writable &= !!(e & PG_W);
		user &= !!(e & PG_U);
		if (level == 1 || ((level == 2 || level == 3) && (e & PG_PS))) {
			out->entry = e;
			out->level = level;
			out->writable = writable;
			out->user = user;
			out->pat_index = pat_index(e, level);
			return 0;
		}
		t = (const uint64_t *)(uintptr_t)(e & PG_ADDR);
	}
	return -1;
}

int paging_range_writable(uint64_t va, uint64_t len)
{
	uint64_t cr3 = read_cr3(), end = va + len, page;
	struct paging_leaf leaf;

	if (!len || end < va)
		return 0;
	for (page = va & ~0xfffull; page < end; page += 0x1000)
		if (paging_lookup(cr3, page, &leaf) || !leaf.writable)
			return 0;
	return 1;
}
