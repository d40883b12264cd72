/* safe: instructions that may fault, run so that a fault becomes a return
 * value.  Each returns 0 on success or the exception vector (e.g. 13 for
 * #GP, 6 for #UD); the output is left untouched on a fault.  The trap
 * handler resumes these through the exception table (.data.ex_table). */
#ifndef ARCH_X86_SAFE_H
#define ARCH_X86_SAFE_H

#ifdef __ASSEMBLY__

/* EX_ENTRY insn, fixup: one row of struct ex_entry (below), both as
 * self-relative offsets, for the *_safe routines of either mode. */
.macro EX_ENTRY insn, fixup
	.pushsection .data.ex_table, "aw"
	.balign 4
	.long \insn - .
	.long \fixup - .
	.popsection
.endm

#else

#include <stdint.h>

int rdmsr_safe(uint32_t msr, uint64_t *val);
int wrmsr_safe(uint32_t msr, uint64_t val);
int rdpmc_safe(uint32_t idx, uint64_t *val);

/* A fixup entry: where a faulting instruction sits and where to resume,
 * both relative to the entry (position-independent, no relocations). */
struct ex_entry {
	int32_t insn;
	int32_t fixup;
};

#endif /* __ASSEMBLY__ */
#endif
