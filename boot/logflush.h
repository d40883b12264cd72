/* logflush: when the log file is made durable (docs/reliability.md, "The
 * log file").  A flush costs a few disk writes - the directory entry, the
 * data, the FAT - and on a slow medium (a USB stick at 50 writes/s, QEMU's
 * fat:rw: directory drive) flushing after every test made the log file
 * the run's main cost.  So a flush that can wait, waits until
 * LOGFLUSH_INTERVAL_MS have passed since the last one ended, or as long
 * as that flush took if longer: flushing then takes at most half of the
 * run, so a slow medium at most doubles it; and a cut (power, SIGKILL)
 * loses at most that much time's worth of results before the test in
 * flight.  A flush that cannot wait - after a failed
 * or stopped test, before a test known to risk the machine, after the
 * header, at the end - happens at once.  Pure logic: the caller passes
 * TSC readings and does the flushing. */
#ifndef BOOT_LOGFLUSH_H
#define BOOT_LOGFLUSH_H

#include <stdint.h>

/* At most 4 rate-limited flushes a second of run time. */
#define LOGFLUSH_INTERVAL_MS 250

struct logflush {
	uint64_t hz;		/* TSC ticks a second; 0: unknown */
	uint64_t last;		/* TSC at the end of the last flush */
	uint64_t took;		/* TSC ticks the last flush took */
	int flushed;		/* a flush happened (last is valid) */
};

/* Starts with no flush yet and the TSC rate (0: no clock, so every flush
 * is done at once, as without a policy). */
void logflush_init(struct logflush *f, uint64_t tsc_hz);
/* 1 when a flush asked for at TSC now should be done: urgent, no clock,
 * no flush yet, or since the last flush ended LOGFLUSH_INTERVAL_MS
 * passed and as long as that flush took. */
int logflush_due(const struct logflush *f, uint64_t now, int urgent);
/* A flush ran from TSC start to TSC end. */
void logflush_done(struct logflush *f, uint64_t start, uint64_t end);

/* What the policy did, for the log's last lines (docs/reliability.md,
 * "How often the file is flushed"): the flushes by kind (urgent: asked
 * for at once, or a failure; interval: a flush that could wait and was
 * due), their time in all and the longest, and the span from the first
 * flush's start to the last one's end, in TSC ticks. */
struct logflush_tally {
	unsigned urgent, interval;
	uint64_t first_start, last_end;
	uint64_t busy, longest;
};

/* Counts a flush that ran from TSC start to TSC end. */
void logflush_tally_add(struct logflush_tally *t, uint64_t start,
			uint64_t end, int urgent);

#endif
