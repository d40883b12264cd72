/* clock: the TSC rate as the boot layer measures it (clock.h). */
#include "clock.h"

static uint64_t (*tsc_hz)(void);

void harness_set_tsc_hz(uint64_t (*fn)(void))
{
	tsc_hz = fn;
}

uint64_t harness_tsc_hz(void)
{
	return tsc_hz ? tsc_hz() : 0;
}
