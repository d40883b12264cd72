/* pmu/perfmon/driver.h: the architectural-perfmon driver (driver.c), one
 * ops table (pmu/driver.h) for versions 1 to 5, and its counter
 * numbering. */
#ifndef PMU_PERFMON_DRIVER_H
#define PMU_PERFMON_DRIVER_H

#include "../driver.h"

extern const struct pmu_driver perfmon_driver;

/* Counter numbers of the ops table: GP counter n is n; fixed counter i is
 * perfmon_fixed_ctr(i) = the number of GP counters + i. */
unsigned perfmon_fixed_ctr(unsigned i);
/* 1 (and *i) for a fixed counter's number, 0 for a GP counter's. */
int perfmon_is_fixed(unsigned ctr, unsigned *i);

#endif
