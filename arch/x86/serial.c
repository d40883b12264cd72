/* serial: polled 16550 (register map: PC16550D data sheet, NS/TI). */
#include "serial.h"
#include "cpu.h"

enum {
	UART_THR = 0,	/* transmit holding (DLAB=0) */
	UART_DLL = 0,	/* divisor low (DLAB=1) */
	UART_IER = 1,
	UART_DLM = 1,
	UART_FCR = 2,
	UART_LCR = 3,
	UART_MCR = 4,
	UART_LSR = 5,
	UART_SCR = 7,
};

#define LSR_THRE 0x20
#define SPIN_LIMIT 1000000u	/* ~ tens of ms: far above one character */

int uart_init(struct uart *u, uint16_t base)
{
	u->base = base;
	u->alive = 0;
	outb(base + UART_SCR, 0x5a);
	if (inb(base + UART_SCR) != 0x5a)
		return -1;
	outb(base + UART_IER, 0x00);	/* polled: no interrupts */
	outb(base + UART_LCR, 0x80);	/* DLAB to set the divisor */
	outb(base + UART_DLL, 1);	/* 115200 = 1.8432 MHz / 16 / 1 */
	outb(base + UART_DLM, 0);
	outb(base + UART_LCR, 0x03);	/* 8 data bits, no parity, 1 stop */
	outb(base + UART_FCR, 0xc7);	/* FIFO on, cleared, 14-byte level */
	outb(base + UART_MCR, 0x03);	/* DTR, RTS */
	u->alive = 1;
	return 0;
}

static void put(struct uart *u, char c)
{
	unsigned spin = 0;

	while (!(inb(u->base + UART_LSR) & LSR_THRE))
		if (++spin == SPIN_LIMIT) {
			u->alive = 0;
			return;
		}
	outb(u->base + UART_THR, (uint8_t)c);
}

void uart_write(struct uart *u, const char *s, unsigned n)
{
	for (unsigned i = 0; i < n && u->alive; i++)
		put(u, s[i]);
}
