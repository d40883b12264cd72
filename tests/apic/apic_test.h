/* apic_test: the local-APIC facts the apic/ tests (and perfmon/pmi-*)
 * check, written out from the SDM (Vol. 3A, order no. 253668-059US) in
 * the tests' own words rather than taken from arch/x86/apic.h, so that a
 * wrong bit there cannot make an expectation wrong too. */
#ifndef TESTS_APIC_APIC_TEST_H
#define TESTS_APIC_APIC_TEST_H

/* An LVT entry (§10.5.1, Figure 10-8): vector bits 7:0, delivery mode
 * bits 10:8 (000 fixed, 010 SMI, 100 NMI), mask bit 16.  The APIC sets
 * the LVTPC's mask when it handles a performance-monitoring interrupt
 * (§10.5.1, Mask; Vol. 3B §17.4.9.5). */
#define SDM_LVT_VECTOR 0xffu
#define SDM_LVT_DM(v) (((v) >> 8) & 7u)
#define SDM_LVT_DM_BITS (7u << 8)
#define SDM_DM_FIXED 0u
#define SDM_DM_NMI 4u
#define SDM_LVT_MASK (1u << 16)

/* IA32_APIC_BASE (MSR 1BH, §10.4.4 Figure 10-5, §10.12.1 Table 10-5):
 * bit 8 BSP, bit 10 EXTD (x2APIC mode). */
#define SDM_APIC_BASE_BSP (1ull << 8)
#define SDM_APIC_BASE_EXTD (1ull << 10)

/* The version register (§10.4.8, Figure 10-7): bits 23:16 hold the
 * number of LVT entries minus 1. */
#define SDM_APIC_MAX_LVT(v) ((((v) >> 16) & 0xffu) + 1)

#endif
