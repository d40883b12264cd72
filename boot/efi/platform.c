/* platform: QEMU detection on a UEFI boot (see boot/platform.h): the
 * SMBIOS tables from the UEFI configuration table, 3.x preferred. */
#include "../platform.h"
#include "../smbios.h"
#include "efi.h"
#include "../../lib/string.h"

static EFI_GUID smbios_guid = SMBIOS_TABLE_GUID;
static EFI_GUID smbios3_guid = SMBIOS3_TABLE_GUID;

static int table_for(EFI_GUID *guid, const uint8_t **base, uint32_t *len)
{
	for (UINTN i = 0; i < efi.st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &efi.st->ConfigurationTable[i];

		if (!memcmp(&t->VendorGuid, guid, sizeof(*guid)) &&
		    !smbios_entry(t->VendorTable, base, len))
			return 0;
	}
	return -1;
}

void platform_detect(struct platform *p)
{
	const uint8_t *base;
	uint32_t len;

	memset(p, 0, sizeof(*p));
	if (!table_for(&smbios3_guid, &base, &len) ||
	    !table_for(&smbios_guid, &base, &len))
		smbios_manufacturer(base, len, p->smbios_vendor,
				    sizeof(p->smbios_vendor));
	platform_decide(p, NULL);
}
