/* apic: the local APIC of the processor the harness runs on, as the
 * firmware left it: in xAPIC mode (registers memory-mapped at the base in
 * IA32_APIC_BASE) or in x2APIC mode (registers as MSRs) where the firmware
 * enabled that.  The harness never changes the mode or the base.
 *
 * Offers: detection (apic_init), register reads by xAPIC offset in
 * either mode, the own APIC ID, EOI, and the LVT performance-counter
 * entry (LVTPC) through which a PMU, or a reference model of one, raises
 * a performance-monitoring interrupt (PMI) as a self-IPI (fixed or NMI):
 * apic_lvtpc_deliver().  apic_init() saves the firmware's value of every
 * register the harness changes (LVTPC); apic_restore() writes it back.
 * docs/apic.md describes the PMI path.
 *
 * Citations are to the Intel SDM of June 2016, whose chapter 10 is the
 * APIC: Vol. 3A order no. 253668-059US and Vol. 3B order no. 253669-059US
 * (the same text as the combined Vol. 3, order no. 325384-059US). */
#ifndef ARCH_X86_APIC_H
#define ARCH_X86_APIC_H

#include <stdint.h>

/* CPUID.01H (SDM Vol. 3A §10.4.2, §10.12.1, §10.4.6). */
#define CPUID1_EDX_APIC (1u << 9)	/* on-chip local APIC */
#define CPUID1_ECX_X2APIC (1u << 21)	/* x2APIC mode supported */
#define CPUID1_EBX_APIC_ID_SHIFT 24	/* initial APIC ID, EBX[31:24] */

/* IA32_APIC_BASE (SDM Vol. 3A §10.4.4, Figure 10-5; x2APIC: §10.12.1,
 * Figure 10-26, Table 10-5: EN=1 EXTD=0 xAPIC, EN=1 EXTD=1 x2APIC). */
#define MSR_IA32_APIC_BASE 0x1b
#define APIC_BASE_BSP (1ull << 8)
#define APIC_BASE_EXTD (1ull << 10)	/* x2APIC mode */
#define APIC_BASE_EN (1ull << 11)	/* global enable */
#define APIC_BASE_ADDR 0x000ffffffffff000ull	/* bits MAXPHYADDR-1:12 */

/* Register offsets in the 4 KiB xAPIC page (SDM Vol. 3A §10.4.1,
 * Table 10-1).  In x2APIC mode the register at offset o is the MSR
 * X2APIC_MSR_BASE + o / 16 (§10.12.1.2, Table 10-6), except the ICR. */
#define APIC_ID 0x020
#define APIC_VERSION 0x030
#define APIC_TPR 0x080
#define APIC_EOI 0x0b0
#define APIC_SVR 0x0f0
#define APIC_ISR 0x100		/* 8 x 32 bits, 0x100 ... 0x170 */
#define APIC_TMR 0x180
#define APIC_IRR 0x200
#define APIC_ESR 0x280
#define APIC_ICR_LOW 0x300	/* writing it sends the IPI (§10.6.1) */
#define APIC_ICR_HIGH 0x310
#define APIC_LVT_TIMER 0x320
#define APIC_LVT_THERMAL 0x330
#define APIC_LVTPC 0x340	/* LVT performance counter (§10.5.1) */
#define APIC_LVT_LINT0 0x350
#define APIC_LVT_LINT1 0x360
#define APIC_LVT_ERROR 0x370

/* x2APIC MSRs (SDM Vol. 3A §10.12.1.2, Table 10-6): the ICR is one 64-bit
 * MSR, 0x831 is reserved; SELF IPI exists only in x2APIC mode. */
#define X2APIC_MSR_BASE 0x800
#define X2APIC_MSR_ICR 0x830
#define X2APIC_MSR_SELF_IPI 0x83f

/* Local APIC ID register (SDM Vol. 3A §10.4.6, Figure 10-6): the ID is
 * bits 31:24 in xAPIC mode (Pentium 4 and later; every x86-64 CPU); in
 * x2APIC mode the whole 32-bit MSR 0x802 (§10.12.1.3). */
#define APIC_ID_SHIFT 24

/* Version register (SDM Vol. 3A §10.4.8, Figure 10-7): version 7:0,
 * number of LVT entries minus 1 in 23:16 (4 on P6: LVTPC is entry 4). */
#define APIC_VERSION_MAX_LVT_SHIFT 16
#define APIC_MAX_LVT_WITH_LVTPC 4

/* Spurious-interrupt vector register (SDM Vol. 3A §10.9, Figure 10-23). */
#define APIC_SVR_ENABLE (1u << 8)	/* APIC software enable */

/* LVT entries (SDM Vol. 3A §10.5.1, Figure 10-8).  The LVTPC takes the
 * delivery modes fixed, SMI and NMI (INIT and ExtINT are "not supported
 * for the LVT performance counter register").  Mask: "When the local APIC
 * handles a performance-monitoring counters interrupt, it automatically
 * sets the mask flag in the LVT performance counter register" (§10.5.1,
 * Mask; Figure 10-8's note names Pentium 4 and Intel Xeon). */
#define LVT_VECTOR 0xffu
#define LVT_DM_SHIFT 8
#define LVT_DM_MASK (7u << LVT_DM_SHIFT)
#define LVT_DELIVERY_PENDING (1u << 12)	/* read-only: send pending */
#define LVT_REMOTE_IRR (1u << 14)	/* read-only (LINT0/1) */
#define LVT_MASKED (1u << 16)

/* Delivery modes, bits 10:8 of an LVT entry and of the ICR (SDM Vol. 3A
 * §10.5.1 and §10.6.1, Figure 10-12): the same codes in both. */
#define APIC_DM_FIXED 0u
#define APIC_DM_SMI 2u
#define APIC_DM_NMI 4u
#define APIC_DM_INIT 5u
#define APIC_DM_STARTUP 6u	/* ICR only: the SIPI (§10.6.1) */
#define APIC_DM_EXTINT 7u

/* Interrupt command register (SDM Vol. 3A §10.6.1, Figure 10-12; x2APIC
 * §10.12.9, Figure 10-28).  Valid combinations (Table 10-3 for Pentium 4
 * and later xAPICs, Table 10-4 for P6): the Self shorthand is valid only
 * with fixed delivery, edge trigger; NMI "Self" is invalid, so an NMI to
 * oneself goes with no shorthand, physical mode, the own ID as
 * destination.  Level must be 1 (assert) except for INIT de-assert. */
#define ICR_VECTOR 0xffu
#define ICR_DM_SHIFT 8
#define ICR_DEST_LOGICAL (1u << 11)
#define ICR_SEND_PENDING (1u << 12)	/* xAPIC only; gone in x2APIC */
#define ICR_LEVEL_ASSERT (1u << 14)
#define ICR_TRIGGER_LEVEL (1u << 15)
#define ICR_SHORTHAND_NONE (0u << 18)
#define ICR_SHORTHAND_SELF (1u << 18)
#define ICR_XAPIC_DEST_SHIFT 24		/* in ICR_HIGH: ICR bits 63:56 */
#define ICR_X2APIC_DEST_SHIFT 32	/* x2APIC: ICR bits 63:32 */

/* Vectors 0-15 are illegal for the APIC (SDM Vol. 3A §10.5.2). */
#define APIC_FIRST_VECTOR 16

enum apic_mode { APIC_ABSENT, APIC_XAPIC, APIC_X2APIC };

/* Finds the local APIC and saves the firmware's LVTPC.  Returns NULL
 * when the APIC can be used, else the reason why not (no APIC, globally
 * or software-disabled, page not mapped, no LVTPC); never faults.  Calls
 * after the first return the first answer. */
const char *apic_init(void);
/* Writes back the firmware's values of what the harness changed. */
void apic_restore(void);

enum apic_mode apic_mode(void);
const char *apic_mode_name(enum apic_mode m);
/* Physical base of the register page (meaningful in xAPIC mode). */
uint64_t apic_base(void);
/* IA32_APIC_BASE as read by apic_init. */
uint64_t apic_base_msr(void);

/* Register read by xAPIC offset (APIC_*), in either mode; not for the
 * ICR.  Only after apic_init() returned NULL. */
uint32_t apic_read(unsigned reg);

uint32_t apic_id(void);
void apic_eoi(void);
/* 1 when vector's bit is set in the IRR (requested, not yet serviced)
 * or ISR (in service). */
int apic_irr(unsigned vector);
int apic_isr(unsigned vector);

/* LVT LINT0 (§10.5.1, Figure 10-8): what the firmware set (on a PC in
 * virtual wire mode, ExtINT: the 8259's INTR), and setting it; the caller
 * puts the firmware's value back. */
uint32_t apic_lint0(void);
void apic_set_lint0(uint32_t v);
uint32_t apic_lvtpc(void);
/* Read-only bits are dropped before the write. */
void apic_set_lvtpc(uint32_t v);
/* The LVTPC value apic_init() found. */
uint32_t apic_firmware_lvtpc(void);

/* Software-enables the local APIC of the processor it runs on (SVR bit
 * 8), keeping its spurious vector.  For an application processor that
 * the harness started itself (boot/bios/mp.c): INIT leaves its APIC
 * software-disabled (SVR 0FFH, §10.4.7.1), and while it is "the mask bits
 * for all the LVT entries are set.  Attempts to reset these bits will be
 * ignored" (§10.4.7.2), so its LVTPC could not be armed.  Its LVT entries
 * stay masked.  Only after apic_init() returned NULL (the BSP's mode). */
void apic_sw_enable(void);

/* Sends an IPI to the processor whose APIC ID is dest (physical
 * destination, no shorthand, edge, level assert): dm APIC_DM_INIT (vector
 * ignored), APIC_DM_STARTUP (vector: the start page number, 0-255, SDM
 * Vol. 3A §10.6.1 and §8.4.4.1) or APIC_DM_NMI.  The processor-start
 * messages of the BIOS boot (boot/bios/mp.c).  Returns 0, or -1 for
 * another mode, dest the processor's own, or no usable APIC. */
int apic_send_ipi(unsigned dm, unsigned vector, uint32_t dest);

/* What a PMU does on counter overflow with its interrupt enabled: reads
 * the LVTPC; when masked, delivers nothing and returns 0 (a masked LVT
 * entry inhibits reception: nothing is held pending).  Else, when
 * mask_after is set, sets the LVTPC mask first, as the local APIC does
 * when it handles a PMI (SDM Vol. 3A §10.5.1 Mask; Vol. 3B §17.4.9.5 and
 * §18.15.5.8: "these processors mask PMIs upon receiving an interrupt"),
 * so that the handler finds it set and may re-arm; then sends the
 * self-IPI with the LVTPC's vector and delivery mode, and returns 1.
 * Returns -1 (nothing sent) for a delivery mode other than fixed or NMI,
 * or a fixed vector below 16, or no usable APIC. */
int apic_lvtpc_deliver(int mask_after);

#endif
