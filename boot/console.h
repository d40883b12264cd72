/* console: where log lines go.  Every line goes to the serial port (the
 * firmware's Serial I/O protocol for that port when offered, else a polled
 * 16550), to the UEFI text console, and to \pmu-harness\<run>.log on the
 * boot volume.  console_sync() makes the file durable: the runner calls it
 * after each test, so a hang loses at most the test in flight. */
#ifndef BOOT_CONSOLE_H
#define BOOT_CONSOLE_H

#include "options.h"

void console_open(const struct options *o);
void console_line(const char *s);
void console_sync(void);
void console_close(void);
/* One-line description of the sinks in use, for the log header. */
const char *console_describe(void);
/* Why the serial port asked for is not used (the probe refused it; the
 * log then goes to COM1), or "" when it is. */
const char *console_serial_refused(void);
/* The TAP writer's emit callback. */
void console_emit(void *ctx, const char *line);

#endif
