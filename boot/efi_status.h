/* efi_status: EFI_STATUS codes as the log names them.  Pure logic (no
 * firmware calls), so the host tests build it. */
#ifndef BOOT_EFI_STATUS_H
#define BOOT_EFI_STATUS_H

#include <stdint.h>

/* The name, or "status 0x<hex>" for a code the table does not know. */
void efi_status_format(char *buf, unsigned size, uint64_t status);

#endif
