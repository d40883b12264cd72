/* xmm (i386): see xmm.h.  32-bit mode has XMM0-XMM7 only (SDM Vol. 1
 * §10.2.2), and an SSE instruction raises #UD without CPUID.01H:EDX.SSE
 * [bit 25] or with CR4.OSFXSR clear (SDM Vol. 3A §13.1.3): xmm_count()
 * checks both first, and the block calls reach nothing (read: zeros)
 * when it says 0.  MOVUPS (SSE, no alignment needed, SDM Vol. 2B) moves
 * all 128 bits whatever they hold, on a Pentium III as on later CPUs. */

#define CPUID1_EDX_SSE	(1 << 25)
#define CR4_OSFXSR	(1 << 9)

	.text

/* unsigned xmm_count(void): 8 when SSE is there and on, else 0. */
	.globl xmm_count
	.hidden xmm_count
xmm_count:
	pushl %ebx			/* CPUID writes it; cdecl keeps it */
	movl $1, %eax
	cpuid
	popl %ebx
	xorl %eax, %eax
	testl $CPUID1_EDX_SSE, %edx
	jz 1f
	movl %cr4, %ecx
	testl $CR4_OSFXSR, %ecx
	jz 1f
	movl $8, %eax
1:	ret

/* void xmm_read_all(uint64_t *p [esp+4]): XMM0-XMM7 or zeros, then zeros
 * for XMM8-XMM15. */
	.globl xmm_read_all
	.hidden xmm_read_all
xmm_read_all:
	pushl %edi
	call xmm_count
	movl 8(%esp), %edi
	testl %eax, %eax
	jz 1f
	movups %xmm0, 0(%edi)
	movups %xmm1, 16(%edi)
	movups %xmm2, 32(%edi)
	movups %xmm3, 48(%edi)
	movups %xmm4, 64(%edi)
	movups %xmm5, 80(%edi)
	movups %xmm6, 96(%edi)
	movups %xmm7, 112(%edi)
	addl $128, %edi
	movl $32, %ecx			/* doublewords of XMM8-XMM15 */
	jmp 2f
1:	movl $64, %ecx			/* all 16 registers' */
2:	xorl %eax, %eax
	cld
	rep stosl
	popl %edi
	ret

/* void xmm_load_all(const uint64_t *p [esp+4]): XMM0-XMM7 when there. */
	.globl xmm_load_all
	.hidden xmm_load_all
xmm_load_all:
	call xmm_count
	testl %eax, %eax
	jz 1f
	movl 4(%esp), %ecx
	movups 0(%ecx), %xmm0
	movups 16(%ecx), %xmm1
	movups 32(%ecx), %xmm2
	movups 48(%ecx), %xmm3
	movups 64(%ecx), %xmm4
	movups 80(%ecx), %xmm5
	movups 96(%ecx), %xmm6
	movups 112(%ecx), %xmm7
1:	ret

	.section .note.GNU-stack, "", @progbits
