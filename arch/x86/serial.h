/* serial: polled 16550 UART output, 115200 8N1.  Used when the firmware
 * offers no Serial I/O protocol for the chosen port.  Writes never block
 * forever: a transmitter that stays busy marks the port dead. */
#ifndef ARCH_X86_SERIAL_H
#define ARCH_X86_SERIAL_H

#include <stdint.h>

struct uart {
	uint16_t base;
	int alive;
};

/* Programs the UART; returns 0 when its scratch register answered, -1
 * when no UART decodes that base (the port is then left dead). */
int uart_init(struct uart *u, uint16_t base);
void uart_write(struct uart *u, const char *s, unsigned n);

#endif
