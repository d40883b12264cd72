/* pc_ports: the fixed I/O port map of a PC (see pc_ports.h).
 *
 * Sources: the IBM Personal Computer AT Technical Reference (1984),
 * "System I/O Address Map": 0x000-0x0ff belongs to the system board
 * (DMA 8237, interrupt controllers 8259, timer 8254, keyboard controller
 * 8042, RTC/CMOS and NMI mask, DMA page registers with the POST code port
 * 0x80, coprocessor 0xf0-0xff), and the fixed adapter ports (IDE, floppy,
 * LPT, VGA); Intel I/O Controller Hub 9 (ICH9) Family Datasheet (316972),
 * section 9.3.1 "Fixed I/O Address Ranges" (the chipset QEMU's q35 models:
 * port 0x92, APM 0xb2-0xb3, ELCR 0x4d0-0x4d1, reset control 0xcf9); the PCI
 * Local Bus Specification 3.0, section 3.2.2.3.2 (configuration mechanism
 * #1: CONFIG_ADDRESS 0xcf8, CONFIG_DATA 0xcfc); QEMU's docs/specs/fw_cfg.rst
 * (fw_cfg at 0x510-0x51b on x86) and the isa-debug-exit device that
 * tools/boot/qemu-boot.sh places at 0xf4.
 */
#include "pc_ports.h"

static const struct pc_port_range ranges[] = {
	{ .first = 0x000, .last = 0x01f,
	  .what = "the DMA controller (8237, channels 0-3)" },
	{ .first = 0x020, .last = 0x03f,
	  .what = "the master interrupt controller (8259)" },
	{ .first = 0x040, .last = 0x05f,
	  .what = "the interval timer (8254)" },
	{ .first = 0x060, .last = 0x06f,
	  .what = "the keyboard controller (8042) and port B (0x61)" },
	{ .first = 0x070, .last = 0x07f,
	  .what = "the RTC/CMOS and the NMI mask (0x70)" },
	{ .first = 0x080, .last = 0x08f,
	  .what = "the POST code port (0x80) and the DMA page registers" },
	{ .first = 0x090, .last = 0x09f,
	  .what = "the DMA page registers and port A (0x92: fast A20, "
		  "reset)" },
	{ .first = 0x0a0, .last = 0x0bf,
	  .what = "the slave interrupt controller (8259) and the APM/SMI "
		  "ports (0xb2, 0xb3)" },
	{ .first = 0x0c0, .last = 0x0df,
	  .what = "the DMA controller (8237, channels 4-7)" },
	{ .first = 0x0e0, .last = 0x0ef,
	  .what = "the system board's reserved range" },
	{ .first = 0x0f0, .last = 0x0ff,
	  .what = "the coprocessor ports (QEMU's isa-debug-exit is at "
		  "0xf4)" },
	{ .first = 0x170, .last = 0x177,
	  .what = "the secondary IDE controller" },
	{ .first = 0x1f0, .last = 0x1f7,
	  .what = "the primary IDE controller" },
	{ .first = 0x278, .last = 0x27f, .what = "the parallel port LPT2" },
	{ .first = 0x376, .last = 0x376,
	  .what = "the secondary IDE control port" },
	{ .first = 0x378, .last = 0x37f, .what = "the parallel port LPT1" },
	{ .first = 0x3b0, .last = 0x3df,
	  .what = "the VGA registers and the MDA parallel port (0x3bc)" },
	{ .first = 0x3f0, .last = 0x3f7,
	  .what = "the floppy controller and the IDE control port (0x3f6)" },
	{ .first = 0x4d0, .last = 0x4d1,
	  .what = "the interrupt edge/level control registers (ELCR)" },
	{ .first = 0x510, .last = 0x51b, .what = "QEMU's fw_cfg interface" },
	{ .first = 0xcf8, .last = 0xcff,
	  .what = "PCI configuration space (CONFIG_ADDRESS 0xcf8, reset "
		  "control 0xcf9, CONFIG_DATA 0xcfc)" },
};

const struct pc_port_range *pc_port_owner(unsigned first, unsigned last)
{
	for (unsigned i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (first <= ranges[i].last && last >= ranges[i].first)
			return &ranges[i];
	return 0;
}
