/* pic8259: the master 8259A: a request acknowledged by the Poll command,
 * the end of an interrupt, its request and in-service bits, its mask, and
 * its vectors moved by a new initialization.  The watchdog takes the
 * PIT's IR0 through it: into the local APIC's LINT0 (a board without an
 * I/O APIC), or as a maskable interrupt on the processor's INTR (a board
 * without a local APIC; arch/x86/watchdog.h).  The slave is left alone.
 * The numbers are also read by assembler (watchdog.h's vectors).
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

#define PIC_MASK_ALL 0xff

#ifndef __ASSEMBLY__
#include <stdint.h>

/* The Poll command, then an end of interrupt: a pending request is
 * acknowledged and ended without an INTA cycle, and INTR falls. */
void pic_poll_ack(void);
/* A non-specific end of interrupt. */
void pic_eoi(void);
/* 1 when irq's bit is set in the interrupt request register. */
int pic_requested(unsigned irq);
/* 1 when irq's bit is set in the in-service register. */
int pic_in_service(unsigned irq);
/* The interrupt mask register (OCW1): read, written, or every input but
 * irq masked. */
uint8_t pic_mask(void);
void pic_set_mask(uint8_t imr);
void pic_unmask_only(unsigned irq);
/* ICW1-ICW4: the master's vectors from base (a multiple of 8), the slave
 * on IR2 as before, then imr.  With IF = 0. */
void pic_remap(unsigned base, uint8_t imr);
#endif

#endif
