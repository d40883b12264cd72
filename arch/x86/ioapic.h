/* ioapic: one I/O APIC's redirection table, as much as the watchdog needs
 * to route a timer's interrupt pin to the bootstrap processor as an NMI:
 * the I/O APIC the ACPI tables give for a GSI, an entry read and written,
 * an NMI entry's format.
 *
 * Citation: Intel 82093AA I/O Advanced Programmable Interrupt Controller
 * (IOAPIC) datasheet, order no. 290566-001 (May 1996): §3.0 register
 * description (IOREGSEL at base + 00h, IOWIN at base + 10h; Table 2:
 * IOAPICVER 01h, IOREDTBL[n] at 10h + 2n), §3.2.4 the redirection table
 * entry (Delivery Mode 100 = NMI, "must be edge triggered"; mask bit 16;
 * destination field bits 63:56).  Later I/O APICs keep this interface
 * (chipset datasheets describe the same registers). */
#ifndef ARCH_X86_IOAPIC_H
#define ARCH_X86_IOAPIC_H

#include <stdint.h>
#include "acpi.h"

#define IOAPIC_REGSEL 0x00
#define IOAPIC_WIN 0x10
#define IOAPIC_MMIO_SIZE 0x20

#define IOAPIC_REG_VER 0x01
#define IOAPIC_VER_MAX_REDIR_SHIFT 16	/* entries - 1, bits 23:16 */
#define IOAPIC_REG_REDTBL(n) (0x10 + 2 * (n))	/* low dword; +1 high */

/* Redirection table entry (§3.2.4). */
#define IOAPIC_RTE_DM_SHIFT 8
#define IOAPIC_RTE_DM_NMI (4ull << IOAPIC_RTE_DM_SHIFT)
#define IOAPIC_RTE_DEST_LOGICAL (1ull << 11)
#define IOAPIC_RTE_ACTIVE_LOW (1ull << 13)
#define IOAPIC_RTE_LEVEL (1ull << 15)
#define IOAPIC_RTE_MASKED (1ull << 16)
#define IOAPIC_RTE_DEST_SHIFT 56

struct ioapic {
	uint64_t base;		/* physical = virtual (identity-mapped) */
	uint32_t gsi_base;
	unsigned entries;	/* redirection entries */
};

/* Reads the version register; fills entries.  -1 when nothing answers
 * like an I/O APIC (entries 0 or all ones). */
int ioapic_open(struct ioapic *io, uint64_t base, uint32_t gsi_base);
/* Opens the first I/O APIC of list[0 .. n) with an input for gsi and
 * registers that can be reached (mmio.h): that input is its pin
 * gsi - io->gsi_base.  -1 when none has one. */
int ioapic_open_gsi(struct ioapic *io, const struct acpi_ioapic *list,
		    unsigned n, uint32_t gsi);
uint64_t ioapic_rte(const struct ioapic *io, unsigned pin);
/* Writes the entry masked first, then the destination, then the low
 * half (which unmasks last, so no half-written entry is ever live). */
void ioapic_set_rte(const struct ioapic *io, unsigned pin, uint64_t rte);
/* An entry that delivers an NMI, edge-triggered, active high, unmasked,
 * to the local APIC with physical ID dest_apic_id. */
uint64_t ioapic_rte_nmi(unsigned dest_apic_id);

#endif
