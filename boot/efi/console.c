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

static struct logflush_tally tally;

static void flush(int urgent)
{
	uint64_t start = rdtsc(), end;

	logfile_sync();
	end = rdtsc();
	logflush_done(flush_rate(), start, end);
	logflush_tally_add(&tally, start, end, urgent);
	say_file_failure();
}

void console_sync(void)
{
	flush(1);
}

/* A failed write is said at once; else the flush waits for its turn. */
void console_sync_soon(void)
{
	int urgent = logfile_failure() != NULL;

	if (logflush_due(flush_rate(), rdtsc(), urgent))
		flush(urgent);
}

static uint64_t ticks_to_us(uint64_t ticks, uint64_t hz)
{
	return ticks / hz * 1000000 + ticks % hz * 1000000 / hz;
}

const char *console_flush_tally(void)
{
	static char line[160];
	uint64_t hz = clock_tsc_hz();

	if (!hz)
		return NULL;
	fmt_snprintf(line, sizeof(line), "flushes=%u interval=%u urgent=%u "
		     "flush_us=%llu longest_us=%llu span_us=%llu",
		     tally.urgent + tally.interval, tally.interval,
		     tally.urgent,
		     (unsigned long long)ticks_to_us(tally.busy, hz),
		     (unsigned long long)ticks_to_us(tally.longest, hz),
		     (unsigned long long)ticks_to_us(tally.last_end -
						     tally.first_start, hz));
	return line;
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
