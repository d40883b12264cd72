/* console: the legacy-BIOS build's sinks (see boot/console.h): a polled
 * 16550 (arch/x86/serial.c, proven before use, waiting for THRE before
 * each byte) and the VGA text screen.  There is no log file: a BIOS boot
 * has no file system service, so the header says so. */
#include "bios.h"
#include "../console.h"
#include "../serial_pick.h"
#include "../../arch/x86/port_io.h"
#include "../../arch/x86/serial.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

#define VGA_LEGACY	0xb8000u
#define VGA_COLS	80
#define VGA_ROWS	25
#define VGA_ATTR	0x0700u		/* light grey on black */

static struct {
	struct uart uart;
	struct serial_pick serial;
	volatile uint16_t *vga;		/* NULL: no text screen */
	unsigned row, col;
	char describe[320];
} con;

static uintptr_t vga_base;

void bios_vga_init(const struct multiboot_info *mb)
{
	vga_base = VGA_LEGACY;
	if (!(mb->flags & MB_INFO_FRAMEBUFFER))
		return;
	if (mb->framebuffer_type == MB_FB_EGA_TEXT &&
	    mb->framebuffer_addr < 0x100000000ull)
		vga_base = (uintptr_t)mb->framebuffer_addr;
	else
		vga_base = 0;	/* a graphics mode: no text buffer */
}

static void vga_scroll(void)
{
	for (unsigned i = 0; i < (VGA_ROWS - 1) * VGA_COLS; i++)
		con.vga[i] = con.vga[i + VGA_COLS];
	for (unsigned i = 0; i < VGA_COLS; i++)
		con.vga[(VGA_ROWS - 1) * VGA_COLS + i] = VGA_ATTR | ' ';
	con.row = VGA_ROWS - 1;
}

static void vga_newline(void)
{
	con.col = 0;
	if (++con.row == VGA_ROWS)
		vga_scroll();
}

/* One line, wrapped at 80 columns; bytes outside printable ASCII show as
 * '?' (the log is ASCII already, this only guards the screen). */
void console_screen_line(const char *s)
{
	if (!con.vga)
		return;
	for (; *s; s++) {
		char c = *s >= 0x20 && *s < 0x7f ? *s : '?';

		if (con.col == VGA_COLS)
			vga_newline();
		con.vga[con.row * VGA_COLS + con.col++] =
			VGA_ATTR | (uint8_t)c;
	}
	vga_newline();
}

static void vga_open(void)
{
	con.vga = (volatile uint16_t *)vga_base;
	if (!con.vga)
		return;
	for (unsigned i = 0; i < VGA_ROWS * VGA_COLS; i++)
		con.vga[i] = VGA_ATTR | ' ';
}

static int open_port(unsigned port, int com, const char **via, char *why,
		     unsigned size)
{
	(void)com;
	if (uart_init(&con.uart, &port_io_cpu, (uint16_t)port, why, size))
		return -1;
	*via = "16550";
	return 0;
}

void console_open(const struct options *o)
{
	memset(&con, 0, sizeof(con));
	serial_pick(&con.serial, o, open_port);
	vga_open();
	fmt_snprintf(con.describe, sizeof(con.describe),
		     "serial=%s via=%s text=%s(%u) logfile=\"none (BIOS "
		     "boot)\"", con.serial.name, con.serial.via,
		     con.vga ? "vga" : "none", con.vga ? 1u : 0u);
}

const char *console_describe(void)
{
	return con.describe;
}

const char *console_serial_refused(void)
{
	return con.serial.refused;
}

void console_line(const char *s)
{
	unsigned n = (unsigned)str_len(s);

	if (con.uart.alive) {
		uart_write(&con.uart, s, n);
		uart_write(&con.uart, "\r\n", 2);
	}
	console_screen_line(s);
}

void console_emit(void *ctx, const char *line)
{
	(void)ctx;
	console_line(line);
}

/* Nothing to make durable: the serial line is the log. */
void console_sync(void)
{
}

void console_sync_soon(void)
{
}

const char *console_file_error(void)
{
	return NULL;
}

void console_drain(void)
{
	if (con.uart.alive)
		uart_drain(&con.uart);
}

void console_close(void)
{
	console_drain();
}

/* No log file on a BIOS boot: no flushes to tell of. */
const char *console_flush_tally(void)
{
	return NULL;
}
