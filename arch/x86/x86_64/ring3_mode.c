/* ring3_mode (x86-64): the copy-on-write clone of the firmware's page
 * tables in which only what ring 3 is granted is user-accessible, and the
 * CR3/CR4 switch around a CPL 3 call (ring3.h, ring3_mode.h). */
#include "../ring3_mode.h"
#include "../cpu.h"
#include "../../../lib/string.h"

/* Paging-structure entry bits (SDM Vol. 3A §4.5, Tables 4-15 to 4-20). */
#define PTE_P (1ull << 0)
#define PTE_W (1ull << 1)
#define PTE_U (1ull << 2)
#define PTE_PS (1ull << 7)
#define PTE_PAT_4K (1ull << 7)
#define PTE_PAT_LARGE (1ull << 12)
#define PTE_ADDR 0x000ffffffffff000ull
#define CR4_PGE (1ull << 7)
#define CR4_SMEP (1ull << 20)
#define CR4_SMAP (1ull << 21)

#define MAX_TABLES 512

extern const char __user_text_start[], __user_text_end[];

const char *const ring3_mode_caveat = NULL;

static void *(*alloc_page)(void);
static uint64_t *pml4;
static uint64_t *owned[MAX_TABLES];
static unsigned n_owned;

static int is_owned(const uint64_t *t)
{
	for (unsigned i = 0; i < n_owned; i++)
		if (owned[i] == t)
			return 1;
	return 0;
}

static uint64_t *new_table(void)
{
	uint64_t *t;

	if (n_owned == MAX_TABLES || !(t = alloc_page()))
		return NULL;
	owned[n_owned++] = t;
	return t;
}

/* Points *e at a table of ours, cloning the firmware's on first use. */
static uint64_t *own_next(uint64_t *e)
{
	uint64_t *t = (uint64_t *)(uintptr_t)(*e & PTE_ADDR), *c;

	if (!is_owned(t)) {
		if (!(c = new_table()))
			return NULL;
		memcpy(c, t, 4096);
		*e = (*e & ~PTE_ADDR) | (uintptr_t)c;
		t = c;
	}
	*e |= PTE_U | PTE_W;	/* upper levels permit; the leaf decides */
	return t;
}

/* Replaces a 1 GiB (level 3) or 2 MiB (level 2) page by a table of
 * pages one level smaller with the same attributes. */
static int split_large(uint64_t *e, int level)
{
	uint64_t size = level == 3 ? 1ull << 30 : 1ull << 21;
	uint64_t step = size / 512, base = *e & PTE_ADDR & ~(size - 1);
	uint64_t attrs = *e & ~PTE_ADDR & ~PTE_PAT_LARGE;
	int pat = !!(*e & PTE_PAT_LARGE);
	uint64_t *t = new_table();

	if (!t)
		return -1;
	for (unsigned i = 0; i < 512; i++) {
		uint64_t a = attrs;

		if (level == 2) {	/* 4 KiB PTEs: no PS, PAT in bit 7 */
			a &= ~PTE_PS;
			if (pat)
				a |= PTE_PAT_4K;
		} else if (pat) {
			a |= PTE_PAT_LARGE;
		}
		t[i] = (base + i * step) | a;
	}
	*e = (uintptr_t)t | (attrs & ~PTE_PS & 0xfff) | PTE_P | PTE_W;
	return 0;
}

static int map_page(uint64_t va, uint64_t end, uint64_t leaf_bits,
		    uint64_t *next)
{
	uint64_t *t = pml4, *e;

	for (int level = 4; level >= 1; level--) {
		unsigned shift = 12 + 9 * (level - 1);
		uint64_t size = 1ull << shift;

		e = &t[(va >> shift) & 511];
		if (!(*e & PTE_P))
			return -1;
		if (level == 1 || ((level == 2 || level == 3) && (*e & PTE_PS))) {
			if (level > 1 && (va & (size - 1) || end - va < size)) {
				if (split_large(e, level))
					return -1;
			} else {
				*e |= leaf_bits;
				*next = (va & ~(size - 1)) + size;
				return 0;
			}
		}
		if (!(t = own_next(e)))
			return -1;
	}
	return -1;
}

int ring3_mode_map(const void *addr, uint64_t len, int writable)
{
	uint64_t va = (uintptr_t)addr & ~0xfffull;
	uint64_t end = ((uintptr_t)addr + len + 0xfff) & ~0xfffull;
	uint64_t bits = writable ? PTE_U | PTE_W : PTE_U;

	if (!pml4)
		return -1;
	while (va < end) {
		uint64_t next;

		if (map_page(va, end, bits, &next))
			return -1;
		va = next;
	}
	return 0;
}

int ring3_mode_setup(void *(*alloc)(void), const char **why)
{
	uint64_t *fw = (uint64_t *)(uintptr_t)(read_cr3() & PTE_ADDR);

	alloc_page = alloc;
	n_owned = 0;
	if (!(pml4 = new_table())) {
		*why = "no memory for page tables";
		return -1;
	}
	memcpy(pml4, fw, 4096);
	if (ring3_mode_map(__user_text_start,
			   __user_text_end - __user_text_start, 0)) {
		*why = "could not map the user pages";
		return -1;
	}
	return 0;
}

static void flush_tlb(ureg_t cr4)
{
	if (cr4 & CR4_PGE) {	/* also drop global translations */
		write_cr4(cr4 & ~CR4_PGE);
		write_cr4(cr4);
	}
}

void ring3_mode_enter(struct ring3_saved *s)
{
	ureg_t cr4;

	s->cr3 = read_cr3();
	s->cr4 = read_cr4();
	cr4 = s->cr4 & ~(CR4_SMEP | CR4_SMAP);
	write_cr4(cr4);
	__asm__ volatile("mov %0, %%cr3"
			 : : "r"((uintptr_t)pml4 | (s->cr3 & 0xfff))
			 : "memory");
	flush_tlb(cr4);
}

void ring3_mode_leave(const struct ring3_saved *s)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(s->cr3) : "memory");
	write_cr4(s->cr4);
	flush_tlb(s->cr4);
}
