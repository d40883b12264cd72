/* bios: what the legacy-BIOS entry's modules offer each other (the
 * interfaces they share with the UEFI build are boot/'s headers). */
#ifndef BOOT_BIOS_BIOS_H
#define BOOT_BIOS_BIOS_H

#include <stdint.h>
#include "multiboot.h"

/* Takes the available RAM from the Multiboot memory map (boot/mem.h). */
void bios_mem_init(const struct multiboot_info *mb);

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
