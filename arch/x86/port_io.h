/* port_io: I/O port access through a table, so a driver that probes for a
 * device (the 16550 in serial.c) can be run against a simulated one in
 * the host tests. */
#ifndef ARCH_X86_PORT_IO_H
#define ARCH_X86_PORT_IO_H

#include <stdint.h>

struct port_io {
	uint8_t (*in)(void *ctx, uint16_t port);
	void (*out)(void *ctx, uint16_t port, uint8_t v);
	void *ctx;
};

/* The CPU's own IN and OUT instructions. */
extern const struct port_io port_io_cpu;

#endif
