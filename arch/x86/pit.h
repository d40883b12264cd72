/* pit: the 8254 Programmable Interval Timer's counter 0: loaded as a
 * one-shot (mode 0), its OUT read back, run out at once, held low, or
 * given back to the BIOS's tick.  The watchdog routes it to the I/O APIC
 * or the 8259 on a legacy-BIOS boot (arch/x86/watchdog.h); this module
 * knows nothing of that.
 *
 * Citations: Intel 8254 Programmable Interval Timer datasheet, order no.
 * 231164-005 (September 1993): Table 1 (counter 0 at the first address,
 * the control word register at the fourth), Figure 7 the control word
 * (SC1:SC0 bits 7:6, RW1:RW0 bits 5:4 = 11 "least significant byte first,
 * then most significant byte", M2:M0 bits 3:1, BCD bit 0), "Mode 0:
 * Interrupt on Terminal Count" (OUT goes low when the control word is
 * written and high when the count reaches 0, and stays high until a new
 * count or mode 0 control word; a count of 0 is 2^16 in binary),
 * Figure 10 the Read-Back command (bits 7:6 = 11, COUNT# bit 5, STATUS#
 * bit 4, CNT0 bit 1) and Figure 11 the status byte (OUTPUT bit 7).  The
 * PC's wiring: counter 0 at ports 40h-43h, clocked at 1.193182 MHz
 * (14.31818 MHz / 12), its OUT on ISA IRQ 0 (IBM Personal Computer AT
 * Technical Reference, 1984, "System Timers"). */
#ifndef ARCH_X86_PIT_H
#define ARCH_X86_PIT_H

#include <stdint.h>

#define PIT_PORT_COUNTER0 0x40
#define PIT_PORT_CONTROL 0x43
#define PIT_HZ 1193182ull

/* Control words for counter 0 (SC = 00), LSB then MSB (RW = 11). */
#define PIT_CW_CNT0_LSB_MSB 0x30
#define PIT_CW_MODE0 (0u << 1)		/* interrupt on terminal count */
#define PIT_CW_MODE2 (2u << 1)		/* rate generator */
/* Read-back: latch counter 0's status only (COUNT# = 1, STATUS# = 0). */
#define PIT_READBACK_STATUS_CNT0 0xe2
#define PIT_STATUS_OUTPUT 0x80

/* The longest mode 0 count (0 stands for 2^16). */
#define PIT_MAX_COUNT 0x10000ull

/* Counter 0 in mode 0 with count (1 .. 2^16): OUT low now, high (one
 * rising edge) when the count runs out. */
void pit_load_count(uint32_t count);
/* 1 when counter 0's OUT is high, from the Read-Back status byte. */
int pit_out_high(void);
/* A count of 1: OUT rises at the next clock.  Waits for it, at most polls
 * reads of the status. */
void pit_run_out(unsigned polls);
/* OUT held low for 55 ms, whatever counter 0 was doing. */
void pit_hold_low(void);
/* Counter 0 as a BIOS leaves it: the 18.2 Hz tick. */
void pit_bios_tick(void);

#endif
