/* pit: counter 0 of the 8254 (pit.h). */
#include "pit.h"
#include "cpu.h"

/* Mode 0, "Interrupt on Terminal Count" (pit.h): the control word, then
 * the count LSB first (2^16 is written as 0). */
void pit_load_count(uint32_t count)
{
	outb(PIT_PORT_CONTROL, PIT_CW_CNT0_LSB_MSB | PIT_CW_MODE0);
	outb(PIT_PORT_COUNTER0, (uint8_t)count);
	outb(PIT_PORT_COUNTER0, (uint8_t)(count >> 8));
}

/* OUT, from the Read-Back command's status byte (pit.h). */
int pit_out_high(void)
{
	outb(PIT_PORT_CONTROL, PIT_READBACK_STATUS_CNT0);
	return !!(inb(PIT_PORT_COUNTER0) & PIT_STATUS_OUTPUT);
}

void pit_run_out(unsigned polls)
{
	pit_load_count(1);
	for (unsigned i = 0; i < polls && !pit_out_high(); i++)
		;
}

/* A mode-0 count of 2^16 - 1: OUT low from the control word until
 * terminal count (8254 datasheet, mode 0).  A count, not the control
 * word alone: QEMU's 8254 leaves OUT and its timer as they were on a
 * control word write, and changes them on a count. */
void pit_hold_low(void)
{
	pit_load_count(0xffff);
}

/* Mode 2, count 2^16 (IBM PC/AT Technical Reference, "System Timers"). */
void pit_bios_tick(void)
{
	outb(PIT_PORT_CONTROL, PIT_CW_CNT0_LSB_MSB | PIT_CW_MODE2);
	outb(PIT_PORT_COUNTER0, 0);
	outb(PIT_PORT_COUNTER0, 0);
}
