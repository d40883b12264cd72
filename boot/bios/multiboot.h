/* multiboot: the Multiboot Specification version 0.6.96 (Free Software
 * Foundation, 2009), as far as the legacy-BIOS build uses it: the header
 * a loader looks for (§3.1), the machine state at entry (§3.2: EAX holds
 * the magic, EBX the information structure, 32-bit flat protected mode,
 * paging off, IF = 0, GDTR/IDTR/ESP undefined) and the information
 * structure (§3.3). */
#ifndef BOOT_BIOS_MULTIBOOT_H
#define BOOT_BIOS_MULTIBOOT_H

#define MULTIBOOT_HEADER_MAGIC		0x1badb002
#define MULTIBOOT_BOOTLOADER_MAGIC	0x2badb002
/* Header flags (§3.1.2): bit 0 page-align modules, bit 1 memory info. */
#define MULTIBOOT_HEADER_FLAGS		0x00000003

#ifndef __ASSEMBLY__
#include <stdint.h>

/* Information structure flags (§3.3). */
#define MB_INFO_MEMORY		(1u << 0)	/* mem_lower, mem_upper */
#define MB_INFO_CMDLINE		(1u << 2)
#define MB_INFO_MODS		(1u << 3)	/* mods_count, mods_addr */
#define MB_INFO_MMAP		(1u << 6)	/* mmap_length, mmap_addr */
#define MB_INFO_LOADER_NAME	(1u << 9)
#define MB_INFO_FRAMEBUFFER	(1u << 12)

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;		/* KiB below 1 MiB, above */
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
	uint32_t apm_table;
	uint32_t vbe_control_info, vbe_mode_info;
	uint16_t vbe_mode, vbe_interface_seg, vbe_interface_off,
		 vbe_interface_len;
	uint64_t framebuffer_addr;
	uint32_t framebuffer_pitch, framebuffer_width, framebuffer_height;
	uint8_t framebuffer_bpp, framebuffer_type;
} __attribute__((packed));

/* A memory map entry: size does not count itself (§3.3). */
struct multiboot_mmap {
	uint32_t size;
	uint64_t addr, len;
	uint32_t type;				/* 1: available RAM */
} __attribute__((packed));

#define MB_MMAP_AVAILABLE	1
#define MB_FB_EGA_TEXT		2		/* framebuffer_type */
#endif

#endif
