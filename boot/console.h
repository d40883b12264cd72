/* console: where log lines go.  Every line goes to the serial port (the
 * firmware's Serial I/O protocol for that port when offered, else a polled
 * 16550), to the UEFI text console, and to \pmu-harness\<run>.log on the
 * boot volume.  console_sync() makes the file durable at once (after the
 * header, a failure, before a risky test, at the end);
 * console_sync_soon(), which the runner calls after each passing test,
 * only when LOGFLUSH_INTERVAL_MS passed since the last flush
 * (boot/logflush.h): a cut loses at most that much run time's results
 * before the test in flight.  The file
 * holds whole lines only; a write or flush that fails ends the file (cut
 * back to its whole lines), and the next console_sync() writes
 * "# error: log file: ..." to the serial port and the screen
 * (docs/reliability.md, "The log file"). */
#ifndef BOOT_CONSOLE_H
#define BOOT_CONSOLE_H

#include "options.h"

void console_open(const struct options *o);
void console_line(const char *s);
void console_sync(void);
void console_sync_soon(void);
void console_close(void);
/* What failed with the log file ("write of N bytes failed (EFI_...), M
 * bytes kept in \pmu-harness\<name>"), or NULL while nothing did. */
const char *console_file_error(void);
/* What the log file's flush policy did so far (boot/logflush.h), as
 * "flushes=N interval=I urgent=U flush_us=B longest_us=L span_us=S", or
 * NULL on a BIOS boot (no log file) or without a TSC rate. */
const char *console_flush_tally(void);
/* One-line description of the sinks in use, for the log header. */
const char *console_describe(void);
/* Why the serial port asked for is not used (the probe refused it; the
 * log then goes to COM1), or "" when it is. */
const char *console_serial_refused(void);
/* The TAP writer's emit callback. */
void console_emit(void *ctx, const char *line);

#endif
