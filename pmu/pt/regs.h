/* pmu/pt/regs.h: Intel Processor Trace's MSRs - their addresses and
 * IA32_RTIT_CTL, IA32_RTIT_STATUS and IA32_RTIT_OUTPUT_MASK_PTRS as masks
 * and shifts.  The lowest header of the folder: the driver (driver.c), the
 * model (model.c) and its packet generator (gen.c) build on it; no .c
 * goes with it, the layout is all constants.
 *
 * Sources: Intel SDM Vol. 3C, order no. 326019-060US, chapter 36
 * "Intel Processor Trace": §36.2.7 "Model Specific Registers"
 * (IA32_RTIT_CTL Table 36-6, IA32_RTIT_STATUS Table 36-7,
 * IA32_RTIT_OUTPUT_BASE / _MASK_PTRS §36.2.7.7-8), §36.2.6 "Trace
 * Output" (single-range output, ToPA); MSR addresses Vol. 4 Table 2-2.
 * PT exists when CPUID.(EAX=07H,ECX=0):EBX[25] is set (pmu/detect.h
 * CPUID7_EBX_PT); what it offers is CPUID leaf 14H (caps.h).
 *
 * The driver programs the real MSRs through the backend (pmu/backend.h):
 * on hardware with PT, the CPU writes the packets; under the model
 * (pmu/pt/model.c, part of the arch-perfmon model) the packet generator
 * (pmu/pt/gen.c) writes the stream the SDM prescribes from the trace.
 * docs/pt.md describes both. */
#ifndef PMU_PT_REGS_H
#define PMU_PT_REGS_H

/* MSRs (Vol. 4 Table 2-2). */
#define MSR_IA32_RTIT_OUTPUT_BASE 0x560u
#define MSR_IA32_RTIT_OUTPUT_MASK_PTRS 0x561u
#define MSR_IA32_RTIT_CTL 0x570u
#define MSR_IA32_RTIT_STATUS 0x571u
#define MSR_IA32_RTIT_CR3_MATCH 0x572u
#define MSR_IA32_RTIT_ADDR_A(n) (0x580u + 2 * (n))
#define MSR_IA32_RTIT_ADDR_B(n) (0x581u + 2 * (n))

/* IA32_RTIT_CTL (Table 36-6). */
#define RTIT_CTL_TRACEEN (1ull << 0)
#define RTIT_CTL_CYCEN (1ull << 1)
#define RTIT_CTL_OS (1ull << 2)
#define RTIT_CTL_USER (1ull << 3)
#define RTIT_CTL_PWREVTEN (1ull << 4)
#define RTIT_CTL_FUPONPTW (1ull << 5)
#define RTIT_CTL_FABRICEN (1ull << 6)
#define RTIT_CTL_CR3FILTER (1ull << 7)
#define RTIT_CTL_TOPA (1ull << 8)
#define RTIT_CTL_MTCEN (1ull << 9)
#define RTIT_CTL_TSCEN (1ull << 10)
#define RTIT_CTL_DISRETC (1ull << 11)
#define RTIT_CTL_PTWEN (1ull << 12)
#define RTIT_CTL_BRANCHEN (1ull << 13)
#define RTIT_CTL_MTCFREQ_SHIFT 14	/* bits 17:14 */
#define RTIT_CTL_CYCTHRESH_SHIFT 19	/* bits 22:19 */
#define RTIT_CTL_PSBFREQ_SHIFT 24	/* bits 27:24 */
#define RTIT_CTL_FIELD_MASK 0xfull
#define RTIT_CTL_ADDR_CFG_SHIFT(n) (32 + 4 * (n))	/* bits 35:32 ... */

/* IA32_RTIT_STATUS (Table 36-7). */
#define RTIT_STATUS_FILTEREN (1ull << 0)
#define RTIT_STATUS_CONTEXTEN (1ull << 1)
#define RTIT_STATUS_TRIGGEREN (1ull << 2)
#define RTIT_STATUS_ERROR (1ull << 4)
#define RTIT_STATUS_STOPPED (1ull << 5)
#define RTIT_STATUS_PACKETBYTECNT_SHIFT 32	/* bits 48:32 */

/* IA32_RTIT_OUTPUT_MASK_PTRS in single-range mode (§36.2.7.8): bits
 * 31:0 the range's size - 1 (bits 6:0 read as 1s), bits 63:32 the
 * offset of the next byte. */
#define RTIT_MASK_LOWER 0x7full
#define RTIT_OUTPUT_OFFSET_SHIFT 32

#endif
