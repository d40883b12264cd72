/* platform: QEMU and Bochs detection on a BIOS boot (see boot/platform.h).
 * The SMBIOS entry point is found where DSP0134 §5.2.1 puts it on a
 * non-UEFI machine: a 16-byte boundary in F0000h-FFFFFh.  Bochs's own
 * BIOS (Debian's bochsbios, rombios) carries "The Bochs Project" in its
 * ROM; a real BIOS does not, and the QEMU evidence wins over it (QEMU can
 * run Bochs's BIOS image). */
#include "../platform.h"
#include "../smbios.h"
#include "../../lib/string.h"

#define ROM_START	0xf0000u
#define ROM_END		0x100000u

static const char bochs_rom[] = "The Bochs Project";

static void read_smbios(struct platform *p)
{
	const uint8_t *base;
	uint32_t len;

	for (uintptr_t a = ROM_START; a + 0x20 <= ROM_END; a += 16)
		if (!smbios_entry((const uint8_t *)a, &base, &len)) {
			smbios_manufacturer(base, len, p->smbios_vendor,
					    sizeof(p->smbios_vendor));
			return;
		}
}

static int rom_says_bochs(void)
{
	const char *rom = (const char *)ROM_START;
	unsigned n = sizeof(bochs_rom) - 1;

	for (uintptr_t i = 0; i + n <= ROM_END - ROM_START; i++)
		if (!memcmp(rom + i, bochs_rom, n))
			return 1;
	return 0;
}

void platform_detect(struct platform *p)
{
	memset(p, 0, sizeof(*p));
	read_smbios(p);
	platform_decide(p, rom_says_bochs() ? "rom" : NULL);
}
