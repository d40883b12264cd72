/* ring3: GDT/TSS and the CPL 3 round trip (ring3.h).  The mode's half -
 * its TSS (ring3_desc.h), memory protection and the IRET to CPL 3 - is in
 * arch/x86/<mode>/ring3_mode.c and ring3_entry.S. */
#include "ring3.h"
#include "ring3_desc.h"
#include "ring3_mode.h"
#include "cpu.h"
#include "../../lib/string.h"

#define GDT_MAX 64
#define USER_STACK 16384
#define SCRATCH (64 * 1024)

/* A GDTR image as SGDT stores it: 16-bit limit, then a base of the
 * register width (SDM Vol. 3A §2.4.1). */
struct desc_ptr {
	uint16_t limit;
	uintptr_t base;
} __attribute__((packed));

struct catch_ctx ring3_return_ctx;

static uint64_t gdt[GDT_MAX] __attribute__((aligned(16)));
/* In a page of its own from alloc_page, never freed, not in the image:
 * where the firmware had no TR, ours stays loaded after the run (LTR
 * cannot load a null selector, SDM Vol. 2A "LTR": #GP(0)), and must
 * still name valid memory after the image is unloaded. */
static struct ring3_tss *tss_page;
#define tss (*tss_page)
static struct desc_ptr firmware_gdt;
static uint16_t firmware_tr;
static uint16_t user_cs, user_ss, tss_sel;
static uint8_t user_stack[USER_STACK] __attribute__((aligned(4096)));
static uint8_t scratch[SCRATCH] __attribute__((aligned(4096)));
static void *(*alloc_page)(void);
static int ready;

void *ring3_scratch(void)
{
	return scratch;
}

int ring3_ready(void)
{
	return ready;
}

extern const char ring3_trampoline[], ring3_trampoline_end[];

int ring3_trampoline_has(uint64_t ip)
{
	return ip >= (uintptr_t)ring3_trampoline &&
	       ip < (uintptr_t)ring3_trampoline_end;
}

const char *ring3_caveat(void)
{
	return ring3_mode_caveat;
}

/* User data: flat, type 2 (read/write), DPL 3 (SDM Vol. 3A §3.4.5); the
 * same descriptor serves both modes.  User code and the TSS are the
 * mode's (ring3_desc.h). */
#define DESC_USER_DATA 0x00cff2000000ffffull

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
	if (n + 2 + RING3_TSS_SLOTS > GDT_MAX) {
		*why = "firmware GDT too large to extend";
		return -1;
	}
	memset(gdt, 0, sizeof(gdt));
	memcpy(gdt, (void *)firmware_gdt.base, n * 8);
	gdt[n] = DESC_USER_DATA;
	gdt[n + 1] = RING3_DESC_USER_CODE;
	ring3_tss_desc(&gdt[n + 2], &tss);
	user_ss = (uint16_t)(n * 8 | 3);
	user_cs = (uint16_t)((n + 1) * 8 | 3);
	tss_sel = (uint16_t)((n + 2) * 8);
	memset(&tss, 0, sizeof(tss));
	ring3_tss_init(&tss, read_ss());
	struct desc_ptr p = { (uint16_t)(sizeof(gdt) - 1), (uintptr_t)gdt };
	__asm__ volatile("lgdt %0" : : "m"(p) : "memory");
	__asm__ volatile("ltr %0" : : "r"(tss_sel) : "memory");
	return 0;
}

int ring3_map_user(const void *addr, uint64_t len)
{
	return ring3_mode_map(addr, len, 1);
}

int ring3_setup(void *(*alloc)(void), const char **why)
{
	alloc_page = alloc;
	ready = 0;
	if (!trap_installed()) {
		*why = "harness IDT not installed";
		return -1;
	}
	if (ring3_mode_setup(alloc, why))
		return -1;
	if (ring3_mode_map(user_stack, sizeof(user_stack), 1) ||
	    ring3_mode_map(scratch, sizeof(scratch), 1)) {
		*why = "could not map the user pages";
		return -1;
	}
	if (build_gdt(why))
		return -1;
	ready = 1;
	return 0;
}

/* The TR found at setup names a TSS descriptor (S = 0, type 9 or 0BH:
 * available or busy, 32-bit or 64-bit; SDM Vol. 3A §8.2.2, Table 3-2)
 * inside the GDT that teardown puts back. */
static int firmware_tr_is_tss(void)
{
	const uint8_t *type;

	if (!firmware_tr || (firmware_tr & 4) ||
	    (firmware_tr & ~7u) + 7u > firmware_gdt.limit)
		return 0;
	type = (const uint8_t *)firmware_gdt.base + (firmware_tr & ~7u) + 5;
	return (*type & 0x1d) == 0x09;
}

void ring3_teardown(void)
{
	if (!ready)
		return;
	__asm__ volatile("lgdt %0" : : "m"(firmware_gdt) : "memory");
	if (firmware_tr_is_tss()) {
		/* LTR needs an available TSS: clear the busy bit (type 0xB). */
		uint8_t *type = (uint8_t *)firmware_gdt.base +
				(firmware_tr & ~7u) + 5;

		*type &= (uint8_t)~0x02;
		__asm__ volatile("ltr %0" : : "r"(firmware_tr) : "memory");
	}
	/* else: a null TR cannot be put back; ours stays, its TSS in a page
	 * that outlives the image (tss_page).  Firmware with a null TR
	 * never reads a TSS (no CPL 3, no IST), docs/reliability.md.  Nor
	 * can a TR that names no TSS in the GDT put back: a BIOS boot loaded
	 * its own GDT over the boot loader's, whose TR (SYSLINUX's 08h) then
	 * names a code segment there, and LTR would raise #GP. */
	ready = 0;
}

struct r3_call {
	ring3_fn fn;
	uint64_t n;
	void *data;
	ureg_t flags;
};

static void enter(void *arg)
{
	struct r3_call *c = arg;

	if (catch_save(&ring3_return_ctx))
		return;		/* back through the exit gate */
	/* Exceptions from CPL 3 push below this frame. */
	ring3_tss_stack0(&tss, (ring3_stack_pointer() - 256) & ~(uintptr_t)15);
	ring3_iret(c->fn, c->n, c->data,
		   (uintptr_t)user_stack + USER_STACK, 0x2 | c->flags,
		   user_cs, user_ss);
}

int ring3_run(ring3_fn fn, uint64_t n, void *data, uint64_t extra_rflags,
	      struct fault *f)
{
	struct r3_call c = {
		fn, n, data, (ureg_t)extra_rflags & ~(ureg_t)X86_EFLAGS_IF
	};
	ureg_t flags = read_flags();
	struct ring3_saved s;
	int faulted;

	/* On another processor (the sibling, smp.h) TR is not our TSS:
	 * an exception from CPL 3 would find no ring-0 stack of ours
	 * (SDM Vol. 3A §6.12.1, §6.14.4, order no. 253668): refuse. */
	if (!ready || read_tr() != tss_sel) {
		f->vector = 0;
		return -1;
	}
	irq_disable();
	ring3_mode_enter(&s);
	/* The exit gate is lent only while IF is clear (trap.h). */
	trap_claim_vector(RING3_EXIT_VECTOR, ring3_exit_entry, 3);
	faulted = trap_catch(enter, &c, f);
	trap_release_vector(RING3_EXIT_VECTOR);
	ring3_mode_leave(&s);
	write_flags(flags);
	return faulted;
}
