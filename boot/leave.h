/* leave: how the harness ends a run.  Under QEMU (detected) it writes the
 * verdict to isa-debug-exit (QEMU exits with status verdict*2+1).  With
 * no such device, or on another machine, it follows exit=: the UEFI build
 * returns to the firmware (default) or shuts down / reboots through
 * ResetSystem; the BIOS build (boot/bios/leave.c) ends Bochs (detected)
 * through its shutdown port, and otherwise halts with the verdict on the
 * screen, or reboots / powers off when exit= asks. */
#ifndef BOOT_LEAVE_H
#define BOOT_LEAVE_H

#include "options.h"
#include "platform.h"

#define QEMU_DEBUG_EXIT_PORT 0xf4	/* -device isa-debug-exit,iobase=0xf4 */

/* verdict (enum tap_verdict, lib/tap.h): 0 all passed, 1 a test failed,
 * 2 the harness itself broke, 3 untested (nothing failed, but nothing of
 * what the run was asked to test ran).  Returns only where the firmware takes the run back (UEFI exit=return). */
void leave(int verdict, const struct platform *p, enum opt_exit mode);
/* Does leave() end the machine rather than give it back to the firmware
 * (a reset, a power-off, QEMU's debug exit)?  Then memory freed first is
 * wasted work: OVMF fills each freed page byte by byte, 0.1-0.2 s of CPU
 * of a boot with the 64 MiB pointer-chase buffer under QEMU (issue 44). */
int leave_ends_machine(const struct platform *p, enum opt_exit mode);

#endif
