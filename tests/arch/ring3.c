/* arch/ring3-*: code runs at CPL 3 and comes back; CPL 3 sees only the
 * pages granted to it and cannot execute privileged instructions (SDM
 * Vol. 3A §5.9: privileged instructions at CPL > 0 raise #GP(0)). */
#include "../../harness/test.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/msr.h"
#include "../../arch/x86/ring3.h"
#include "../../arch/x86/safe.h"

#define USER __attribute__((section(".text.user"), noinline))
#define PF_USER (1u << 2)		/* #PF error code bit 2: from CPL 3 */
/* TF, IF, DF, IOPL, NT, AC (SDM Vol. 1 §3.4.3) */
#define SYSTEM_FLAGS 0x47700ull

static uint64_t kernel_secret = 0x1234;

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
	struct fault f;
	int r;

	if (!check(t, ring3_ready(), "ring 3 is not set up"))
		return;
	d[0] = d[1] = 99;
	r = ring3_run(user_report_cpl, 42, d, 0, &f);
	value(t, "cpl_seen", "%llu", (unsigned long long)d[0]);
	value(t, "arg_seen", "%llu", (unsigned long long)d[1]);
	check(t, r == 0, "ring3_run returned %d (vector %u)", r, f.vector);
	check(t, d[0] == 3, "code ran at CPL %llu, expected 3",
	      (unsigned long long)d[0]);
	check(t, d[1] == 42, "argument %llu, expected 42",
	      (unsigned long long)d[1]);
	check(t, read_cr3() == cr3, "CR3 not restored");
	/* System flags must be as before (arithmetic flags may differ). */
	check(t, (read_flags() & SYSTEM_FLAGS) == (flags & SYSTEM_FLAGS),
	      "RFLAGS 0x%llx, was 0x%llx", (unsigned long long)read_flags(),
	      (unsigned long long)flags);
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

static USER void user_read_kernel(uint64_t n, void *data)
{
	*(volatile uint64_t *)data = *(volatile uint64_t *)(uintptr_t)n;
}

static USER void user_rdmsr(uint64_t n, void *data)
{
	uint64_t v = 0x5afe;

	((int64_t *)data)[0] = rdmsr_safe((uint32_t)n, &v);
	((uint64_t *)data)[1] = v;
}

static void expect_fault(struct tcase *t, ring3_fn fn, uint64_t n,
			 unsigned vector, const char *what)
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
}

static void test_ud(struct tcase *t)
{
	expect_fault(t, user_ud, 0, VEC_UD, "ud2 at CPL 3");
}

static void test_cli(struct tcase *t)
{
	expect_fault(t, user_cli, 0, VEC_GP, "cli at CPL 3 with IOPL 0");
}

static void test_kernel_page(struct tcase *t)
{
	expect_fault(t, user_read_kernel, (uintptr_t)&kernel_secret, VEC_PF,
		     "load from a supervisor page");
}

TEST(arch_ring3_ud, "arch/ring3-fault-ud",
     "#UD at CPL 3 is caught and reported with CPL 3", test_ud, 0);
TEST(arch_ring3_cli, "arch/ring3-fault-cli",
     "CLI at CPL 3 raises #GP(0)", test_cli, 0);
TEST(arch_ring3_page, "arch/ring3-fault-supervisor-page",
     "a CPL 3 load from a page not granted to ring 3 raises #PF(U)",
     test_kernel_page, 0);

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
