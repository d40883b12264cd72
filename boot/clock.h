/* clock: the TSC's rate, measured once: against the ACPI PM timer where
 * the FADT has one (clock_pm.c: a host that holds the machine back
 * meanwhile does not skew it), else the firmware's Stall() (UEFI) or the
 * PIT's channel 2 (BIOS).  It turns TSC deltas into seconds: elapsed_s,
 * the limits of timeout= and run_timeout=, the log file's flush interval,
 * benchmark reports. */
#ifndef BOOT_CLOCK_H
#define BOOT_CLOCK_H

#include <stdint.h>

/* TSC ticks per second (0 when it cannot be measured). */
uint64_t clock_tsc_hz(void);

/* The PM timer's measurement, 0 when there is none (clock_pm.c). */
uint64_t clock_tsc_hz_pm_timer(void);
/* What clock_tsc_hz() measured against ("acpi-pm-timer(24-bit)",
 * "uefi-stall", "pit-channel2", "none"), for the log's "# clock:" line. */
const char *clock_source(void);
void clock_set_source(const char *what);

#endif
