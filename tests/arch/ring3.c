/* arch/ring3-*: code runs at CPL 3 and comes back; CPL 3 cannot execute
 * privileged instructions (SDM Vol. 3A §5.9: privileged instructions at
 * CPL > 0 raise #GP(0)), load a DPL 0 data segment (§5.7), or reach an I/O
 * port with IOPL 0 and no I/O permission bitmap; and what memory it sees
 * depends on the mode (arch/x86/ring3.h): in x86-64 only the pages granted
 * to it, in i386 (paging off, segments only) every byte. */
#include "../../harness/test.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/msr.h"
#include "../../arch/x86/ring3.h"
#include "../../arch/x86/safe.h"
#include <stddef.h>

/* Code run at CPL 3 by ring3_run(): on the user pages, called with the
 * routine ABI (cpu.h). */
#define USER __attribute__((section(".text.user"), noinline)) ROUTINE_ABI
#define PF_USER (1u << 2)		/* #PF error code bit 2: from CPL 3 */
/* TF, IF, DF, IOPL, NT, AC (SDM Vol. 1 §3.4.3) */
#define SYSTEM_FLAGS 0x47700ull

static uint64_t kernel_secret = 0x1234;

#define READ_SEG(reg)                                                        \
	({                                                                   \
		uint16_t v_;                                                 \
		__asm__ volatile("mov %%" #reg ", %0" : "=r"(v_));           \
		v_;                                                          \
	})

static USER void user_report_cpl(uint64_t n, void *data)
{
	uint16_t cs;

	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	((uint64_t *)data)[0] = cs & 3;
	((uint64_t *)data)[1] = n;
}

static void test_roundtrip(struct tcase *t)
{
	uint64_t *d = ring3_scratch();
	uint64_t cr3 = read_cr3(), flags = read_flags();
	uint16_t ds = READ_SEG(ds), es = READ_SEG(es), ss = READ_SEG(ss);
	uint16_t fs = READ_SEG(fs), gs = READ_SEG(gs);
	struct fault f;
	int r;

	if (!check(t, ring3_ready(), "ring 3 is not set up"))
		return;
	d[0] = d[1] = 99;
	/* Bits 63:32 set: in i386 n travels in EDX:EAX. */
	r = ring3_run(user_report_cpl, 0x3a0000002aull, d, 0, &f);
	value(t, "cpl_seen", "%llu", (unsigned long long)d[0]);
	value(t, "arg_seen", "0x%llx", (unsigned long long)d[1]);
	check(t, r == 0, "ring3_run returned %d (vector %u)", r, f.vector);
	check(t, d[0] == 3, "code ran at CPL %llu, expected 3",
	      (unsigned long long)d[0]);
	check(t, d[1] == 0x3a0000002aull, "argument 0x%llx, expected "
	      "0x3a0000002a", (unsigned long long)d[1]);
	check(t, read_cr3() == cr3, "CR3 not restored");
	/* System flags must be as before (arithmetic flags may differ). */
	check(t, (read_flags() & SYSTEM_FLAGS) == (flags & SYSTEM_FLAGS),
	      "RFLAGS 0x%llx, was 0x%llx", (unsigned long long)read_flags(),
	      (unsigned long long)flags);
	check(t, READ_SEG(ds) == ds && READ_SEG(es) == es &&
	      READ_SEG(ss) == ss, "DS ES SS 0x%x 0x%x 0x%x, were 0x%x 0x%x "
	      "0x%x", READ_SEG(ds), READ_SEG(es), READ_SEG(ss), ds, es, ss);
	/* x86-64 leaves FS and GS null after CPL 3 (the IRET to CPL 3 nulls
	 * DPL 0 selectors, SDM Vol. 2A "IRET"; nothing of the harness uses
	 * them); i386 puts them back, checked in the paging-off test. */
	value(t, "fs_gs_before", "0x%x 0x%x", fs, gs);
	value(t, "fs_gs_after", "0x%x 0x%x", READ_SEG(fs), READ_SEG(gs));
}

TEST(arch_ring3_roundtrip, "arch/ring3-roundtrip",
     "a function runs at CPL 3 with its arguments and returns to CPL 0",
     test_roundtrip, 0);

static USER void user_ud(uint64_t n, void *data)
{
	__asm__ volatile("ud2");
}

static USER void user_cli(uint64_t n, void *data)
{
	__asm__ volatile("cli");
}

static USER void user_inb(uint64_t n, void *data)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"((uint16_t)n));
	*(volatile uint8_t *)data = v;
}

static USER void user_load_ds(uint64_t n, void *data)
{
	__asm__ volatile("mov %0, %%ds" : : "r"((uint16_t)n) : "memory");
}

static USER void user_rdmsr(uint64_t n, void *data)
{
	uint64_t v = 0x5afe;

	((int64_t *)data)[0] = rdmsr_safe((uint32_t)n, &v);
	((uint64_t *)data)[1] = v;
}

/* Runs fn at CPL 3 and checks that it faulted with vector at CPL 3;
 * error >= 0: the error code it must carry. */
static void expect_fault(struct tcase *t, ring3_fn fn, uint64_t n,
			 unsigned vector, long long error, const char *what)
{
	struct fault f = { 0 };
	int r;

	if (!check(t, ring3_ready(), "ring 3 is not set up"))
		return;
	r = ring3_run(fn, n, ring3_scratch(), 0, &f);
	value(t, "vector", "%u", f.vector);
	value(t, "cs", "0x%llx", (unsigned long long)f.cs);
	value(t, "error_code", "0x%llx", (unsigned long long)f.error);
	if (!check(t, r == 1, "%s: no fault", what))
		return;
	check(t, f.vector == vector, "%s: vector %u, expected %u", what,
	      f.vector, vector);
	check(t, (f.cs & 3) == 3, "%s: fault at CPL %llu, expected 3", what,
	      (unsigned long long)(f.cs & 3));
	if (vector == VEC_PF)
		check(t, f.error & PF_USER, "%s: #PF error 0x%llx lacks U/S",
		      what, (unsigned long long)f.error);
	else if (error >= 0)
		check(t, f.error == (uint64_t)error, "%s: error code 0x%llx, "
		      "expected 0x%llx", what, (unsigned long long)f.error,
		      (unsigned long long)error);
}

static void test_ud(struct tcase *t)
{
	expect_fault(t, user_ud, 0, VEC_UD, -1, "ud2 at CPL 3");
}

static void test_cli(struct tcase *t)
{
	expect_fault(t, user_cli, 0, VEC_GP, 0, "cli at CPL 3 with IOPL 0");
}

/* The TSS's I/O map base lies past its limit: no I/O permission bitmap,
 * so with CPL > IOPL every IN/OUT raises #GP(0) (SDM Vol. 1, "I/O
 * Permission Bit Map").  Port 0x80 (POST codes) is harmless to read. */
static void test_io(struct tcase *t)
{
	expect_fault(t, user_inb, 0x80, VEC_GP, 0,
		     "IN from port 0x80 at CPL 3 with IOPL 0");
}

/* MOV to DS of a data segment whose DPL is below both CPL and RPL raises
 * #GP(selector) (SDM Vol. 2B "MOV", Vol. 3A §5.7): the harness's own
 * stack segment (DPL 0) loaded with RPL 0 at CPL 3.  With paging off
 * (i386) this is what keeps CPL 3 on its own descriptors. */
static void test_kernel_segment(struct tcase *t)
{
	uint16_t sel = READ_SEG(ss) & (uint16_t)~3u;

	value(t, "selector", "0x%x", sel);
	expect_fault(t, user_load_ds, sel, VEC_GP, sel,
		     "MOV DS of the DPL 0 data selector at CPL 3");
}

TEST(arch_ring3_ud, "arch/ring3-fault-ud",
     "#UD at CPL 3 is caught and reported with CPL 3", test_ud, 0);
TEST(arch_ring3_cli, "arch/ring3-fault-cli",
     "CLI at CPL 3 raises #GP(0)", test_cli, 0);
TEST(arch_ring3_io, "arch/ring3-fault-io",
     "IN at CPL 3 with IOPL 0 and no I/O permission bitmap raises #GP(0)",
     test_io, 0);
TEST(arch_ring3_segment, "arch/ring3-fault-kernel-segment",
     "loading the harness's DPL 0 data selector at CPL 3 raises "
     "#GP(selector)", test_kernel_segment, 0);

static USER void user_read_kernel(uint64_t n, void *data)
{
	*(volatile uint64_t *)data = *(volatile uint64_t *)(uintptr_t)n;
}

/* The one mode-dependent assertion: what a CPL 3 load from the harness's
 * data does.  x86-64 pages it out of ring 3's reach; the i386 build runs
 * with paging off and flat user segments, so nothing stops the load
 * (arch/x86/ring3.h) - asserted, so a change to either is seen. */
#if defined(__x86_64__)
static void test_kernel_page(struct tcase *t)
{
	expect_fault(t, user_read_kernel, (uintptr_t)&kernel_secret, VEC_PF,
		     -1, "load from a supervisor page");
}

TEST(arch_ring3_page, "arch/ring3-fault-supervisor-page",
     "a CPL 3 load from a page not granted to ring 3 raises #PF(U)",
     test_kernel_page, 0);
#else
static void test_kernel_readable(struct tcase *t)
{
	uint64_t *d = ring3_scratch();
	uint16_t fs = READ_SEG(fs), gs = READ_SEG(gs), ss = READ_SEG(ss);
	uint16_t fs_after, gs_after;
	struct fault f;
	int r;

	if (!check(t, ring3_ready(), "ring 3 is not set up"))
		return;
	d[0] = 0;
	/* FS and GS hold the harness's DPL 0 data selector during the run:
	 * ring3_entry.S gives them the user one, ring3_run() must put them
	 * back (arch/x86/i386/ring3_mode.c). */
	__asm__ volatile("mov %0, %%fs; mov %0, %%gs" : : "r"(ss));
	r = ring3_run(user_read_kernel, (uintptr_t)&kernel_secret, d, 0, &f);
	fs_after = READ_SEG(fs);
	gs_after = READ_SEG(gs);
	__asm__ volatile("mov %0, %%fs; mov %1, %%gs" : : "r"(fs), "r"(gs));
	check(t, fs_after == ss && gs_after == ss, "FS GS 0x%x 0x%x after "
	      "CPL 3, were 0x%x 0x%x", fs_after, gs_after, ss, ss);
	value(t, "caveat", "%s", ring3_caveat() ? ring3_caveat() : "");
	value(t, "read", "0x%llx", (unsigned long long)d[0]);
	check(t, ring3_caveat() != NULL, "ring3_caveat() does not say that "
	      "CPL 3 is kept apart by segments only");
	check(t, r == 0, "the load faulted (vector %u): paging is off, "
	      "no page protection was expected", f.vector);
	check(t, d[0] == 0x1234, "CPL 3 read 0x%llx from the harness's "
	      "data, expected 0x1234", (unsigned long long)d[0]);
}

TEST(arch_ring3_paging_off, "arch/ring3-paging-off-no-page-protection",
     "with paging off (i386) a CPL 3 load from the harness's data succeeds: "
     "segments only, no U/S pages", test_kernel_readable, 0);
#endif

/* RDMSR at CPL > 0 raises #GP(0) (SDM Vol. 2B RDMSR): the *_safe form
 * returns 13 there, on every machine and emulator. */
static void test_rdmsr_cpl3(struct tcase *t)
{
	int64_t *d = ring3_scratch();
	struct fault f;
	int r;

	if (!check(t, ring3_ready(), "ring 3 is not set up"))
		return;
	d[0] = -1;
	d[1] = 0;
	r = ring3_run(user_rdmsr, MSR_IA32_EFER, d, 0, &f);
	value(t, "vector", "%lld", (long long)d[0]);
	value(t, "output", "0x%llx", (unsigned long long)d[1]);
	check(t, r == 0, "ring3_run faulted (vector %u)", f.vector);
	check(t, d[0] == VEC_GP, "rdmsr_safe(IA32_EFER) at CPL 3 returned "
	      "%lld, expected 13 (#GP)", (long long)d[0]);
	check(t, d[1] == 0x5afe, "output changed on a fault");
}

TEST(arch_rdmsr_cpl3, "arch/rdmsr-safe-gp",
     "rdmsr_safe at CPL 3 returns 13 (#GP) and leaves the output alone",
     test_rdmsr_cpl3, 0);
