/* pic8259: the master 8259A's registers the watchdog uses when the PIT
 * reaches the processor through it and the local APIC's LINT0 (a board
 * without an I/O APIC; arch/x86/watchdog.h).
 *
 * Citations: Intel 8259A Programmable Interrupt Controller datasheet,
 * order no. 231468-003 (December 1988): OCW1 (the interrupt mask register,
 * written and read at A0 = 1), OCW2 (non-specific EOI: R SL EOI = 001,
 * 20h), OCW3 (D4:D3 = 01; P, bit 2, the Poll command: "the 8259A treats
 * the next RD pulse as an interrupt acknowledge, sets the appropriate IS
 * bit if there is a request, and reads the priority level"; RR RIS = 10,
 * 0Ah: the next read at A0 = 0 is the interrupt request register).  The PC's
 * master at ports 20h/21h, the PIT on its IR0 (IBM Personal Computer AT
 * Technical Reference, 1984). */
#ifndef ARCH_X86_PIC8259_H
#define ARCH_X86_PIC8259_H

#define PIC_MASTER_CMD 0x20
#define PIC_MASTER_DATA 0x21	/* OCW1: the interrupt mask register */
#define PIC_OCW2_EOI 0x20	/* non-specific end of interrupt */
#define PIC_OCW3_POLL 0x0c	/* OCW3 with P = 1 */
#define PIC_OCW3_READ_IRR 0x0a	/* OCW3 with RR = 1, RIS = 0 */
#define PIC_IRQ_PIT 0

#endif
