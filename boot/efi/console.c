/* console: the UEFI build's log sinks (see console.h): every line to the
 * serial port (serial_port.c), the text screens (screens.c) and the log
 * file (logfile.c).  This file only puts the three together: the header's
 * description, and the log file's failure line, which goes where the file
 * does not. */
#include "../console.h"
#include "../clock.h"
#include "../logflush.h"
#include "../serial_pick.h"
#include "logfile.h"
#include "../../arch/x86/cpu.h"
#include "screens.h"
#include "serial_port.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

static char describe[320];
static int failure_said;	/* the log file's failure line is written */

void console_open(const struct options *o)
{
	const struct serial_pick *sp;

	failure_said = 0;
	serial_port_open(o);
	screens_open(serial_port_in_use());
	logfile_open();
	sp = serial_port_pick();
	fmt_snprintf(describe, sizeof(describe),
		     "serial=%s via=%s text=%s(%u) logfile=\"%s\"",
		     sp->name, sp->via, screens_via(), screens_count(),
		     logfile_state_text());
}

const char *console_describe(void)
{
	return describe;
}

const char *console_serial_refused(void)
{
	return serial_port_pick()->refused;
}

/* A line on the serial port and the screens (every sink but the file). */
static void write_ports(const char *s, unsigned n)
{
	serial_port_write(s, n);
	serial_port_write("\r\n", 2);
	screens_line(s);
}

/* The failure line goes where the file does not: serial and screens,
 * once, at the sync after the failure (never inside a test's output). */
static void say_file_failure(void)
{
	const char *failure = logfile_failure();
	char line[LOGFILE_FAILURE_MAX + 32];

	if (!failure || failure_said)
		return;
	failure_said = 1;
	fmt_snprintf(line, sizeof(line), "# error: log file: %s", failure);
	write_ports(line, (unsigned)str_len(line));
}

void console_line(const char *s)
{
	unsigned n = (unsigned)str_len(s);

	write_ports(s, n);
	logfile_line(s, n);
}

void console_emit(void *ctx, const char *line)
{
	(void)ctx;
	console_line(line);
}

static struct logflush rate;

static struct logflush *flush_rate(void)
{
	static int ready;

	if (!ready) {
		logflush_init(&rate, clock_tsc_hz());
		ready = 1;
	}
	return &rate;
}

void console_sync(void)
{
	uint64_t start = rdtsc();

	logfile_sync();
	logflush_done(flush_rate(), start, rdtsc());
	say_file_failure();
}

/* A failed write is said at once; else the flush waits for its turn. */
void console_sync_soon(void)
{
	if (logflush_due(flush_rate(), rdtsc(), logfile_failure() != NULL))
		console_sync();
}

const char *console_file_error(void)
{
	return logfile_failure();
}

void console_close(void)
{
	console_sync();
	logfile_close();
}
