/* clock: the TSC's rate for benchmark reports (never for pass/fail).  The
 * boot layer measures it and passes the means in: harness code does not
 * reach up into boot/. */
#ifndef HARNESS_CLOCK_H
#define HARNESS_CLOCK_H

#include <stdint.h>

void harness_set_tsc_hz(uint64_t (*fn)(void));
/* TSC ticks per second, 0 when unknown. */
uint64_t harness_tsc_hz(void);

#endif
