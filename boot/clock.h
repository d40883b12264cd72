/* clock: the TSC's rate, measured against the firmware's Stall() once, for
 * turning TSC deltas into seconds in benchmark reports (never in tests'
 * pass/fail decisions). */
#ifndef BOOT_CLOCK_H
#define BOOT_CLOCK_H

#include <stdint.h>

/* TSC ticks per second (0 when it cannot be measured). */
uint64_t clock_tsc_hz(void);

#endif
