/* acpi: finding the ACPI tables the harness needs - the HPET description
 * table and the MADT's I/O APIC entries (the watchdog), the FADT's PM
 * timer (the clock), the MADT's Processor Local APIC entries (the BIOS
 * boot's application processors) - from the RSDP the firmware hands over
 * (boot/ finds it in the UEFI configuration table, or in the BIOS's
 * memory).
 * Pure reads of memory: every table is checked (signature, length,
 * checksum) before a field is used, and a bad table is skipped, never
 * trusted.  Tables must be identity-mapped, as UEFI leaves them.
 *
 * Citations: ACPI Specification 6.3 (January 2019): RSDP §5.2.5.3
 * (Table 5-27), table header §5.2.6 (Table 5-29), RSDT §5.2.7, XSDT §5.2.8,
 * MADT §5.2.12 (Table 5-43, Processor Local APIC structure §5.2.12.2,
 * Tables 5-46 and 5-47, I/O APIC structure §5.2.12.3, Table 5-48);
 * the HPET table: IA-PC HPET Specification 1.0a (Intel, October 2004),
 * §3.2.4, Table 3. */
#ifndef ARCH_X86_ACPI_H
#define ARCH_X86_ACPI_H

#include <stdint.h>

/* RSDP (ACPI 6.3 Table 5-27). */
#define ACPI_RSDP_SIG "RSD PTR "
#define ACPI_RSDP_V1_LEN 20		/* the part checksum covers */
#define ACPI_RSDP_REVISION 15
#define ACPI_RSDP_RSDT 16		/* 32-bit RSDT address */
#define ACPI_RSDP_LENGTH 20		/* revision >= 2: whole length */
#define ACPI_RSDP_XSDT 24		/* revision >= 2: 64-bit XSDT */
#define ACPI_RSDP_V2_MIN 36

/* Every description table starts with this header (Table 5-29). */
#define ACPI_HDR_LENGTH 4		/* 32-bit total length */
#define ACPI_HDR_SIZE 36

/* MADT (Table 5-43): entries from offset 44, each type, length, ... */
#define ACPI_MADT_ENTRIES 44
/* Processor Local APIC structure (§5.2.12.2, Table 5-46): one per
 * processor the firmware knows; flags (Table 5-47): Enabled, else Online
 * Capable (ACPI 6.3: the OS may enable it at run time; both clear: not
 * usable at all). */
#define ACPI_MADT_LAPIC 0
#define ACPI_MADT_LAPIC_LEN 8
#define ACPI_MADT_LAPIC_UID 2		/* ACPI Processor UID */
#define ACPI_MADT_LAPIC_ID 3		/* the processor's local APIC ID */
#define ACPI_MADT_LAPIC_FLAGS 4		/* 32-bit */
#define ACPI_LAPIC_ENABLED (1u << 0)
#define ACPI_LAPIC_ONLINE_CAPABLE (1u << 1)
#define ACPI_MADT_IOAPIC 1		/* I/O APIC structure, Table 5-48 */
#define ACPI_MADT_IOAPIC_LEN 12
#define ACPI_MADT_IOAPIC_ID 2
#define ACPI_MADT_IOAPIC_ADDR 4		/* 32-bit physical address */
#define ACPI_MADT_IOAPIC_GSI 8		/* global system interrupt base */
/* Interrupt Source Override (§5.2.12.5, Table 5-50): an ISA IRQ that is
 * not wired to the GSI of the same number.  Without one, ISA IRQ n is
 * GSI n, edge-triggered, active high (§5.2.12.5: "identity-mapped"). */
#define ACPI_MADT_ISO 2
#define ACPI_MADT_ISO_LEN 10
#define ACPI_MADT_ISO_BUS 2		/* 0: ISA */
#define ACPI_MADT_ISO_SOURCE 3		/* the ISA IRQ */
#define ACPI_MADT_ISO_GSI 4		/* 32-bit */
#define ACPI_MADT_ISO_FLAGS 8		/* MPS INTI flags, Table 5-51 */
#define ACPI_MPS_POLARITY_MASK 0x3	/* 01 high, 11 low, 00 the bus's */
#define ACPI_MPS_POLARITY_LOW 0x3
#define ACPI_MPS_TRIGGER_MASK 0xc	/* 01 edge, 11 level, 00 the bus's */
#define ACPI_MPS_TRIGGER_LEVEL 0xc
/* The 8254 PIT's counter 0 output is ISA IRQ 0 (IBM PC/AT). */
#define ACPI_ISA_IRQ_PIT 0

/* HPET table (HPET spec 1.0a Table 3): the base address is a Generic
 * Address Structure at offset 40 (ACPI 6.3 §5.2.3.2: address space ID at
 * +0, 0 = system memory; 64-bit address at +4). */
#define ACPI_HPET_GAS 40
#define ACPI_HPET_GAS_ADDR 44
#define ACPI_HPET_MIN_LEN 56
#define ACPI_GAS_SYSTEM_MEMORY 0

/* FADT (ACPI 6.3 §5.2.9, Table 5-34): the power-management timer's
 * 32-bit I/O port PM_TMR_BLK at offset 76 (PM_TMR_LEN at 91: 4 when the
 * timer is there), and from ACPI 2.0 its Generic Address Structure
 * X_PM_TMR_BLK at 208 (address space at +0, 1 = system I/O; 64-bit
 * address at +4); Flags at 112, TMR_VAL_EXT (bit 8, Table 5-35): the
 * counter is 32 bits wide, else 24.  It counts at 3.579545 MHz
 * (§4.8.3.3, "Power Management Timer"), whatever the CPU does. */
#define ACPI_FADT_PM_TMR_BLK 76
#define ACPI_FADT_PM_TMR_LEN 91
#define ACPI_FADT_FLAGS 112
#define ACPI_FADT_FLAGS_END 116
#define ACPI_FADT_TMR_VAL_EXT (1u << 8)
#define ACPI_FADT_X_PM_TMR_BLK 208
#define ACPI_FADT_X_PM_TMR_END 220
#define ACPI_GAS_SYSTEM_IO 1
#define ACPI_PM_TIMER_HZ 3579545u

#define ACPI_MAX_IOAPICS 8

struct acpi_ioapic {
	uint8_t id;
	uint64_t base;
	uint32_t gsi_base;
};

struct acpi_timers {
	uint64_t hpet_base;		/* 0: no usable HPET table */
	unsigned n_ioapics;
	struct acpi_ioapic ioapic[ACPI_MAX_IOAPICS];
	/* Where the PIT's IRQ 0 enters the I/O APICs: its override's GSI
	 * and flags, else GSI 0 with flags 0 (identity, ISA's edge/high). */
	uint32_t pit_gsi;
	uint16_t pit_flags;
};

/* The description table with signature sig (4 characters) that the RSDP
 * at rsdp lists and that passes its checks, or NULL. */
const uint8_t *acpi_find(uint64_t rsdp, const char *sig);
/* Fills *t from the HPET table and the MADT (the MADT's part even when
 * there is no HPET table: a BIOS boot routes the PIT instead).  Returns
 * NULL, or why the tables give no HPET watchdog (no RSDP, no HPET table,
 * no I/O APIC). */
const char *acpi_timers(uint64_t rsdp, struct acpi_timers *t);

/* A Processor Local APIC entry of the MADT. */
struct acpi_lapic {
	uint8_t uid;
	uint8_t apic_id;
	uint32_t flags;		/* ACPI_LAPIC_* */
};

/* The MADT's Processor Local APIC entries, in table order, at most max in
 * l; *total counts them all.  NULL when the MADT lists at least one,
 * else why not (no valid RSDP, no MADT, a MADT without such an entry). */
const char *acpi_lapics(uint64_t rsdp, struct acpi_lapic *l, unsigned max,
			unsigned *total);

struct acpi_pm_timer {
	uint16_t port;
	uint32_t mask;		/* 0xffffff, or 0xffffffff (TMR_VAL_EXT) */
};

/* The FADT's PM timer (X_PM_TMR_BLK in I/O space before PM_TMR_BLK):
 * NULL with *pm filled, else why there is none. */
const char *acpi_pm_timer(uint64_t rsdp, struct acpi_pm_timer *pm);

#endif
