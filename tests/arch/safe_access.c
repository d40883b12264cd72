/* arch safe access: the *_safe instructions return the exception vector
 * instead of faulting (0 on success) and leave the output alone on a fault. */
#include "../../harness/test.h"
#include "../../arch/x86/cpu.h"
#include "../../arch/x86/msr.h"
#include "../../arch/x86/safe.h"
#include "../../arch/x86/trap.h"
#include "../../pmu/detect.h"
#include "../../pmu/p5/driver.h"

#define POISON 0x5afe5afe5afe5afeull

/* IA32_EFER exists where CPUID.80000001H:EDX.XD[bit 20] or .LM[bit 29]
 * is set (SDM Vol. 4 Table 2-2, IA32_EFER). */
static int efer_exists(void)
{
	if (cpuid(0x80000000u).eax < 0x80000001u)
		return 0;
	return !!(cpuid(0x80000001u).edx & (1u << 20 | 1u << 29));
}

/* In 64-bit mode IA32_EFER must read with LME and LMA set (SDM Vol. 3A
 * §9.8.5): a value every x86-64 machine and QEMU agree on.  The 32-bit
 * build runs in legacy protected mode: where the MSR exists it reads with
 * LMA clear (and LME too: the harness never sets it), and where it does
 * not (a Pentium) the read raises #GP. */
static void test_rdmsr_ok(struct tcase *t)
{
	uint64_t v = POISON;
	int vec = rdmsr_safe(MSR_IA32_EFER, &v);
	int long_mode = sizeof(void *) == 8;

	value(t, "vector", "%d", vec);
	value(t, "efer", "0x%llx", (unsigned long long)v);
	if (long_mode) {
		check(t, vec == 0, "rdmsr_safe(IA32_EFER) returned vector %d",
		      vec);
		check(t, (v & (EFER_LME | EFER_LMA)) == (EFER_LME | EFER_LMA),
		      "IA32_EFER 0x%llx lacks LME|LMA in long mode",
		      (unsigned long long)v);
		return;
	}
	value(t, "efer_in_cpuid", "%d", efer_exists());
	if (vec) {
		check(t, vec == VEC_GP && !efer_exists(), "rdmsr_safe("
		      "IA32_EFER) returned vector %d; CPUID says the MSR %s",
		      vec, efer_exists() ? "exists" : "does not exist (#GP "
		      "expected)");
		check(t, v == POISON, "output changed on a fault");
		return;
	}
	check(t, !(v & (EFER_LME | EFER_LMA)), "IA32_EFER 0x%llx has LME or "
	      "LMA set in 32-bit protected mode", (unsigned long long)v);
}

TEST(arch_rdmsr_safe_ok, "arch/rdmsr-safe-reads",
     "rdmsr_safe of IA32_EFER returns 0 and LME=LMA=1 in 64-bit mode "
     "(32-bit: LME=LMA=0, or #GP where there is no IA32_EFER)",
     test_rdmsr_ok, 0);

/*
 * IA32_PKRS bits 63:32 are reserved: a write that sets one raises #GP
 * where the MSR exists (SDM Vol. 3A §4.6.2), and any access raises #GP
 * where it does not (no CPUID.(EAX=07H,ECX=0):ECX.PKS) - #GP either way.
 */
static void test_wrmsr_fault(struct tcase *t)
{
	int vec = wrmsr_safe(MSR_IA32_PKRS, 1ull << 40);

	value(t, "msr", "0x%x", MSR_IA32_PKRS);
	value(t, "wrote", "0x%llx", 1ull << 40);
	value(t, "vector", "%d", vec);
	check(t, vec == VEC_GP, "wrmsr_safe(IA32_PKRS, bit 40) returned "
	      "vector %d, expected 13 (#GP)", vec);
	if (!vec)
		(void)wrmsr_safe(MSR_IA32_PKRS, 0);
}

TEST(arch_wrmsr_safe_fault, "arch/wrmsr-safe-gp",
     "wrmsr_safe setting a reserved bit of IA32_PKRS returns 13 (#GP)",
     test_wrmsr_fault, 0);

/*
 * RDPMC of a counter index no processor has (ECX = 0x3fff) raises #GP
 * (SDM Vol. 2B RDPMC: "If the value in ECX ... is not a valid counter").
 * QEMU under TCG implements no RDPMC at all and raises #UD instead, and so
 * does a Pentium without MMX technology, which has counters but no RDPMC
 * (Vol. 2B RDPMC: introduced with the Pentium Pro and the Pentium with
 * MMX technology); the test states which it expects from what the CPU
 * reports.
 */
static void test_rdpmc_fault(struct tcase *t)
{
	const struct cpu_info *ci = cpu_info();
	uint64_t v = POISON;
	int vec = rdpmc_safe(0x3fff, &v);
	/* no PMU, or no RDPMC: #UD allowed */
	int allowed_ud = !ci->probe.present ||
			 (ci->pmu == PMU_P5 && !p5_has_rdpmc());

	value(t, "vector", "%d", vec);
	value(t, "pmu_present", "%d", ci->probe.present);
	check(t, vec == VEC_GP || (allowed_ud && vec == VEC_UD),
	      "rdpmc_safe(0x3fff) returned vector %d, expected 13 (#GP)%s",
	      vec, allowed_ud ? " or 6 (#UD, no PMU or no RDPMC)" : "");
	check(t, v == POISON, "output changed on a fault");
}

TEST(arch_rdpmc_safe_fault, "arch/rdpmc-safe-fault",
     "rdpmc_safe of an invalid counter index reports the fault",
     test_rdpmc_fault, 0);
