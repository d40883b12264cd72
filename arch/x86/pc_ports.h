/* pc_ports: I/O ports that well-known PC devices decode at fixed
 * addresses.  No 16550 can be there, and touching them can do harm (0x80
 * shows POST codes, 0xcf9 resets the machine, 0xb2 raises an SMI, QEMU's
 * isa-debug-exit at 0xf4 ends the machine), so serial= refuses them before
 * any access.  Pure data; pc_ports.c cites where the map comes from. */
#ifndef ARCH_X86_PC_PORTS_H
#define ARCH_X86_PC_PORTS_H

struct pc_port_range {
	unsigned first, last;	/* inclusive */
	const char *what;	/* "the POST code port (0x80) and ..." */
};

/* The first well-known range that overlaps ports first..last, or NULL. */
const struct pc_port_range *pc_port_owner(unsigned first, unsigned last);

#endif
