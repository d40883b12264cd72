/* bios: what the legacy-BIOS entry's modules offer each other (the
 * interfaces they share with the UEFI build are boot/'s headers). */
#ifndef BOOT_BIOS_BIOS_H
#define BOOT_BIOS_BIOS_H

#include <stdint.h>
#include "multiboot.h"

/* Takes the available RAM from the Multiboot memory map (boot/mem.h). */
void bios_mem_init(const struct multiboot_info *mb);
/* A 4 KiB page below 1 MiB that the memory map calls available RAM and
 * that holds nothing of the BIOS's (the real-mode IVT and the BDA below
 * 1000h, the EBDA and what lies above it) or of the loader's (the
 * Multiboot information, memory map, command line, modules): the lowest
 * such page (mem.c says why).  0, with *why, when there is none. */
uint32_t bios_low_page(const char **why);

/* The BIOS data area (IBM PC/AT BIOS: the EBDA's segment at 40Eh, base
 * memory's size in KiB at 413h): the EBDA's address, 0 when the word
 * names none (bda.c); where base memory ends (640 KiB when the word
 * says nothing believable). */
uintptr_t bios_ebda(void);
uintptr_t bios_base_memory_end(void);

/* Where the VGA text buffer is: from the Multiboot framebuffer when the
 * loader describes an EGA text one, else the PC's 0xB8000; 0 when the
 * loader set up a graphics framebuffer (no text screen then). */
void bios_vga_init(const struct multiboot_info *mb);

/* Drains the UART (LSR.TEMT) so nothing written is lost when the machine
 * stops; the line stays on the screen. */
void console_drain(void);
/* Powers the machine off through ACPI S5 (acpi_s5.c); returns where the
 * tables do not say how. */
void acpi_power_off(void);
/* Writes a line to the screen only (the verdict at the end). */
void console_screen_line(const char *s);

#endif
