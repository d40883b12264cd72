/* serial: polled 16550, proven before use.
 *
 * Register map, reset values and the bits that always read 0: the PC16550D
 * data sheet (National Semiconductor, June 1995; TI SNLS378C), Table II
 * "Summary of Registers", the Interrupt Identification table, and the
 * Modem Control Register's loop mode (MCR bit 4: the transmitter loops to
 * the receiver and the four modem outputs to the four modem inputs, CTS =
 * RTS, DSR = DTR, RI = OUT1, DCD = OUT2; nothing reaches the serial line).
 *
 * The probe of a base, in this order, stopping at the first check that
 * fails:
 *  1. reads only (LCR, MCR, IIR, LSR, and IER when LCR's DLAB is clear):
 *     not every one 0xff (what an ISA/LPC bus gives where no device
 *     answers, and QEMU where none is placed); the bits a 16550 always
 *     reads 0 are 0 (MCR 7-6, IIR 4, IER 7-4; MCR bit 5 and IIR bit 5 are
 *     used by the 16750 and later, so not checked); the IIR names an
 *     interrupt the table has, a FIFO state other than 01, and a timeout
 *     interrupt only with FIFOs on; LSR bit 7 only with FIFOs on; LSR's
 *     TEMT never without THRE; and a pending interrupt is one IER enables.
 *     A read of IIR may clear a pending THRE interrupt and a read of LSR
 *     its error bits; nothing is written before these pass;
 *  2. the scratch register (base+7) holds 0x55 and 0xaa, then gets its old
 *     value back;
 *  3. in loop mode, the modem status inputs follow three patterns of the
 *     modem outputs; the MCR gets its old value back if they do not;
 *  4. programmed for 115200 8N1 with FIFOs, a byte sent in loop mode comes
 *     back through the receiver.
 */
#include "serial.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

enum {
	UART_RBR = 0,	/* receive buffer (read, DLAB=0) */
	UART_THR = 0,	/* transmit holding (write, DLAB=0) */
	UART_DLL = 0,	/* divisor low (DLAB=1) */
	UART_IER = 1,
	UART_DLM = 1,
	UART_IIR = 2,	/* read */
	UART_FCR = 2,	/* write */
	UART_LCR = 3,
	UART_MCR = 4,
	UART_LSR = 5,
	UART_MSR = 6,
	UART_SCR = 7,
};

#define LCR_DLAB 0x80
#define LCR_8N1 0x03
#define MCR_DTR 0x01
#define MCR_RTS 0x02
#define MCR_OUT1 0x04
#define MCR_OUT2 0x08
#define MCR_LOOP 0x10
#define MCR_ZERO 0xc0	/* always 0 (bit 5: 16750 auto flow control) */
#define IIR_NO_INT 0x01
#define IIR_ID 0x0f
#define IIR_ZERO 0x10	/* always 0 (bit 5: 16750 64-byte FIFO) */
#define IIR_FIFO 0xc0
#define IIR_FIFO_BAD 0x40
#define IIR_TIMEOUT 0x08
#define IER_ZERO 0xf0
#define LSR_DR 0x01
#define LSR_THRE 0x20
#define LSR_TEMT 0x40
#define LSR_FIFO_ERR 0x80
#define MSR_INPUTS 0xf0	/* CTS, DSR, RI, DCD */
#define FCR_ON_CLEAR 0xc7	/* FIFO on, both cleared, 14-byte level */
#define SPIN_LIMIT 1000000u	/* ~ tens of ms: far above one character */

static uint8_t rd(const struct port_io *io, uint16_t base, int reg)
{
	return io->in(io->ctx, (uint16_t)(base + reg));
}

static void wr(const struct port_io *io, uint16_t base, int reg, uint8_t v)
{
	io->out(io->ctx, (uint16_t)(base + reg), v);
}

__attribute__((format(printf, 3, 4)))
static int refuse(char *why, unsigned size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* The IER bit that enables the interrupt an IIR identification names. */
static int ier_enable_for(uint8_t id)
{
	switch (id) {
	case 0x6: return 0x04;	/* receiver line status */
	case 0x4: return 0x01;	/* received data available */
	case 0xc: return 0x01;	/* character timeout (FIFO mode) */
	case 0x2: return 0x02;	/* transmitter holding register empty */
	case 0x0: return 0x08;	/* modem status */
	default: return -1;	/* no such identification */
	}
}

static int check_iir(uint8_t iir, char *why, unsigned size)
{
	uint8_t id = iir & IIR_ID;

	if (iir & IIR_ZERO)
		return refuse(why, size, "IIR reads 0x%02x: bit 4 is always "
			      "0", iir);
	if ((iir & IIR_FIFO) == IIR_FIFO_BAD)
		return refuse(why, size, "IIR reads 0x%02x: FIFO bits 01 do "
			      "not occur", iir);
	if (!(iir & IIR_NO_INT) && ier_enable_for(id) < 0)
		return refuse(why, size, "IIR reads 0x%02x: no such interrupt "
			      "identification", iir);
	if ((iir & IIR_TIMEOUT) && !(iir & IIR_FIFO))
		return refuse(why, size, "IIR reads 0x%02x: a timeout "
			      "interrupt without FIFOs", iir);
	return 0;
}

static int check_lsr(uint8_t lsr, uint8_t iir, char *why, unsigned size)
{
	if ((lsr & LSR_TEMT) && !(lsr & LSR_THRE))
		return refuse(why, size, "LSR reads 0x%02x: transmitter empty "
			      "but its holding register full", lsr);
	if ((lsr & LSR_FIFO_ERR) && !(iir & IIR_FIFO))
		return refuse(why, size, "LSR reads 0x%02x: a FIFO error "
			      "without FIFOs", lsr);
	return 0;
}

/* Step 1: reads only. */
static int plausible(const struct port_io *io, uint16_t base, char *why,
		     unsigned size)
{
	uint8_t lcr = rd(io, base, UART_LCR), mcr = rd(io, base, UART_MCR);
	uint8_t iir = rd(io, base, UART_IIR), lsr = rd(io, base, UART_LSR);
	uint8_t ier;

	if (lcr == 0xff && mcr == 0xff && iir == 0xff && lsr == 0xff)
		return refuse(why, size, "no device answers: LCR, MCR, IIR "
			      "and LSR read 0xff");
	if (mcr & MCR_ZERO)
		return refuse(why, size, "MCR reads 0x%02x: bits 7-6 are "
			      "always 0", mcr);
	if (check_iir(iir, why, size) || check_lsr(lsr, iir, why, size))
		return -1;
	if (lcr & LCR_DLAB)
		return 0;	/* base+1 is the divisor latch: no IER */
	ier = rd(io, base, UART_IER);
	if (ier & IER_ZERO)
		return refuse(why, size, "IER reads 0x%02x: bits 7-4 are "
			      "always 0", ier);
	if (!(iir & IIR_NO_INT) && !(ier & ier_enable_for(iir & IIR_ID)))
		return refuse(why, size, "IIR reads 0x%02x: an interrupt IER "
			      "(0x%02x) does not enable", iir, ier);
	return 0;
}

/* Step 2: the scratch register keeps what is written to it. */
static int scratch_holds(const struct port_io *io, uint16_t base, char *why,
			 unsigned size)
{
	static const uint8_t patterns[] = { 0x55, 0xaa };
	uint8_t old = rd(io, base, UART_SCR);

	for (unsigned i = 0; i < sizeof(patterns); i++) {
		uint8_t got;

		wr(io, base, UART_SCR, patterns[i]);
		got = rd(io, base, UART_SCR);
		if (got != patterns[i]) {
			wr(io, base, UART_SCR, old);
			return refuse(why, size, "scratch register (base+7) "
				      "wrote 0x%02x, read 0x%02x; its old "
				      "value written back", patterns[i], got);
		}
	}
	wr(io, base, UART_SCR, old);
	return 0;
}

/* Step 3: in loop mode the modem inputs are the modem outputs. */
struct loop_pattern {
	uint8_t mcr, msr;
};

static const struct loop_pattern loop_patterns[] = {
	{ .mcr = MCR_LOOP, .msr = 0x00 },
	{ .mcr = MCR_LOOP | MCR_DTR | MCR_RTS | MCR_OUT1 | MCR_OUT2,
	  .msr = 0xf0 },
	/* DTR and OUT2 alone: DSR and DCD */
	{ .mcr = MCR_LOOP | MCR_DTR | MCR_OUT2, .msr = 0xa0 },
};

static int modem_loop(const struct port_io *io, uint16_t base, char *why,
		      unsigned size)
{
	uint8_t old = rd(io, base, UART_MCR);

	for (unsigned i = 0; i < sizeof(loop_patterns) /
				 sizeof(loop_patterns[0]); i++) {
		const struct loop_pattern *p = &loop_patterns[i];
		uint8_t msr;

		wr(io, base, UART_MCR, p->mcr);
		msr = rd(io, base, UART_MSR) & MSR_INPUTS;
		if (msr != p->msr) {
			wr(io, base, UART_MCR, old);
			return refuse(why, size, "loop mode: MCR 0x%02x gave "
				      "modem status 0x%02x, want 0x%02x; MCR "
				      "written back", p->mcr, msr, p->msr);
		}
	}
	return 0;
}

static void program(const struct port_io *io, uint16_t base)
{
	wr(io, base, UART_LCR, LCR_8N1);	/* DLAB clear: base+1 is IER */
	wr(io, base, UART_IER, 0x00);		/* polled: no interrupts */
	wr(io, base, UART_LCR, LCR_DLAB);	/* to set the divisor */
	wr(io, base, UART_DLL, 1);		/* 115200 = 1.8432 MHz/16/1 */
	wr(io, base, UART_DLM, 0);
	wr(io, base, UART_LCR, LCR_8N1);
	wr(io, base, UART_FCR, FCR_ON_CLEAR);
}

/* Step 4: a byte sent in loop mode is received. */
static int byte_loop(const struct port_io *io, uint16_t base, char *why,
		     unsigned size)
{
	static const uint8_t sent = 0xa5;
	unsigned spin = 0;
	uint8_t got;

	wr(io, base, UART_MCR, MCR_LOOP | MCR_DTR | MCR_RTS);
	while (!(rd(io, base, UART_LSR) & LSR_THRE))
		if (++spin == SPIN_LIMIT)
			return refuse(why, size, "loop mode: the transmitter "
				      "stays busy");
	wr(io, base, UART_THR, sent);
	for (spin = 0; !(rd(io, base, UART_LSR) & LSR_DR); )
		if (++spin == SPIN_LIMIT)
			return refuse(why, size, "loop mode: 0x%02x sent, "
				      "nothing received", sent);
	got = rd(io, base, UART_RBR);
	if (got != sent)
		return refuse(why, size, "loop mode: 0x%02x sent, 0x%02x "
			      "received", sent, got);
	return 0;
}

int uart_init(struct uart *u, const struct port_io *io, uint16_t base,
	      char *why, unsigned size)
{
	u->io = io;
	u->base = base;
	u->alive = 0;
	if (plausible(io, base, why, size)) {
		size_t n = str_len(why);

		fmt_snprintf(why + n, size - n, "; nothing written");
		return -1;
	}
	if (scratch_holds(io, base, why, size) ||
	    modem_loop(io, base, why, size))
		return -1;
	program(io, base);
	if (byte_loop(io, base, why, size)) {
		wr(io, base, UART_MCR, MCR_DTR | MCR_RTS);
		return -1;
	}
	/* Out of loop mode, FIFOs cleared of the test byte's traces. */
	wr(io, base, UART_MCR, MCR_DTR | MCR_RTS);
	wr(io, base, UART_FCR, FCR_ON_CLEAR);
	u->alive = 1;
	return 0;
}

static void put(struct uart *u, char c)
{
	unsigned spin = 0;

	while (!(rd(u->io, u->base, UART_LSR) & LSR_THRE))
		if (++spin == SPIN_LIMIT) {
			u->alive = 0;
			return;
		}
	wr(u->io, u->base, UART_THR, (uint8_t)c);
}

void uart_write(struct uart *u, const char *s, unsigned n)
{
	for (unsigned i = 0; i < n && u->alive; i++)
		put(u, s[i]);
}

/* Waits until the transmitter is empty (LSR.TEMT: holding and shift
 * registers both), so a byte written last is on the wire before the
 * machine stops; an emulator that models the UART's timing (Bochs) drops
 * what is still in the FIFO otherwise. */
void uart_drain(struct uart *u)
{
	unsigned spin = 0;

	while (u->alive && !(rd(u->io, u->base, UART_LSR) & LSR_TEMT))
		if (++spin == SPIN_LIMIT)
			u->alive = 0;
}
