/* ring3_mode: what ring3.c asks of the mode's half (arch/x86/<mode>/
 * ring3_mode.c and ring3_entry.S).  Internal to ring3. */
#ifndef ARCH_X86_RING3_MODE_H
#define ARCH_X86_RING3_MODE_H

#include <stdint.h>
#include "cpu.h"
#include "ring3.h"

/* Builds what keeps CPL 3 out of the harness's memory (x86-64: the page
 * table clone with the user text mapped; i386: nothing, paging is off).
 * Returns 0, or -1 with a reason in *why. */
int ring3_mode_setup(void *(*alloc_page)(void), const char **why);
/* Grants CPL 3 [addr, addr + len), writable or not. */
int ring3_mode_map(const void *addr, uint64_t len, int writable);
/* NULL, or what CPL 3 is not kept from (ring3_caveat()). */
extern const char *const ring3_mode_caveat;

/* What ring3_run() switches around the CPL 3 call and puts back. */
struct ring3_saved {
	ureg_t cr3, cr4;
	uint16_t fs, gs;
};
/* With IF clear: make the CPL 3 view live, saving what it replaces. */
void ring3_mode_enter(struct ring3_saved *s);
void ring3_mode_leave(const struct ring3_saved *s);

/* ring3_entry.S: IRET to ring3_trampoline at CPL 3, which calls fn(n,
 * data) with the routine ABI on user_sp, then raises RING3_EXIT_VECTOR,
 * whose gate (ring3_exit_entry) resumes ring3_return_ctx. */
void ring3_iret(ring3_fn fn, uint64_t n, void *data, ureg_t user_sp,
		ureg_t flags, ureg_t cs, ureg_t ss) __attribute__((noreturn));
void ring3_exit_entry(void);
extern struct catch_ctx ring3_return_ctx;

#endif
