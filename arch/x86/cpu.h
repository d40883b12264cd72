/* cpu: x86 CPU primitives (CPUID, MSRs, TSC, PMCs, port I/O, control
 * registers).  The plain MSR/PMC forms fault like the instructions do; use
 * the *_safe forms (safe.h) wherever the access might not exist.  PMU
 * drivers reach MSRs only through pmu/backend.h, never through these. */
#ifndef ARCH_X86_CPU_H
#define ARCH_X86_CPU_H

#include <stdint.h>

/* The general-purpose register width of the build: 64 bits in the x86-64
 * UEFI build, 32 in the i386 legacy-BIOS build. */
typedef unsigned long ureg_t;

/* How a routine run by the tracer, at CPL 3 or as a benchmark is called:
 * fn(uint64_t n, void *data).  x86-64: the SysV ABI (n in RDI, data in
 * RSI).  i386: regparm(3), n in EDX:EAX and data in ECX, so the assembly
 * routines take their arguments in registers as in x86-64 (EBX, ESI, EDI
 * and EBP are callee-saved). */
#if defined(__x86_64__)
#define ROUTINE_ABI
#else
#define ROUTINE_ABI __attribute__((regparm(3)))
#endif

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

#ifdef HOST_CPUID
/* A host tool's CPUID (tools/lab/pmu_detect.c): the leaves of a dump, so
 * that the harness's own detection code runs on a CPU it is not on. */
struct cpuid_regs host_cpuid_count(uint32_t leaf, uint32_t sub);

static inline struct cpuid_regs cpuid_count(uint32_t leaf, uint32_t sub)
{
	return host_cpuid_count(leaf, sub);
}
#else
static inline struct cpuid_regs cpuid_count(uint32_t leaf, uint32_t sub)
{
	struct cpuid_regs r;

	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(sub));
	return r;
}
#endif

static inline struct cpuid_regs cpuid(uint32_t leaf)
{
	return cpuid_count(leaf, 0);
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr"
			 : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32))
			 : "memory");
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t rdpmc(uint32_t idx)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return (uint64_t)hi << 32 | lo;
}

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint16_t inw(uint16_t port)
{
	uint16_t v;

	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* CPUID.01H:EDX.TSC[bit 4] (SDM Vol. 2A, CPUID, Table 3-11): RDTSC is
 * there (a 486 has none). */
static inline int cpu_has_tsc(void)
{
	return cpuid(0).eax >= 1 && (cpuid(1).edx & (1u << 4));
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* Is a 64-bit linear address canonical: bits 63:47 all equal (48-bit
 * linear addresses, SDM Vol. 3A §3.3.7.1, order no. 253668)? */
static inline int canonical48(uint64_t v)
{
	return (uint64_t)((int64_t)(v << 16) >> 16) == v;
}

/* PUSHF/POPF of the mode's width (PUSHFQ/POPFQ in 64-bit mode, PUSHFD/POPFD
 * in 32-bit mode: SDM Vol. 2B). */
static inline ureg_t read_flags(void)
{
	ureg_t f;

	__asm__ volatile("pushf; pop %0" : "=r"(f));
	return f;
}

static inline void write_flags(ureg_t f)
{
	__asm__ volatile("push %0; popf" : : "r"(f) : "memory", "cc");
}

static inline void irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static inline void irq_enable(void)
{
	__asm__ volatile("sti" ::: "memory");
}

/* Control registers are the mode's width (MOV CR, SDM Vol. 2B). */
static inline ureg_t read_cr0(void)
{
	ureg_t v;

	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline ureg_t read_cr3(void)
{
	ureg_t v;

	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline ureg_t read_cr4(void)
{
	ureg_t v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void write_cr4(ureg_t v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

static inline uint16_t read_cs(void)
{
	uint16_t v;

	__asm__ volatile("mov %%cs, %0" : "=r"(v));
	return v;
}

static inline uint16_t read_ss(void)
{
	uint16_t v;

	__asm__ volatile("mov %%ss, %0" : "=r"(v));
	return v;
}

/* The task register's selector (SDM Vol. 3A §7.2.4; STR, Vol. 2B). */
static inline uint16_t read_tr(void)
{
	uint16_t v;

	__asm__ volatile("str %0" : "=r"(v));
	return v;
}

/* A GDTR or IDTR image as SGDT/SIDT store it: a 16-bit limit, then the
 * base, 64 bits in 64-bit mode and 32 bits in 32-bit mode (6 bytes in all;
 * SDM Vol. 3A §2.4.1, §2.4.3).  The base is the register width. */
struct x86_dtr {
	uint16_t limit;
	ureg_t base;
} __attribute__((packed));

static inline void sgdt(struct x86_dtr *d)
{
	__asm__ volatile("sgdt %0" : "=m"(*d));
}

static inline void lgdt(const struct x86_dtr *d)
{
	__asm__ volatile("lgdt %0" : : "m"(*d) : "memory");
}

static inline void sidt(struct x86_dtr *d)
{
	__asm__ volatile("sidt %0" : "=m"(*d));
}

static inline void lidt(const struct x86_dtr *d)
{
	__asm__ volatile("lidt %0" : : "m"(*d) : "memory");
}

/* Serializes instruction execution (SDM Vol. 3A §9.3: CPUID serializes). */
static inline void serialize(void)
{
	cpuid(0);
}

/* CR0.PG: paging on (SDM Vol. 3A §2.5).  Always on in 64-bit mode; the
 * 32-bit build runs with it off (linear = physical). */
#define X86_CR0_PG (1ul << 31)
#define X86_EFLAGS_TF (1u << 8)
#define X86_EFLAGS_IF (1u << 9)
/* CR4.PCE: RDPMC allowed at any CPL (SDM Vol. 3A §2.5, Figure 2-7). */
#define X86_CR4_PCE (1ul << 8)
/* CR4.OSFXSR: SSE instructions enabled (SDM Vol. 3A §2.5). */
#define X86_CR4_OSFXSR (1ul << 9)

#endif
