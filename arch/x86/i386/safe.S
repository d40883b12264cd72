/* safe (i386): fault-tolerant MSR/PMC access (see safe.h).  A faulting
 * instruction listed in the exception table resumes at its fixup with
 * %eax = vector (trap.c).  cdecl: the arguments on the stack, the result
 * in EAX; EBX, ESI, EDI and EBP untouched. */

#include "../safe.h"

	.pushsection .text.user, "ax"
/* int rdmsr_safe(uint32_t msr [esp+4], uint64_t *val [esp+8]) */
	.globl rdmsr_safe
	.hidden rdmsr_safe
rdmsr_safe:
	movl 4(%esp), %ecx
1:	rdmsr
	movl 8(%esp), %ecx
	movl %eax, (%ecx)
	movl %edx, 4(%ecx)
	xorl %eax, %eax
2:	ret
	EX_ENTRY 1b, 2b

/* int wrmsr_safe(uint32_t msr [esp+4], uint64_t val [esp+8, low first]) */
	.globl wrmsr_safe
	.hidden wrmsr_safe
wrmsr_safe:
	movl 4(%esp), %ecx
	movl 8(%esp), %eax
	movl 12(%esp), %edx
1:	wrmsr
	xorl %eax, %eax
2:	ret
	EX_ENTRY 1b, 2b

/* int rdpmc_safe(uint32_t idx [esp+4], uint64_t *val [esp+8]) */
	.globl rdpmc_safe
	.hidden rdpmc_safe
rdpmc_safe:
	movl 4(%esp), %ecx
1:	rdpmc
	movl 8(%esp), %ecx
	movl %eax, (%ecx)
	movl %edx, 4(%ecx)
	xorl %eax, %eax
2:	ret
	EX_ENTRY 1b, 2b

	.popsection
	.section .note.GNU-stack, "", @progbits
