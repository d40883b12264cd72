/* clock: the TSC's rate on a BIOS boot (see boot/clock.h), measured
 * against the 8254 PIT's channel 2, which every PC has and which runs at
 * 1.193182 MHz (Intel 82C54 datasheet; the PC's input clock): the gate
 * (port 61h bit 0) starts a one-shot count of CALIBRATE_TICKS in mode 0,
 * and port 61h bit 5 reads the channel's OUT, which rises at terminal
 * count.  A machine without a TSC (CPUID.01H:EDX[4] = 0, a 486) reads 0.
 * The ACPI PM timer comes first where the FADT has one (clock_pm.c): a
 * wait that ends on OUT counts a delay after OUT rose as part of it. */
#include "../clock.h"
#include "../../arch/x86/cpu.h"

#define PIT_HZ		1193182u
#define PIT_CH2		0x42
#define PIT_MODE	0x43
#define PORT_B		0x61
#define PORT_B_GATE2	0x01
#define PORT_B_SPEAKER	0x02
#define PORT_B_OUT2	0x20
#define CALIBRATE_TICKS	59659u		/* 50 ms */
#define SPIN_LIMIT	100000000u

uint64_t clock_tsc_hz(void)
{
	static uint64_t hz;
	uint64_t t0, t1;
	uint8_t b;
	unsigned spin = 0;

	if (hz || !cpu_has_tsc())
		return hz;
	hz = clock_tsc_hz_pm_timer();
	if (hz)
		return hz;
	b = (inb(PORT_B) & ~PORT_B_SPEAKER) & ~PORT_B_GATE2;
	outb(PORT_B, b);
	outb(PIT_MODE, 0xb0);	/* channel 2, lobyte/hibyte, mode 0 */
	outb(PIT_CH2, CALIBRATE_TICKS & 0xff);
	outb(PIT_CH2, CALIBRATE_TICKS >> 8);
	t0 = rdtsc();
	outb(PORT_B, b | PORT_B_GATE2);
	while (!(inb(PORT_B) & PORT_B_OUT2))
		if (++spin == SPIN_LIMIT)
			return 0;	/* OUT never rose: no PIT to trust */
	t1 = rdtsc();
	outb(PORT_B, b);
	hz = (t1 - t0) * PIT_HZ / CALIBRATE_TICKS;
	clock_set_source("pit-channel2");
	return hz;
}
