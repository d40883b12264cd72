/* pic8259: the master 8259A's registers the watchdog uses when the PIT
 * reaches the processor through it: into the local APIC's LINT0 (a board
 * without an I/O APIC), or as a maskable interrupt on the processor's
 * INTR (a board without a local APIC; arch/x86/watchdog.h).
 *
 * Citations: Intel 8259A Programmable Interrupt Controller datasheet,
 * order no. 231468-003 (December 1988): OCW1 (the interrupt mask register,
 * written and read at A0 = 1), OCW2 (non-specific EOI: R SL EOI = 001,
 * 20h), OCW3 (D4:D3 = 01; P, bit 2, the Poll command: "the 8259A treats
 * the next RD pulse as an interrupt acknowledge, sets the appropriate IS
 * bit if there is a request, and reads the priority level"; RR RIS = 10,
 * 0Ah: the next read at A0 = 0 is the interrupt request register),
 * the initialization sequence (ICW1 at A0 = 0 with D4 = 1: LTIM 0 edge
 * triggered, SNGL 0 cascaded, IC4 1 "ICW4 needed"; then at A0 = 1 ICW2,
 * T7-T3 of the vectors; ICW3, a master's S2 = 1 for the slave on IR2;
 * ICW4, uPM = 1 8086 mode, normal EOI; and "the Interrupt Mask Register is
 * cleared" by it, so every input is unmasked until OCW1), and a spurious
 * request (the input fell before the acknowledge) reads as IR7 with IR7's
 * bit clear in the in-service register.  The PC's master at ports 20h/21h,
 * the PIT on its IR0, the slave on IR2, the BIOS's vectors 08h-0Fh for the
 * master (IBM Personal Computer AT Technical Reference, 1984). */
#ifndef ARCH_X86_PIC8259_H
#define ARCH_X86_PIC8259_H

#define PIC_MASTER_CMD 0x20
#define PIC_MASTER_DATA 0x21	/* OCW1: the interrupt mask register */
#define PIC_OCW2_EOI 0x20	/* non-specific end of interrupt */
#define PIC_OCW3_POLL 0x0c	/* OCW3 with P = 1 */
#define PIC_OCW3_READ_IRR 0x0a	/* OCW3 with RR = 1, RIS = 0 */
#define PIC_OCW3_READ_ISR 0x0b	/* OCW3 with RR = 1, RIS = 1 */
#define PIC_IRQ_PIT 0
#define PIC_IRQ_SPURIOUS 7

#define PIC_ICW1_INIT 0x11	/* D4 = 1, edge, cascaded, IC4 */
#define PIC_ICW3_MASTER 0x04	/* the slave on IR2 */
#define PIC_ICW4_8086 0x01	/* uPM = 1, normal EOI */
#define PIC_BIOS_VECTOR_BASE 0x08	/* the master's vectors under a BIOS */

/* Where the harness maps the master while the watchdog takes IR0 as a
 * maskable interrupt: a multiple of 8 (ICW2 gives T7-T3), clear of the
 * exception vectors 0-31 (SDM Vol. 3A Table 6-1) and of the harness's
 * own, PMI_VECTOR (F8h, pmi.h) and RING3_EXIT_VECTOR (F9h, ring3.h). */
#define PIC_WATCHDOG_VECTOR_BASE 0xf0
#define PIC_WATCHDOG_IRQ0_VECTOR (PIC_WATCHDOG_VECTOR_BASE + PIC_IRQ_PIT)
#define PIC_WATCHDOG_IRQ7_VECTOR (PIC_WATCHDOG_VECTOR_BASE + PIC_IRQ_SPURIOUS)

#endif
