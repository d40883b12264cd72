/* logname: the name of a run's log file in \pmu-harness, and the words the
 * "# console:" header uses for the log file's state.  Pure logic: the
 * caller says, through probe(), whether a name is taken, so the host tests
 * can play a full directory (docs/reliability.md, "The log file"). */
#ifndef BOOT_LOGNAME_H
#define BOOT_LOGNAME_H

#define LOGNAME_MAX		32	/* "YYYYMMDD-HHMMSS-NN.log" fits */
#define LOGNAME_ATTEMPTS	100	/* the base name, then -1 .. -99 */

/* The firmware clock at the start of the run (valid 0: GetTime failed). */
struct logname_time {
	int valid;
	unsigned year, month, day, hour, minute, second;
};

/* The log file's state, in the order boot/efi/logfile.c meets them. */
enum logfile_state {
	LOGFILE_OPEN,		/* writing \pmu-harness\<name> */
	LOGFILE_NO_VOLUME,	/* the boot device has no file system */
	LOGFILE_READ_ONLY,	/* the volume refuses writes */
	LOGFILE_NOT_DIR,	/* \pmu-harness is a file */
	LOGFILE_COLLISION,	/* every candidate name is taken */
	LOGFILE_FAILED,		/* another error: what failed, and its status */
};

/* probe(ctx, name): 1 the name is taken, 0 it is free, -1 the probe
 * failed (the caller keeps the why). */
typedef int (*logname_probe)(void *ctx, const char *name);

/* Puts the first free candidate into name and returns LOGFILE_OPEN; the
 * candidates, in order: YYYYMMDD-HHMMSS.log, YYYYMMDD-HHMMSS-1.log ..
 * -99.log, or run-0.log .. run-99.log without a clock.  LOGFILE_COLLISION
 * when all are taken (*taken = LOGNAME_ATTEMPTS); LOGFILE_FAILED when a
 * probe failed (name = the name it failed on).  *taken counts the names
 * found taken. */
enum logfile_state logname_choose(const struct logname_time *t,
				  logname_probe probe, void *ctx,
				  char *name, unsigned size, unsigned *taken);

/* The header's logfile="..." text for a state: the path when open, else
 * why there is no log file.  name: the file's name (LOGFILE_OPEN);
 * taken: LOGFILE_COLLISION's count; detail: LOGFILE_FAILED's "what failed
 * (status)".  Never holds a '"'. */
void logfile_describe(char *buf, unsigned size, enum logfile_state state,
		      const char *name, unsigned taken, const char *detail);

#endif
