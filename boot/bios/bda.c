/* bda: what the BIOS data area at 400h says of low memory (bios.h), read
 * by the table scans (the ACPI RSDP, the MP floating pointer) and by the
 * choice of the application processors' start-up page. */
#include "bios.h"

#define BDA_BASE_KIB	0x413		/* word: KiB of base memory */
#define BDA_EBDA_SEG	0x40e		/* word: the EBDA's segment */
#define BASE_MEMORY_END	0xa0000u	/* 640 KiB: video memory above */

/* The BDA sits near address 0, where the compiler sees a null-page
 * access; the empty asm hides the constant from it. */
static uint16_t bda_word(uintptr_t at)
{
	const volatile uint16_t *p = (const volatile uint16_t *)at;

	__asm__("" : "+r"(p));
	return *p;
}

uintptr_t bios_ebda(void)
{
	uintptr_t ebda = (uintptr_t)bda_word(BDA_EBDA_SEG) << 4;

	/* An EBDA sits at the top of base memory, 1 KiB to 128 KiB below
	 * 640 KiB; anything else is not one (a BIOS without an EBDA leaves
	 * the word 0). */
	return ebda >= 0x80000 && ebda < BASE_MEMORY_END ? ebda : 0;
}

uintptr_t bios_base_memory_end(void)
{
	uintptr_t kib = bda_word(BDA_BASE_KIB);

	return kib >= 64 && kib * 1024 <= BASE_MEMORY_END ? kib * 1024 :
	       BASE_MEMORY_END;
}
