/* leave: the end of a run (see leave.h). */
#include "../leave.h"
#include "efi.h"
#include "../../lib/tap.h"
#include "../../arch/x86/cpu.h"

/* Under QEMU, exit=auto writes isa-debug-exit, which ends QEMU when the
 * device is there (tools/boot/qemu-boot.sh adds it); without it the run
 * returns to the firmware with its buffers still allocated. */
int leave_ends_machine(const struct platform *p, enum opt_exit mode)
{
	return mode == EXIT_SHUTDOWN || mode == EXIT_REBOOT ||
	       (mode == EXIT_AUTO && p->qemu);
}

void leave(int verdict, const struct platform *p, enum opt_exit mode)
{
	EFI_STATUS st = verdict == TAP_VERDICT_UNTESTED ? EFI_UNSUPPORTED :
			verdict ? EFI_ABORTED : EFI_SUCCESS;

	if (mode == EXIT_AUTO && p->qemu)
		outb(QEMU_DEBUG_EXIT_PORT, (uint8_t)verdict);
	/* Still here: no debug-exit device, or another mode was asked for. */
	if (mode == EXIT_SHUTDOWN)
		efi.rt->ResetSystem(EfiResetShutdown, st, 0, NULL);
	if (mode == EXIT_REBOOT)
		efi.rt->ResetSystem(EfiResetCold, st, 0, NULL);
}
