/* pic8259: the master 8259A's commands and registers (pic8259.h). */
#include "pic8259.h"
#include "cpu.h"

/* OCW3 with P = 1: the next read is an interrupt acknowledge, which sets
 * the request's in-service bit; OCW2 ends it (pic8259.h). */
void pic_poll_ack(void)
{
	outb(PIC_MASTER_CMD, PIC_OCW3_POLL);
	(void)inb(PIC_MASTER_CMD);
	pic_eoi();
}

void pic_eoi(void)
{
	outb(PIC_MASTER_CMD, PIC_OCW2_EOI);
}

/* OCW3 RR RIS = 10: the next read at A0 = 0 is the IRR. */
int pic_requested(unsigned irq)
{
	outb(PIC_MASTER_CMD, PIC_OCW3_READ_IRR);
	return !!(inb(PIC_MASTER_CMD) & (1u << irq));
}

/* OCW3 RR RIS = 11: the next read at A0 = 0 is the ISR. */
int pic_in_service(unsigned irq)
{
	outb(PIC_MASTER_CMD, PIC_OCW3_READ_ISR);
	return !!(inb(PIC_MASTER_CMD) & (1u << irq));
}

uint8_t pic_mask(void)
{
	return inb(PIC_MASTER_DATA);
}

void pic_set_mask(uint8_t imr)
{
	outb(PIC_MASTER_DATA, imr);
}

void pic_unmask_only(unsigned irq)
{
	pic_set_mask((uint8_t)(PIC_MASK_ALL & ~(1u << irq)));
}

/* The initialization unmasks every input, so OCW1 masks them as wanted
 * at once after it (pic8259.h). */
void pic_remap(unsigned base, uint8_t imr)
{
	outb(PIC_MASTER_CMD, PIC_ICW1_INIT);
	outb(PIC_MASTER_DATA, (uint8_t)base);
	outb(PIC_MASTER_DATA, PIC_ICW3_MASTER);
	outb(PIC_MASTER_DATA, PIC_ICW4_8086);
	pic_set_mask(imr);
}
