/* logfile: the UEFI build's log file, \pmu-harness\<name>.log on the boot
 * volume, the log's third sink (docs/reliability.md, "The log file").  It
 * holds whole lines only.  The first write or flush that fails ends the
 * file: it is cut back to its whole lines, made durable and closed, and
 * logfile_failure() says what failed; saying it elsewhere is the caller's
 * job, since the file cannot. */
#ifndef BOOT_EFI_LOGFILE_H
#define BOOT_EFI_LOGFILE_H

/* Room for logfile_failure()'s text, its NUL included. */
#define LOGFILE_FAILURE_MAX 240

/* Creates the file under a name no earlier run's log has (boot/logname.h),
 * or finds why there is none. */
void logfile_open(void);
/* The header's logfile="..." text: the file's path, or why there is no
 * file (logfile_describe()). */
const char *logfile_state_text(void);
/* A line of n bytes (without its line end) and its LF; nothing when there
 * is no file, or no longer one. */
void logfile_line(const char *s, unsigned n);
/* Makes the lines written so far durable. */
void logfile_sync(void);
/* What failed ("write of N bytes failed (EFI_...), M bytes kept in
 * \pmu-harness\<name>"), or NULL while nothing did. */
const char *logfile_failure(void);
/* Closes the file (call logfile_sync() first). */
void logfile_close(void);

#endif
