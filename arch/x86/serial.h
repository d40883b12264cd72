/* serial: polled 16550 UART output, 115200 8N1.  Used when the firmware
 * offers no Serial I/O protocol for the chosen port.  A port is proven to
 * be a 16550 before the harness writes to it (serial.c lists the checks),
 * and writes never block forever: a transmitter that stays busy marks the
 * port dead. */
#ifndef ARCH_X86_SERIAL_H
#define ARCH_X86_SERIAL_H

#include <stdint.h>
#include "port_io.h"

struct uart {
	const struct port_io *io;
	uint16_t base;
	int alive;
};

/* Probes base for a 16550 and, when one answers every check, programs it
 * for 115200 8N1 with FIFOs, polled; returns 0.  Otherwise returns -1 with
 * why: the check that failed and what was written to the port (nothing,
 * when the read-only checks failed), and the port is left dead. */
int uart_init(struct uart *u, const struct port_io *io, uint16_t base,
	      char *why, unsigned size);
void uart_write(struct uart *u, const char *s, unsigned n);
/* Returns once the transmitter is empty (LSR.TEMT), or the port dead. */
void uart_drain(struct uart *u);

#endif
