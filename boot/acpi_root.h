/* acpi_root: the ACPI RSDP as the firmware publishes it in the UEFI
 * configuration table (UEFI Specification 2.8 §4.6, EFI_ACPI_20_TABLE_GUID
 * preferred over the ACPI 1.0 GUID). */
#ifndef BOOT_ACPI_ROOT_H
#define BOOT_ACPI_ROOT_H

#include <stdint.h>

/* The RSDP's address, or 0 when the firmware publishes none. */
uint64_t acpi_rsdp(void);

#endif
