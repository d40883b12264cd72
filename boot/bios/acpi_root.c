/* acpi_root: the RSDP on a BIOS machine (see boot/acpi_root.h), found
 * where ACPI 6.4 §5.2.5.1 says an IA-PC BIOS leaves it: on a 16-byte
 * boundary in the first 1 KiB of the EBDA (segment at 40Eh) or in the
 * BIOS area E0000h-FFFFFh, with "RSD PTR " and a zero checksum over the
 * first 20 bytes. */
#include "bios.h"
#include "../acpi_root.h"
#include "../../lib/string.h"

#define BIOS_AREA	0xe0000u
#define BIOS_AREA_END	0x100000u

static int rsdp_at(const uint8_t *p)
{
	uint8_t sum = 0;

	if (memcmp(p, "RSD PTR ", 8))
		return 0;
	for (unsigned i = 0; i < 20; i++)
		sum += p[i];
	return sum == 0;
}

static uint64_t scan(uintptr_t from, uintptr_t to)
{
	for (uintptr_t a = from; a + 20 <= to; a += 16)
		if (rsdp_at((const uint8_t *)a))
			return a;
	return 0;
}

uint64_t acpi_rsdp(void)
{
	uintptr_t ebda = bios_ebda();
	uint64_t r = 0;

	if (ebda)
		r = scan(ebda, ebda + 1024);
	return r ? r : scan(BIOS_AREA, BIOS_AREA_END);
}
