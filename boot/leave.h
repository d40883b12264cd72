/* leave: how the harness ends a run.  Under QEMU (detected) it writes the
 * verdict to isa-debug-exit (QEMU exits with status verdict*2+1); with no
 * such device, or on a real machine, it follows exit=: return to the
 * firmware (default), or shut down / reboot through ResetSystem. */
#ifndef BOOT_LEAVE_H
#define BOOT_LEAVE_H

#include "options.h"
#include "platform.h"
#include <efi.h>

#define QEMU_DEBUG_EXIT_PORT 0xf4	/* -device isa-debug-exit,iobase=0xf4 */

/* verdict: 0 all passed, 1 a test failed, 2 the harness itself broke. */
EFI_STATUS leave(int verdict, const struct platform *p, enum opt_exit mode);

#endif
