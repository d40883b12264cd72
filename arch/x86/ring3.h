/* ring3: running code at CPL 3 and coming back.
 *
 * ring3_setup() builds what CPL 3 needs next to the firmware's state, and
 * ring3_teardown() gives the firmware its state back:
 *   - a copy of the live GDT with flat user code/data descriptors (DPL 3)
 *     and a TSS whose ring-0 stack (RSP0, or SS0:ESP0) takes exceptions and
 *     the exit gate from CPL 3, and whose I/O map base lies past its limit
 *     (no I/O permission bitmap: CPL 3 has no port access at IOPL 0);
 *   - an IDT gate (RING3_EXIT_VECTOR, DPL 3) through which CPL 3 returns,
 *     lent from the firmware's IDT entry with interrupts off.
 * What keeps CPL 3 out of the harness's memory depends on the mode:
 *   - x86-64 (UEFI, paging on): a copy-on-write clone of the firmware's
 *     page tables in which only the ranges passed to ring3_map_user() are
 *     user-accessible (the benchmark code pages, .text.bench and .text.user,
 *     the user stack and ring3_scratch() are mapped at setup).  The clone's
 *     CR3 and CR4 without SMEP/SMAP are live only inside ring3_run().
 *   - i386 (legacy BIOS, paging off, physical = linear): segments only.
 *     The user descriptors are flat (base 0, 4 GiB), so CPL 3 can read and
 *     write every byte the harness can; what CPL 3 cannot do is load a
 *     DPL 0 selector, run privileged instructions or touch I/O ports.
 *     There are no U/S page protections; ring3_map_user() has nothing to
 *     grant and succeeds.  ring3_caveat() says so for the log header.
 * The mode-specific halves: arch/x86/<mode>/ring3_mode.c, ring3_desc.h and
 * ring3_entry.S. */
#ifndef ARCH_X86_RING3_H
#define ARCH_X86_RING3_H

#include <stdint.h>
#include "cpu.h"
#include "trap.h"

#define RING3_EXIT_VECTOR 0xf9

/* Called as routines are (cpu.h, ROUTINE_ABI): n in RDI and data in RSI
 * in x86-64, n in EDX:EAX and data in ECX in i386. */
typedef ROUTINE_ABI void (*ring3_fn)(uint64_t n, void *data);

/* alloc_page returns a zeroed, 4 KiB-aligned, identity-mapped page or NULL.
 * Returns 0, or -1 with a reason in *why. */
int ring3_setup(void *(*alloc_page)(void), const char **why);
void ring3_teardown(void);
int ring3_ready(void);
/* What CPL 3 is not kept from, for the "ring3: ready" header line: NULL
 * in x86-64, "i386: segments only, paging off" in i386. */
const char *ring3_caveat(void);

/* Makes [addr, addr + len) user-accessible and writable in the clone
 * (x86-64); in i386 every address already is (paging off): returns 0. */
int ring3_map_user(const void *addr, uint64_t len);

/* Runs fn(n, data) at CPL 3 with RFLAGS = 0x2 | extra_rflags (IF stays
 * clear; pass X86_EFLAGS_TF to single-step it).  Returns 0 when fn
 * returned, 1 when a fault at any CPL ended it (*f says which), -1 (and
 * f->vector = 0) without ring3_setup() or on a processor whose task
 * register is not the harness's TSS (the sibling, arch/x86/smp.h). */
int ring3_run(ring3_fn fn, uint64_t n, void *data, uint64_t extra_rflags,
	      struct fault *f);

/* A 64 KiB user-accessible scratch area for tests. */
void *ring3_scratch(void);

/* Is ip one of the ring-3 trampoline's own instructions, the CALL into
 * fn and the INT back out (<mode>/ring3_entry.S)?  They retire at CPL 3
 * around every CPL 3 run: what a counter, PEBS or BTS counting at CPL 3
 * sees besides the routine on hardware. */
int ring3_trampoline_has(uint64_t ip);

#endif
