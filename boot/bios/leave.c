/* leave: the end of a BIOS boot (see boot/leave.h).  There is no firmware
 * to return to.  Under QEMU (detected) the verdict goes to isa-debug-exit;
 * under Bochs (detected) "Shutdown" written to its port 8900h ends the
 * emulator (Bochs's own shutdown port, documented in its user guide,
 * "port 0x8900"); on a real machine the verdict stays on the screen and
 * serial, and the machine halts, or, when exit= asks, reboots through the
 * keyboard controller's pulse of the reset line (command FEh to port 64h,
 * Intel 8042 convention) then the chipset's Reset Control Register (CF9h)
 * or powers off through ACPI S5 (acpi_s5.c). */
#include "bios.h"
#include "../leave.h"
#include "../../arch/x86/cpu.h"
#include "../../lib/fmt.h"

#define BOCHS_SHUTDOWN_PORT	0x8900
#define KBC_STATUS		0x64
#define KBC_INPUT_FULL		0x02
#define KBC_PULSE_RESET		0xfe
#define RESET_CONTROL		0xcf9
#define RESET_CONTROL_HARD	0x06	/* full reset, CPU reset */
#define SPIN_LIMIT		1000000u

static void bochs_shutdown(void)
{
	static const char word[] = "Shutdown";

	for (unsigned i = 0; word[i]; i++)
		outb(BOCHS_SHUTDOWN_PORT, (uint8_t)word[i]);
}

static void reboot(void)
{
	unsigned spin = 0;

	while ((inb(KBC_STATUS) & KBC_INPUT_FULL) && ++spin < SPIN_LIMIT)
		;
	outb(KBC_STATUS, KBC_PULSE_RESET);
	for (spin = 0; spin < SPIN_LIMIT; spin++)
		__asm__ volatile("pause");
	outb(RESET_CONTROL, RESET_CONTROL_HARD);
}

static void halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* leave() never returns here: it ends Bochs or QEMU, resets, powers off
 * or halts. */
int leave_ends_machine(const struct platform *p, enum opt_exit mode)
{
	(void)p;
	(void)mode;
	return 1;
}

void leave(int verdict, const struct platform *p, enum opt_exit mode)
{
	static const char *const words[] = { "PASS", "FAIL", "BROKEN",
					     "UNTESTED" };
	char line[80];

	console_drain();
	if (mode == EXIT_AUTO && p->qemu)
		outb(QEMU_DEBUG_EXIT_PORT, (uint8_t)verdict);
	if (mode == EXIT_AUTO && p->bochs)
		bochs_shutdown();
	if (mode == EXIT_REBOOT)
		reboot();
	if (mode == EXIT_SHUTDOWN)
		acpi_power_off();
	/* Still here: a real machine, or the way asked for failed. */
	fmt_snprintf(line, sizeof(line), "pmu-harness: verdict %d (%s); the "
		     "machine is halted", verdict,
		     verdict >= 0 && verdict <= 3 ? words[verdict] : "?");
	console_screen_line(line);
	halt_forever();
}
