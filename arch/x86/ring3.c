/* ring3: GDT/TSS, page-table clone and the CPL 3 round trip (ring3.h). */
#include "ring3.h"
#include "cpu.h"
#include "../../lib/string.h"

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

#define GDT_MAX 64
#define MAX_TABLES 512
#define USER_STACK 16384
#define SCRATCH (64 * 1024)

/* 64-bit TSS (SDM Vol. 3A §8.7, Figure 8-11). */
struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

void ring3_iret(ring3_fn fn, uint64_t n, void *data, uint64_t user_rsp,
		uint64_t rflags, uint64_t cs, uint64_t ss)
	__attribute__((noreturn));
void ring3_exit_entry(void);
extern const char __user_text_start[], __user_text_end[];

struct catch_ctx ring3_return_ctx;

static uint64_t gdt[GDT_MAX] __attribute__((aligned(16)));
/* In a page of its own from alloc_page, never freed, not in the image:
 * where the firmware had no TR, ours stays loaded after the run (LTR
 * cannot load a null selector, SDM Vol. 2A "LTR": #GP(0)), and must
 * still name valid memory after the image is unloaded. */
static struct tss64 *tss_page;
#define tss (*tss_page)
static struct desc_ptr firmware_gdt;
static uint16_t firmware_tr;
static uint16_t user_cs, user_ss, tss_sel;
static uint8_t user_stack[USER_STACK] __attribute__((aligned(4096)));
static uint8_t scratch[SCRATCH] __attribute__((aligned(4096)));

static void *(*alloc_page)(void);
static uint64_t *pml4;
static uint64_t *owned[MAX_TABLES];
static unsigned n_owned;
static int ready;

void *ring3_scratch(void)
{
	return scratch;
}

int ring3_ready(void)
{
	return ready;
}

/* Descriptors (SDM Vol. 3A §3.4.5, §5.2.1): user data (type 2, DPL 3),
 * user 64-bit code (type 0xA, DPL 3, L=1), available 64-bit TSS (type 9). */
#define DESC_USER_DATA 0x00cff2000000ffffull
#define DESC_USER_CODE64 0x00affa000000ffffull

static void set_tss_desc(unsigned idx)
{
	uint64_t base = (uint64_t)&tss, limit = sizeof(tss) - 1;

	gdt[idx] = (limit & 0xffff) | (base & 0xffffff) << 16 |
		   0x89ull << 40 | ((limit >> 16) & 0xf) << 48 |
		   ((base >> 24) & 0xff) << 56;
	gdt[idx + 1] = base >> 32;
}

static int build_gdt(const char **why)
{
	unsigned n;

	if (!tss_page && !(tss_page = alloc_page())) {
		*why = "no page for the TSS";
		return -1;
	}
	__asm__ volatile("sgdt %0" : "=m"(firmware_gdt));
	__asm__ volatile("str %0" : "=r"(firmware_tr));
	n = (firmware_gdt.limit + 1u) / 8;
	if (n + 4 > GDT_MAX) {
		*why = "firmware GDT too large to extend";
		return -1;
	}
	memset(gdt, 0, sizeof(gdt));
	memcpy(gdt, (void *)firmware_gdt.base, n * 8);
	gdt[n] = DESC_USER_DATA;
	gdt[n + 1] = DESC_USER_CODE64;
	set_tss_desc(n + 2);
	user_ss = (uint16_t)(n * 8 | 3);
	user_cs = (uint16_t)((n + 1) * 8 | 3);
	tss_sel = (uint16_t)((n + 2) * 8);
	memset(&tss, 0, sizeof(tss));
	tss.iomap_base = sizeof(tss);	/* no I/O bitmap: CPL 3 I/O faults */
	struct desc_ptr p = { (uint16_t)(sizeof(gdt) - 1), (uint64_t)gdt };
	__asm__ volatile("lgdt %0" : : "m"(p) : "memory");
	__asm__ volatile("ltr %0" : : "r"(tss_sel) : "memory");
	return 0;
}

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
	uint64_t *t = (uint64_t *)(*e & PTE_ADDR), *c;

	if (!is_owned(t)) {
		if (!(c = new_table()))
			return NULL;
		memcpy(c, t, 4096);
		*e = (*e & ~PTE_ADDR) | (uint64_t)c;
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
	*e = (uint64_t)t | (attrs & ~PTE_PS & 0xfff) | PTE_P | PTE_W;
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

static int map_range(const void *addr, uint64_t len, uint64_t bits)
{
	uint64_t va = (uint64_t)addr & ~0xfffull;
	uint64_t end = ((uint64_t)addr + len + 0xfff) & ~0xfffull;

	if (!ready && !pml4)
		return -1;
	while (va < end) {
		uint64_t next;

		if (map_page(va, end, bits, &next))
			return -1;
		va = next;
	}
	return 0;
}

int ring3_map_user(const void *addr, uint64_t len)
{
	return map_range(addr, len, PTE_U | PTE_W);
}

static int build_page_tables(const char **why)
{
	uint64_t *fw = (uint64_t *)(read_cr3() & PTE_ADDR);

	n_owned = 0;
	if (!(pml4 = new_table())) {
		*why = "no memory for page tables";
		return -1;
	}
	memcpy(pml4, fw, 4096);
	if (map_range(__user_text_start, __user_text_end - __user_text_start,
		      PTE_U) ||
	    map_range(user_stack, sizeof(user_stack), PTE_U | PTE_W) ||
	    map_range(scratch, sizeof(scratch), PTE_U | PTE_W)) {
		*why = "could not map the user pages";
		return -1;
	}
	return 0;
}

int ring3_setup(void *(*alloc)(void), const char **why)
{
	alloc_page = alloc;
	ready = 0;
	if (!trap_installed()) {
		*why = "harness IDT not installed";
		return -1;
	}
	if (build_page_tables(why))
		return -1;
	if (build_gdt(why))
		return -1;
	ready = 1;
	return 0;
}

void ring3_teardown(void)
{
	if (!ready)
		return;
	__asm__ volatile("lgdt %0" : : "m"(firmware_gdt) : "memory");
	if (firmware_tr) {
		/* LTR needs an available TSS: clear the busy bit (type 0xB). */
		uint8_t *type = (uint8_t *)firmware_gdt.base +
				(firmware_tr & ~7u) + 5;

		*type &= (uint8_t)~0x02;
		__asm__ volatile("ltr %0" : : "r"(firmware_tr) : "memory");
	}
	/* else: a null TR cannot be put back; ours stays, its TSS in a page
	 * that outlives the image (tss_page).  Firmware with a null TR
	 * never reads a TSS (no CPL 3, no IST), docs/reliability.md. */
	ready = 0;
}

struct r3_call {
	ring3_fn fn;
	uint64_t n;
	void *data;
	uint64_t rflags;
};

static void enter(void *arg)
{
	struct r3_call *c = arg;
	uint64_t rsp;

	if (catch_save(&ring3_return_ctx))
		return;		/* back through the exit gate */
	__asm__ volatile("mov %%rsp, %0" : "=r"(rsp));
	/* Exceptions from CPL 3 push below this frame. */
	tss.rsp[0] = (rsp - 256) & ~15ull;
	ring3_iret(c->fn, c->n, c->data, (uint64_t)user_stack + USER_STACK,
		   0x2 | c->rflags, user_cs, user_ss);
}

static void flush_tlb(uint64_t cr4)
{
	if (cr4 & CR4_PGE) {	/* also drop global translations */
		write_cr4(cr4 & ~CR4_PGE);
		write_cr4(cr4);
	}
}

int ring3_run(ring3_fn fn, uint64_t n, void *data, uint64_t extra_rflags,
	      struct fault *f)
{
	struct r3_call c = { fn, n, data, extra_rflags & ~(uint64_t)X86_EFLAGS_IF };
	uint64_t cr3 = read_cr3(), cr4 = read_cr4(), flags = read_flags();
	int faulted;

	/* On another processor (the sibling, smp.h) TR is not our TSS:
	 * an exception from CPL 3 would find no ring-0 stack of ours
	 * (SDM Vol. 3A §6.14.4, order no. 253668): refuse. */
	if (!ready || read_tr() != tss_sel) {
		f->vector = 0;
		return -1;
	}
	irq_disable();
	write_cr4(cr4 & ~(CR4_SMEP | CR4_SMAP));
	__asm__ volatile("mov %0, %%cr3" : : "r"((uint64_t)pml4 | (cr3 & 0xfff))
			 : "memory");
	flush_tlb(cr4 & ~(CR4_SMEP | CR4_SMAP));
	/* The exit gate is lent only while IF is clear (trap.h). */
	trap_claim_vector(RING3_EXIT_VECTOR, ring3_exit_entry, 3);
	faulted = trap_catch(enter, &c, f);
	trap_release_vector(RING3_EXIT_VECTOR);
	__asm__ volatile("mov %0, %%cr3" : : "r"(cr3) : "memory");
	write_cr4(cr4);
	flush_tlb(cr4);
	write_flags(flags);
	return faulted;
}
