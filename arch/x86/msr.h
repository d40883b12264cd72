/* msr: architectural MSR numbers and the bit fields the harness uses.
 * Numbers and fields: Intel SDM Vol. 4 (order no. 335592), Table 2-2
 * "IA-32 Architectural MSRs", unless a line says otherwise.  PMU
 * generation layouts live in each generation's header under pmu/. */
#ifndef ARCH_X86_MSR_H
#define ARCH_X86_MSR_H

/* Pentium machine-check address/type and the TSC exist from the Pentium
 * on (SDM Vol. 4, Table 2-2 entries 0H, 1H, 10H). */
#define MSR_IA32_P5_MC_ADDR 0x0
#define MSR_IA32_P5_MC_TYPE 0x1
#define MSR_IA32_TSC 0x10

#define MSR_IA32_APIC_BASE 0x1b

/* Microcode revision in bits 63:32 after CPUID.1 (SDM Vol. 3A §9.11.7.1). */
#define MSR_IA32_BIOS_SIGN_ID 0x8b

/* Bit 7 performance monitoring available, 11 BTS unavailable, 12 PEBS
 * unavailable. */
#define MSR_IA32_MISC_ENABLE 0x1a0
#define MISC_ENABLE_PERFMON (1ull << 7)
#define MISC_ENABLE_BTS_UNAVAIL (1ull << 11)
#define MISC_ENABLE_PEBS_UNAVAIL (1ull << 12)

/* Bit 12 FREEZE_PERFMON_ON_PMI (SDM Vol. 3B §17.4.1). */
#define MSR_IA32_DEBUGCTL 0x1d9

/* Present when CPUID.01H:ECX.PDCM; PEBS record format in bits 11:8. */
#define MSR_IA32_PERF_CAPABILITIES 0x345

#define MSR_IA32_EFER 0xc0000080
#define EFER_SCE (1ull << 0)
#define EFER_LME (1ull << 8)
#define EFER_LMA (1ull << 10)
#define EFER_NXE (1ull << 11)

/* Protection keys for supervisor pages; bits 63:32 reserved. */
#define MSR_IA32_PKRS 0x6e1

#define MSR_IA32_FS_BASE 0xc0000100
#define MSR_IA32_GS_BASE 0xc0000101

#endif
