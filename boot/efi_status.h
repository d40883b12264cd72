/* efi_status: EFI_STATUS codes as the log names them.  Pure logic (no
 * firmware calls), so the host tests build it. */
#ifndef BOOT_EFI_STATUS_H
#define BOOT_EFI_STATUS_H

#include <stdint.h>

/* "EFI_VOLUME_FULL" for a code of the UEFI spec's status tables, else
 * NULL. */
const char *efi_status_name(uint64_t status);
/* The name, or "status 0x<hex>" for a code the table does not know. */
void efi_status_format(char *buf, unsigned size, uint64_t status);

#endif
