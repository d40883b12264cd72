/* acpi_root: the RSDP from the UEFI configuration table (acpi_root.h). */
#include "../acpi_root.h"
#include "efi.h"
#include "../../lib/string.h"

static uint64_t find(EFI_GUID guid)
{
	for (UINTN i = 0; i < efi.st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &efi.st->ConfigurationTable[i];

		if (!memcmp(&t->VendorGuid, &guid, sizeof(guid)))
			return (uint64_t)(uintptr_t)t->VendorTable;
	}
	return 0;
}

uint64_t acpi_rsdp(void)
{
	EFI_GUID v2 = ACPI_20_TABLE_GUID, v1 = ACPI_TABLE_GUID;
	uint64_t r = find(v2);

	return r ? r : find(v1);
}
