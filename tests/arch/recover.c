/* arch/recover-*: a fault inside a test is caught, reported with the right
 * vector, error code and RIP, and the harness carries on (SDM Vol. 3A
 * §6.15: #DE, #BP, #UD and #GP are faults except #BP, a trap whose saved
 * RIP is the instruction after INT3). */
#include "../../harness/test.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/trap.h"

#include <stddef.h>

/* Each routine marks the faulting instruction (or, for the trap #BP, the
 * one after it) with a global label the test compares RIP against. */
void fault_ud(void *arg);
void fault_de(void *arg);
void fault_gp(void *arg);
void fault_bp(void *arg);
extern const char fault_ud_insn[], fault_de_insn[], fault_gp_insn[],
	fault_bp_after[];

/* The #GP(0) of each mode: a non-canonical address in 64-bit mode (SDM
 * Vol. 3A §3.3.7.1); in 32-bit mode, where every address is canonical,
 * loading the null selector into SS (MOV, SDM Vol. 2B: #GP(0) outside
 * 64-bit mode).  The MOV faults before SS changes.  (A load through a
 * null DS would do on hardware, but QEMU's TCG does not check data
 * segments.) */
#if defined(__x86_64__)
#define FAULT_GP \
	"	movabsq $0x8000000000000000, %rax\n" \
	"fault_gp_insn: movq (%rax), %rax\n" \
	"	ret\n"
#else
#define FAULT_GP \
	"	xorl %eax, %eax\n" \
	"fault_gp_insn: movw %ax, %ss\n" \
	"	ret\n"
#endif

__asm__(".pushsection .text\n"
	".globl fault_ud, fault_de, fault_gp, fault_bp\n"
	".hidden fault_ud, fault_de, fault_gp, fault_bp\n"
	".globl fault_ud_insn, fault_de_insn, fault_gp_insn, fault_bp_after\n"
	".hidden fault_ud_insn, fault_de_insn, fault_gp_insn, fault_bp_after\n"
	"fault_ud:\n"
	"fault_ud_insn: ud2\n"
	"	ret\n"
	"fault_de:\n"
	"	xorl %ecx, %ecx\n"
	"	movl $1, %eax\n"
	"	xorl %edx, %edx\n"
	"fault_de_insn: divl %ecx\n"
	"	ret\n"
	"fault_gp:\n"
	FAULT_GP
	"fault_bp:\n"
	"	int3\n"
	"fault_bp_after: ret\n"
	".popsection\n");

struct fault_case {
	const char *name;
	void (*fn)(void *);
	const char *rip;
	unsigned vector;
	int has_error;
};

static const struct fault_case cases[] = {
	{ "ud", fault_ud, fault_ud_insn, VEC_UD, 0 },
	{ "de", fault_de, fault_de_insn, VEC_DE, 0 },
	{ "gp", fault_gp, fault_gp_insn, VEC_GP, 1 },
	{ "bp", fault_bp, fault_bp_after, VEC_BP, 0 },
};

static void recover(struct tcase *t, const struct fault_case *c)
{
	ureg_t flags_before = read_flags();
	struct fault f = { 0 };
	int faulted = trap_catch(c->fn, NULL, &f);

	value(t, "vector", "%u", f.vector);
	value(t, "rip", "0x%llx", (unsigned long long)f.rip);
	value(t, "expected_rip", "0x%llx", (unsigned long long)(uintptr_t)c->rip);
	if (!check(t, faulted, "%s: no fault was reported", c->name))
		return;
	check(t, f.vector == c->vector, "%s: vector %u, expected %u (%s)",
	      c->name, f.vector, c->vector, trap_vector_name(c->vector));
	check(t, f.rip == (uintptr_t)c->rip, "%s: rip 0x%llx, expected 0x%llx",
	      c->name, (unsigned long long)f.rip,
	      (unsigned long long)(uintptr_t)c->rip);
	check(t, f.has_error == c->has_error, "%s: error code %s", c->name,
	      f.has_error ? "present, none expected" : "missing");
	if (c->has_error)
		check(t, f.error == 0, "%s: error code 0x%llx, expected 0",
		      c->name, (unsigned long long)f.error);
	/* The caller's interrupt flag survives the fault. */
	check(t, (read_flags() & X86_EFLAGS_IF) == (flags_before & X86_EFLAGS_IF),
	      "%s: IF changed by recovery", c->name);
	check(t, trap_installed(), "%s: harness IDT no longer installed",
	      c->name);
}

static void test_ud(struct tcase *t) { recover(t, &cases[0]); }
static void test_de(struct tcase *t) { recover(t, &cases[1]); }
static void test_gp(struct tcase *t) { recover(t, &cases[2]); }
static void test_bp(struct tcase *t) { recover(t, &cases[3]); }

TEST(arch_recover_ud, "arch/recover-ud",
     "UD2 raises #UD at the UD2, and the test goes on", test_ud, 0);
TEST(arch_recover_de, "arch/recover-de",
     "DIV by zero raises #DE at the DIV", test_de, 0);
TEST(arch_recover_gp, "arch/recover-gp",
     "a non-canonical load (i386: a null SS load) raises #GP(0) at it",
     test_gp, 0);
TEST(arch_recover_bp, "arch/recover-bp",
     "INT3 raises #BP with RIP after the INT3 (a trap)", test_bp, 0);

/* Nested catch frames: an inner fault must not unwind the outer frame. */
static void nested_inner(void *arg)
{
	struct fault f;
	int *ok = arg;

	*ok = trap_catch(fault_ud, NULL, &f) == 1 && f.vector == VEC_UD;
}

static void test_nested(struct tcase *t)
{
	struct fault f;
	int inner_ok = 0;
	int faulted = trap_catch(nested_inner, &inner_ok, &f);

	check(t, !faulted, "outer frame saw the inner fault (vector %u)",
	      f.vector);
	check(t, inner_ok, "inner frame did not report #UD");
}

TEST(arch_recover_nested, "arch/recover-nested",
     "a fault is caught by the innermost frame only", test_nested, 0);
