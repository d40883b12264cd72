/* smbios: the SMBIOS facts the platform detection reads (DMTF DSP0134
 * 3.x): an entry point's table address and size, and the System
 * Information (type 1) manufacturer string.  Pure logic over memory the
 * firmware entry found (UEFI configuration table, or the BIOS area scan). */
#ifndef BOOT_SMBIOS_H
#define BOOT_SMBIOS_H

#include <stdint.h>

/* ep: an entry point, "_SM3_" (64-bit table address at 10h, maximum size
 * at 0Ch) or "_SM_" (32-bit address at 18h, length at 16h; DSP0134
 * §5.2).  Returns 0 with the table, -1 when ep is neither. */
int smbios_entry(const uint8_t *ep, const uint8_t **base, uint32_t *len);
/* The type 1 manufacturer (offset 04h) into out, "" when absent. */
void smbios_manufacturer(const uint8_t *base, uint32_t len, char *out,
			 unsigned size);

#endif
