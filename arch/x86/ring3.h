/* ring3: running code at CPL 3 and coming back.
 *
 * ring3_setup() builds what CPL 3 needs next to the firmware's state, and
 * ring3_teardown() gives the firmware its state back:
 *   - a copy of the firmware's GDT with user code/data descriptors and a
 *     64-bit TSS whose RSP0 is the ring-0 stack for exceptions from CPL 3;
 *   - a copy-on-write clone of the firmware's page tables in which only the
 *     ranges passed to ring3_map_user() are user-accessible (the benchmark
 *     code pages, .text.bench and .text.user, are mapped at setup);
 *   - an IDT gate (RING3_EXIT_VECTOR, DPL 3) through which CPL 3 returns.
 * The clone's CR3, CR4 without SMEP/SMAP, and the exit gate (lent from
 * the firmware's IDT entry, with interrupts off) are live only inside
 * ring3_run(). */
#ifndef ARCH_X86_RING3_H
#define ARCH_X86_RING3_H

#include <stdint.h>
#include "trap.h"

#define RING3_EXIT_VECTOR 0xf9

typedef void (*ring3_fn)(uint64_t n, void *data);

/* alloc_page returns a zeroed, 4 KiB-aligned, identity-mapped page or NULL.
 * Returns 0, or -1 with a reason in *why. */
int ring3_setup(void *(*alloc_page)(void), const char **why);
void ring3_teardown(void);
int ring3_ready(void);

/* Makes [addr, addr + len) user-accessible and writable in the clone. */
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

#endif
