/* tests/host/pmu/pt/pt_sdm.h: what the PT host suites (test_model.c,
 * test_gen.c) check, restated from the SDM rather than taken from
 * pmu/pt/regs.h, caps.h or lib/pt/encode.c, so that a misreading there
 * does not become the tests' expectation too.
 *
 * Intel SDM Vol. 3C, order no. 326019-060US, chapter 36 (MSR addresses
 * also Vol. 4, order no. 335592, Table 2-2 "IA-32 Architectural MSRs").
 */
#ifndef TESTS_HOST_PMU_PT_PT_SDM_H
#define TESTS_HOST_PMU_PT_PT_SDM_H

/* Vol. 4 Table 2-2: the IA32_RTIT_* MSRs. */
#define SDM_RTIT_OUTPUT_BASE 0x560u
#define SDM_RTIT_OUTPUT_MASK_PTRS 0x561u
#define SDM_RTIT_CTL 0x570u
#define SDM_RTIT_STATUS 0x571u
#define SDM_RTIT_CR3_MATCH 0x572u
#define SDM_RTIT_ADDR_A(n) (0x580u + 2 * (n))	/* ADDR0_A 580H ... */
#define SDM_RTIT_ADDR_B(n) (0x581u + 2 * (n))

/* IA32_RTIT_CTL, Table 36-6. */
#define SDM_CTL_TRACEEN (1ull << 0)
#define SDM_CTL_CYCEN (1ull << 1)
#define SDM_CTL_OS (1ull << 2)
#define SDM_CTL_USER (1ull << 3)
#define SDM_CTL_PWREVTEN (1ull << 4)
#define SDM_CTL_FUPONPTW (1ull << 5)
#define SDM_CTL_FABRICEN (1ull << 6)
#define SDM_CTL_CR3FILTER (1ull << 7)
#define SDM_CTL_TOPA (1ull << 8)
#define SDM_CTL_MTCEN (1ull << 9)
#define SDM_CTL_TSCEN (1ull << 10)
#define SDM_CTL_DISRETC (1ull << 11)
#define SDM_CTL_PTWEN (1ull << 12)
#define SDM_CTL_BRANCHEN (1ull << 13)
#define SDM_CTL_MTCFREQ(v) ((uint64_t)(v) << 14)	/* bits 17:14 */
#define SDM_CTL_CYCTHRESH(v) ((uint64_t)(v) << 19)	/* bits 22:19 */
#define SDM_CTL_PSBFREQ(v) ((uint64_t)(v) << 24)	/* bits 27:24 */
#define SDM_CTL_ADDR_CFG(n, v) ((uint64_t)(v) << (32 + 4 * (n)))
/* reserved in every CPU: 18, 23, 31:28, 63:48 */

/* IA32_RTIT_STATUS, Table 36-7. */
#define SDM_STATUS_FILTEREN (1ull << 0)
#define SDM_STATUS_CONTEXTEN (1ull << 1)
#define SDM_STATUS_TRIGGEREN (1ull << 2)
#define SDM_STATUS_ERROR (1ull << 4)
#define SDM_STATUS_STOPPED (1ull << 5)
#define SDM_STATUS_BYTECNT(v) ((uint64_t)(v) << 32)	/* bits 48:32 */

/* CPUID.(EAX=14H, ECX=0), Table 36-11. */
#define SDM_EBX_CR3FILTER (1u << 0)
#define SDM_EBX_PSB_CYC (1u << 1)	/* PSBFreq, CYCEn, CycThresh */
#define SDM_EBX_IPFILTER (1u << 2)
#define SDM_EBX_MTC (1u << 3)
#define SDM_EBX_PTWRITE (1u << 4)
#define SDM_EBX_POWER (1u << 5)
#define SDM_ECX_TOPA (1u << 0)
#define SDM_ECX_SINGLE (1u << 2)
#define SDM_ECX_TRANSPORT (1u << 3)
/* CPUID.(EAX=14H, ECX=1), Table 36-12: EAX[2:0] address ranges,
 * EAX[31:16] MTC period bitmap, EBX[15:0] CYC threshold bitmap,
 * EBX[31:16] PSB frequency bitmap. */

#endif
