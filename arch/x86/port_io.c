/* port_io: the CPU's I/O ports as a port_io table (see port_io.h). */
#include "port_io.h"
#include "cpu.h"

static uint8_t cpu_in(void *ctx, uint16_t port)
{
	(void)ctx;
	return inb(port);
}

static void cpu_out(void *ctx, uint16_t port, uint8_t v)
{
	(void)ctx;
	outb(port, v);
}

const struct port_io port_io_cpu = { .in = cpu_in, .out = cpu_out };
