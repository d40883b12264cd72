/* Host tests for arch/x86/serial.c: the 16550 probe against simulated
 * devices.  What is refused at each step, that nothing is written before
 * the read-only checks pass, that what the scratch and loop steps write is
 * written back, that nothing leaves on the serial line during the probe,
 * and that an accepted UART is programmed for 115200 8N1 and sends. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "arch/x86/serial.h"

/* host-sources: arch/x86/serial.c lib/fmt.c lib/string.c */

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define BASE 0x2e8
#define MAX_WRITES 64

enum reg { RBR, IER, IIR, LCR, MCR, LSR, MSR, SCR };
enum sim_kind {
	SIM_FIXED,	/* reads give regs[]; writes kept only if latch */
	SIM_16550,	/* a model of the 16550's registers */
};

struct sim {
	enum sim_kind kind;
	uint8_t regs[8];	/* SIM_FIXED: what each offset reads */
	int latch;		/* SIM_FIXED: writes change regs[] */
	/* SIM_16550: state and its faults */
	uint8_t ier, lcr, mcr, scr, dll, dlm, msr_in;
	int fifo_on, no_scratch, no_modem_loop, no_data_loop;
	uint8_t rx[16];
	unsigned rx_n;
	/* what happened */
	struct { uint16_t port; uint8_t v; } writes[MAX_WRITES];
	unsigned n_writes;
	char wire[64];		/* bytes sent on the serial line */
	unsigned wire_n;
};

static uint8_t loop_msr(uint8_t mcr)
{
	/* CTS = RTS, DSR = DTR, RI = OUT1, DCD = OUT2 */
	return (uint8_t)((mcr & 0x02) << 3 | (mcr & 0x01) << 5 |
			 (mcr & 0x0c) << 4);
}

static uint8_t model_iir(const struct sim *s)
{
	uint8_t fifo = s->fifo_on ? 0xc0 : 0;

	if (s->rx_n && (s->ier & 0x01))
		return fifo | 0x04;
	if (s->ier & 0x02)
		return fifo | 0x02;
	return fifo | 0x01;
}

static uint8_t model_in(struct sim *s, int reg)
{
	int dlab = s->lcr & 0x80;
	uint8_t v;

	switch (reg) {
	case RBR:
		if (dlab)
			return s->dll;
		if (!s->rx_n)
			return 0;
		v = s->rx[0];
		memmove(s->rx, s->rx + 1, --s->rx_n);
		return v;
	case IER: return dlab ? s->dlm : s->ier;
	case IIR: return model_iir(s);
	case LCR: return s->lcr;
	case MCR: return s->mcr;
	case LSR: return (uint8_t)(0x60 | (s->rx_n ? 0x01 : 0));
	case MSR:
		if ((s->mcr & 0x10) && !s->no_modem_loop)
			return loop_msr(s->mcr);
		return s->msr_in;
	default: return s->no_scratch ? 0xff : s->scr;
	}
}

static void model_out(struct sim *s, int reg, uint8_t v)
{
	int dlab = s->lcr & 0x80;

	switch (reg) {
	case RBR:
		if (dlab)
			s->dll = v;
		else if (!(s->mcr & 0x10))
			s->wire[s->wire_n++] = (char)v;
		else if (!s->no_data_loop)
			s->rx[s->rx_n++] = v;
		break;
	case IER:
		if (dlab)
			s->dlm = v;
		else
			s->ier = v & 0x0f;
		break;
	case IIR:	/* FCR */
		s->fifo_on = v & 1;
		if (v & 2)
			s->rx_n = 0;
		break;
	case LCR: s->lcr = v; break;
	case MCR: s->mcr = v & 0x1f; break;
	case SCR: s->scr = v; break;
	default: break;
	}
}

static uint8_t sim_in(void *ctx, uint16_t port)
{
	struct sim *s = ctx;

	assert_true(port >= BASE && port < BASE + 8);
	if (s->kind == SIM_FIXED)
		return s->regs[port - BASE];
	return model_in(s, port - BASE);
}

static void sim_out(void *ctx, uint16_t port, uint8_t v)
{
	struct sim *s = ctx;

	assert_true(port >= BASE && port < BASE + 8);
	assert_true(s->n_writes < MAX_WRITES);
	s->writes[s->n_writes].port = port;
	s->writes[s->n_writes++].v = v;
	if (s->kind == SIM_FIXED) {
		if (s->latch)
			s->regs[port - BASE] = v;
	} else {
		model_out(s, port - BASE, v);
	}
}

/* The last value written to a register, or -1 when none was. */
static int last_write(const struct sim *s, int reg)
{
	for (unsigned i = s->n_writes; i-- > 0; )
		if (s->writes[i].port == BASE + reg)
			return s->writes[i].v;
	return -1;
}

/* Writes to registers other than these. */
static int writes_outside(const struct sim *s, int reg_a, int reg_b)
{
	for (unsigned i = 0; i < s->n_writes; i++)
		if (s->writes[i].port != BASE + reg_a &&
		    s->writes[i].port != BASE + reg_b)
			return 1;
	return 0;
}

/* A device that is refused: at which step, and why. */
struct refuse_case {
	const char *name;
	struct sim sim;
	int step;		/* 1 read-only, 2 scratch, 3 modem loop,
				 * 4 data loop */
	const char *mention;
};

#define FIXED(...) { .kind = SIM_FIXED, .regs = { __VA_ARGS__ } }

static const struct refuse_case refused[] = {
	{ .name = "floating bus", .sim = FIXED(0xff, 0xff, 0xff, 0xff, 0xff,
					       0xff, 0xff, 0xff),
	  .step = 1, .mention = "no device answers: LCR, MCR, IIR and LSR "
				"read 0xff; nothing written" },
	{ .name = "floating bus, latching", .sim = { .kind = SIM_FIXED,
	  .latch = 1, .regs = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				0xff } },
	  .step = 1, .mention = "no device answers" },
	{ .name = "zeros", .sim = FIXED(0, 0, 0, 0, 0, 0, 0, 0), .step = 1,
	  .mention = "IIR reads 0x00: an interrupt IER (0x00) does not "
		     "enable; nothing written" },
	{ .name = "mcr high bits", .sim = FIXED([IIR] = 0x01, [MCR] = 0x40,
						[LSR] = 0x60),
	  .step = 1, .mention = "MCR reads 0x40: bits 7-6 are always 0" },
	{ .name = "iir bit 4", .sim = FIXED([IIR] = 0x11, [LSR] = 0x60),
	  .step = 1, .mention = "IIR reads 0x11: bit 4 is always 0" },
	{ .name = "iir fifo 01", .sim = FIXED([IIR] = 0x41, [LSR] = 0x60),
	  .step = 1, .mention = "FIFO bits 01" },
	{ .name = "iir id", .sim = FIXED([IIR] = 0x08, [IER] = 0x0f,
					 [LSR] = 0x60),
	  .step = 1, .mention = "IIR reads 0x08: no such interrupt" },
	{ .name = "iir timeout without fifo",
	  .sim = FIXED([IIR] = 0x0c, [IER] = 0x01, [LSR] = 0x61),
	  .step = 1, .mention = "a timeout interrupt without FIFOs" },
	{ .name = "lsr temt without thre",
	  .sim = FIXED([IIR] = 0x01, [LSR] = 0x40),
	  .step = 1, .mention = "LSR reads 0x40: transmitter empty" },
	{ .name = "lsr fifo error without fifo",
	  .sim = FIXED([IIR] = 0x01, [LSR] = 0xe0),
	  .step = 1, .mention = "a FIFO error without FIFOs" },
	{ .name = "ier high bits", .sim = FIXED([IIR] = 0x01, [IER] = 0x10,
						[LSR] = 0x60),
	  .step = 1, .mention = "IER reads 0x10: bits 7-4 are always 0" },
	{ .name = "interrupt not enabled",
	  .sim = FIXED([IIR] = 0xc2, [IER] = 0x01, [LSR] = 0x60),
	  .step = 1, .mention = "IIR reads 0xc2: an interrupt IER (0x01)" },
	/* plausible registers that keep nothing written: a ROM, say */
	{ .name = "read-only lookalike",
	  .sim = FIXED([IIR] = 0x01, [LCR] = 0x03, [MCR] = 0x03,
		       [LSR] = 0x60, [SCR] = 0x12),
	  .step = 2, .mention = "scratch register (base+7) wrote 0x55, read "
				"0x12; its old value written back" },
	/* registers that keep what is written, but no UART behind them */
	{ .name = "latches", .sim = { .kind = SIM_FIXED, .latch = 1,
	  .regs = { [IIR] = 0x01, [LSR] = 0x60, [MSR] = 0x30 } },
	  .step = 3, .mention = "loop mode: MCR 0x10 gave modem status "
				"0x30, want 0x00; MCR written back" },
	{ .name = "8250: no scratch register",
	  .sim = { .kind = SIM_16550, .no_scratch = 1 },
	  .step = 2, .mention = "wrote 0x55, read 0xff" },
	{ .name = "no modem loop",
	  .sim = { .kind = SIM_16550, .no_modem_loop = 1, .msr_in = 0xb0 },
	  .step = 3, .mention = "loop mode: MCR 0x10 gave modem status "
				"0xb0, want 0x00" },
	{ .name = "no data loop",
	  .sim = { .kind = SIM_16550, .no_data_loop = 1 },
	  .step = 4, .mention = "loop mode: 0xa5 sent, nothing received" },
};

static void check_refused(const struct refuse_case *c)
{
	struct sim s = c->sim;
	struct port_io io = { .in = sim_in, .out = sim_out, .ctx = &s };
	/* what the registers read before: the probe writes those back */
	uint8_t old_scr = sim_in(&s, BASE + SCR);
	uint8_t old_mcr = sim_in(&s, BASE + MCR);
	struct uart u;
	char why[200] = "";

	if (uart_init(&u, &io, BASE, why, sizeof(why)) != -1)
		fail_msg("%s: accepted", c->name);
	if (u.alive)
		fail_msg("%s: alive", c->name);
	if (!strstr(why, c->mention))
		fail_msg("%s: \"%s\" lacks \"%s\"", c->name, why, c->mention);
	if (s.wire_n)
		fail_msg("%s: %u bytes went out on the line", c->name,
			 s.wire_n);
	switch (c->step) {
	case 1:
		if (s.n_writes)
			fail_msg("%s: %u writes before the read-only checks "
				 "passed", c->name, s.n_writes);
		break;
	case 2:
		if (writes_outside(&s, SCR, SCR) ||
		    last_write(&s, SCR) != old_scr)
			fail_msg("%s: scratch step wrote elsewhere or left "
				 "0x%02x", c->name, last_write(&s, SCR));
		break;
	case 3:
		if (writes_outside(&s, SCR, MCR) ||
		    last_write(&s, SCR) != old_scr ||
		    last_write(&s, MCR) != old_mcr)
			fail_msg("%s: loop step did not restore", c->name);
		break;
	default:
		/* out of loop mode, whatever else was programmed */
		if (last_write(&s, MCR) != 0x03)
			fail_msg("%s: MCR left 0x%02x", c->name,
				 last_write(&s, MCR));
		break;
	}
}

static void test_refused(void **state)
{
	for (unsigned i = 0; i < N(refused); i++)
		check_refused(&refused[i]);
}

/* A 16550 in the states firmware and reset leave it: accepted,
 * programmed, and it sends. */
struct accept_case {
	const char *name;
	struct sim sim;
};

static const struct accept_case accepted[] = {
	/* QEMU's reset state: MCR OUT2, nothing programmed */
	{ .name = "reset", .sim = { .kind = SIM_16550, .mcr = 0x08,
				    .msr_in = 0xb0 } },
	{ .name = "firmware programmed", .sim = { .kind = SIM_16550,
	  .lcr = 0x03, .mcr = 0x0b, .fifo_on = 1, .dll = 1, .scr = 0x77 } },
	{ .name = "divisor latch left open", .sim = { .kind = SIM_16550,
	  .lcr = 0x83, .ier = 0x05 } },
	{ .name = "received byte pending", .sim = { .kind = SIM_16550,
	  .lcr = 0x03, .ier = 0x01, .fifo_on = 1, .rx = { 'x' },
	  .rx_n = 1 } },
	{ .name = "thre interrupt enabled", .sim = { .kind = SIM_16550,
	  .ier = 0x02 } },
};

static void test_accepted(void **state)
{
	for (unsigned i = 0; i < N(accepted); i++) {
		const struct accept_case *c = &accepted[i];
		struct sim s = c->sim;
		struct port_io io = { .in = sim_in, .out = sim_out, .ctx = &s };
		uint8_t old_scr = s.scr;
		struct uart u;
		char why[200] = "";

		if (uart_init(&u, &io, BASE, why, sizeof(why)))
			fail_msg("%s: refused: %s", c->name, why);
		assert_true(u.alive);
		if (s.wire_n)
			fail_msg("%s: the probe sent %u bytes on the line",
				 c->name, s.wire_n);
		if (s.lcr != 0x03 || s.dll != 1 || s.dlm != 0 ||
		    s.mcr != 0x03 || s.ier != 0 || !s.fifo_on ||
		    s.scr != old_scr || s.rx_n)
			fail_msg("%s: left lcr 0x%02x dll %u dlm %u mcr 0x%02x "
				 "ier 0x%02x fifo %d scr 0x%02x rx %u", c->name,
				 s.lcr, s.dll, s.dlm, s.mcr, s.ier, s.fifo_on,
				 s.scr, s.rx_n);
		uart_write(&u, "ok\r\n", 4);
		assert_int_equal(s.wire_n, 4);
		assert_memory_equal(s.wire, "ok\r\n", 4);
	}
}

/* No write comes before the last read of the read-only step: the first
 * write is the scratch pattern. */
static void test_first_write_is_scratch(void **state)
{
	struct sim s = { .kind = SIM_16550 };
	struct port_io io = { .in = sim_in, .out = sim_out, .ctx = &s };
	struct uart u;
	char why[200];

	assert_int_equal(uart_init(&u, &io, BASE, why, sizeof(why)), 0);
	assert_int_equal(s.writes[0].port, BASE + SCR);
	assert_int_equal(s.writes[0].v, 0x55);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_first_write_is_scratch),
	};

	return cmocka_run_group_tests_name("serial", tests, NULL, NULL);
}
