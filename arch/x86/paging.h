/* paging: read-only look-ups in the live 4-level page tables (IA-32e
 * paging): whether an address is mapped, by which entry, and with which
 * memory-type and access bits.  The tables must be identity-mapped, as
 * UEFI leaves them (and as arch/x86/ring3.c's clone keeps them).  With
 * 5-level paging on (CR4.LA57, bit 12, which the 2016 SDM predates; the
 * harness's ring-3 clone does not handle it either) every look-up fails.
 *
 * With paging off (CR0.PG = 0: the i386 legacy-BIOS build, which never
 * turns it on) a look-up returns the identity: every address below 4 GiB
 * is "mapped" to itself (level 0, entry = the 4 KiB frame), writable and
 * user-accessible - there are no page protections, CPL 3 included - with
 * PAT index 0 (no PAT applies; the MTRRs alone give the memory type).
 * Paging on in a 32-bit build (32-bit or PAE tables) is not walked: -1.
 *
 * Citations: Intel SDM Vol. 3A, order no. 253668-059US (June 2016), the
 * edition whose chapter 10 is the local APIC. */
#ifndef ARCH_X86_PAGING_H
#define ARCH_X86_PAGING_H

#include <stdint.h>

/* Paging-structure entry bits (SDM Vol. 3A §4.5, Tables 4-14 to 4-19). */
#define PG_P (1ull << 0)		/* present */
#define PG_W (1ull << 1)		/* writable */
#define PG_U (1ull << 2)		/* user-mode accessible */
#define PG_PWT (1ull << 3)		/* page-level write-through */
#define PG_PCD (1ull << 4)		/* page-level cache disable */
#define PG_PS (1ull << 7)		/* PDPTE/PDE: a 1 GiB/2 MiB page */
#define PG_PAT_4K (1ull << 7)		/* PTE: PAT index bit 2 */
#define PG_PAT_LARGE (1ull << 12)	/* 1 GiB/2 MiB page: PAT index bit 2 */
#define PG_ADDR 0x000ffffffffff000ull	/* next table or 4 KiB frame */
#define CR4_LA57 (1ull << 12)

struct paging_leaf {
	uint64_t entry;		/* the PTE, PDE or PDPTE that maps va */
	int level;		/* 1: 4 KiB page, 2: 2 MiB, 3: 1 GiB;
				 * 0: paging off, identity */
	int writable, user;	/* as the whole walk grants them */
	/* PAT index bits 2:0 = PAT:PCD:PWT of the leaf (SDM Vol. 3A
	 * §11.12.3, Table 11-11): the page's memory type before MTRRs */
	unsigned pat_index;
};

/* Walks the tables at cr3 (bits 51:12) for va.  Returns 0 with *out
 * filled, or -1 when va is not mapped (or paging is 5-level, or 32-bit).
 * With paging off, the identity (above). */
int paging_lookup(uint64_t cr3, uint64_t va, struct paging_leaf *out);
/* 1 when every byte of [va, va + len) is mapped writable by the live
 * tables (CR3), 0 otherwise (len 0 and wrap-around included). */
int paging_range_writable(uint64_t va, uint64_t len);

#endif
