/* mpspec: the processors of an Intel MultiProcessor Specification table,
 * for machines whose BIOS has no ACPI MADT (acpi.h) - boards from before
 * ACPI 1.0, or with ACPI off.  Pure reads of memory, like acpi.c: every
 * structure is checked (signature, length, checksum) before a field is
 * used, and a damaged one is refused with the reason, never trusted.
 *
 * Citations: Intel MultiProcessor Specification, Version 1.4 (May 1997,
 * order no. 242016-006): the MP floating pointer structure §4.1 (Table
 * 4-1), the MP configuration table header §4.2 (Table 4-2), the base
 * table's entries §4.3 (Table 4-3; processor entries §4.3.1, Table 4-4),
 * default configurations chapter 5.  Where the BIOS leaves the floating
 * pointer (searched by boot/, which knows the BIOS's memory): "a. In the
 * first kilobyte of Extended BIOS Data Area (EBDA), or b. Within the last
 * kilobyte of system base memory ... if the EBDA segment is undefined, or
 * c. In the BIOS ROM address space between 0F0000h and 0FFFFFh" (§4). */
#ifndef ARCH_X86_MPSPEC_H
#define ARCH_X86_MPSPEC_H

#include <stdint.h>

/* The floating pointer (Table 4-1): "_MP_" on a 16-byte boundary, LENGTH
 * in 16-byte paragraphs (1), all its bytes summing to 0. */
#define MPS_FPS_SIG "_MP_"
#define MPS_FPS_ALIGN 16
#define MPS_FPS_SIZE 16
#define MPS_FPS_TABLE 4			/* physical address of the table */
#define MPS_FPS_LENGTH 8		/* paragraphs */
#define MPS_FPS_REVISION 9		/* 1: version 1.1, 4: version 1.4 */
#define MPS_FPS_FEATURE1 11		/* 0: a table; else a default
					 * configuration's number (ch. 5) */

/* The configuration table header (Table 4-2), 44 bytes; the base table
 * (header and entries, BASE TABLE LENGTH bytes) sums to 0. */
#define MPS_CT_SIG "PCMP"
#define MPS_CT_LENGTH 4			/* 16-bit base table length */
#define MPS_CT_REVISION 6
#define MPS_CT_ENTRY_COUNT 34		/* 16-bit */
#define MPS_CT_LAPIC_ADDR 36		/* 32-bit local APIC address */
#define MPS_CT_HDR_SIZE 44

/* Base table entries (Table 4-3): processor 20 bytes; bus, I/O APIC, I/O
 * interrupt and local interrupt assignment 8 bytes; "all other type codes
 * are reserved" (their length unknown: the walk stops there). */
#define MPS_ENTRY_PROCESSOR 0
#define MPS_ENTRY_PROCESSOR_LEN 20
#define MPS_ENTRY_LAST_KNOWN 4
#define MPS_ENTRY_OTHER_LEN 8
/* Processor entry (Table 4-4). */
#define MPS_CPU_APIC_ID 1
#define MPS_CPU_APIC_VERSION 2
#define MPS_CPU_FLAGS 3
#define MPS_CPU_EN (1u << 0)		/* usable */
#define MPS_CPU_BP (1u << 1)		/* the bootstrap processor */
#define MPS_CPU_SIGNATURE 4		/* 32-bit, CPUID.01H:EAX */

struct mps_cpu {
	uint8_t apic_id;
	uint8_t apic_version;
	uint8_t flags;			/* MPS_CPU_* */
	uint32_t signature;
};

/* 1 when the 16 bytes at p are a floating pointer structure (signature,
 * length 1, checksum). */
int mps_floating_at(const uint8_t *p);

/* The processor entries of the configuration table that the floating
 * pointer at fps names, in table order, at most max in c; *total counts
 * them all.  NULL when the table lists at least one, else why not (a
 * default configuration, no table, a bad signature, length or checksum,
 * an entry of a reserved type before any processor, no processor). */
const char *mps_processors(const uint8_t *fps, struct mps_cpu *c,
			   unsigned max, unsigned *total);

#endif
