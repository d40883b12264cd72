/* safe: fault-tolerant MSR/PMC access (see safe.h).  A faulting instruction
 * listed in the exception table resumes at its fixup with %eax = vector. */

#include "../safe.h"

	.pushsection .text.user, "ax"
/* int rdmsr_safe(uint32_t msr (edi), uint64_t *val (rsi)) */
	.globl rdmsr_safe
	.hidden rdmsr_safe
rdmsr_safe:
	movl %edi, %ecx
1:	rdmsr
	shlq $32, %rdx
	orq %rdx, %rax
	movq %rax, (%rsi)
	xorl %eax, %eax
2:	ret
	EX_ENTRY 1b, 2b

/* int wrmsr_safe(uint32_t msr (edi), uint64_t val (rsi)) */
	.globl wrmsr_safe
	.hidden wrmsr_safe
wrmsr_safe:
	movl %edi, %ecx
	movl %esi, %eax
	movq %rsi, %rdx
	shrq $32, %rdx
1:	wrmsr
	xorl %eax, %eax
2:	ret
	EX_ENTRY 1b, 2b

/* int rdpmc_safe(uint32_t idx (edi), uint64_t *val (rsi)) */
	.globl rdpmc_safe
	.hidden rdpmc_safe
rdpmc_safe:
	movl %edi, %ecx
1:	rdpmc
	shlq $32, %rdx
	orq %rdx, %rax
	movq %rax, (%rsi)
	xorl %eax, %eax
2:	ret
	EX_ENTRY 1b, 2b

	.popsection
	.section .note.GNU-stack, "", @progbits
