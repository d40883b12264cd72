/* ring3_entry (i386): the CPL 0 -> 3 transition (IRET) and the way back
 * (an interrupt gate at RING3_EXIT_VECTOR, DPL 3, that resumes the saved
 * ring-0 context).  Citations: Intel SDM Vol. 3A, order no. 253668-059US
 * (June 2016); Vol. 2A "IRET". */

	.text
/* void ring3_iret(fn, uint64_t n, data, user_sp, flags, user_cs, user_ss)
 * -- cdecl, does not return.  On entry:
 *   4(%esp) fn, 8 n low, 12 n high, 16 data, 20 user_sp, 24 flags,
 *   28 user_cs, 32 user_ss.
 * The routine ABI (cpu.h, ROUTINE_ABI = regparm(3)) wants n in EDX:EAX
 * and data in ECX: they are loaded here, since IRET changes no
 * general-purpose register, so that the trampoline's first instruction is
 * its CALL (the tracer expects that, arch/x86/trace.c). */
	.globl ring3_iret
	.hidden ring3_iret
ring3_iret:
	movl %esp, %ebp
	movl 4(%ebp), %esi		/* fn: the trampoline calls *%esi */
	movl 8(%ebp), %eax		/* n, bits 31:0 */
	movl 12(%ebp), %edx		/* n, bits 63:32 */
	movl 16(%ebp), %ecx		/* data */
	movl 32(%ebp), %ebx		/* the user data selector */
	/* The frame for an IRET to an outer privilege level (§6.12.1,
	 * Figure 6-4), lowest address last pushed: EIP, CS, EFLAGS, ESP,
	 * SS. */
	pushl %ebx			/* SS */
	pushl 20(%ebp)			/* ESP */
	pushl 24(%ebp)			/* EFLAGS */
	pushl 28(%ebp)			/* CS */
	pushl $ring3_trampoline		/* EIP */
	/* IRET to CPL 3 nulls any of DS, ES, FS, GS holding a DPL 0 data
	 * selector (Vol. 2A "IRET"); a null DS would fault on the first
	 * load.  Give all four the flat DPL 3 data segment (usable at CPL 0
	 * too: the rest of this path reads only through SS). */
	movw %bx, %ds
	movw %bx, %es
	movw %bx, %fs
	movw %bx, %gs
	xorl %ebx, %ebx
	xorl %ebp, %ebp
	xorl %edi, %edi
	iret

/* The way back: the exit gate's handler, at CPL 0 on the TSS's SS0:ESP0
 * stack (DS and ES still the user's flat data segment, which catch_resume
 * reads the context through and then replaces).  catch_resume(ctx) is
 * cdecl; EAX holds ctx as well. */
	.globl ring3_exit_entry
	.hidden ring3_exit_entry
ring3_exit_entry:
	movl $ring3_return_ctx, %eax
	pushl %eax
	call catch_resume
	ud2				/* not reached */

/* User code: the trampoline runs at CPL 3. */
	.pushsection .text.user, "ax"
	.globl ring3_trampoline
	.hidden ring3_trampoline
ring3_trampoline:
	call *%esi			/* fn(n EDX:EAX, data ECX) */
	int $0xf9			/* RING3_EXIT_VECTOR */
	.globl ring3_trampoline_end
	.hidden ring3_trampoline_end
ring3_trampoline_end:
	ud2				/* not reached */
	.popsection

	.section .note.GNU-stack, "", @progbits
