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
/* Bits of IA32_FIXED_CTR_CTRL outside the counters' 4-bit fields that
 * another part of the driver owns (PEBS's Adaptive_Record bits, 32 + 4i:
 * pmu/perfmon/sample.c): written now and kept on every later write
 * of the register until init.  Refused inside a counter's field. */
int perfmon_fixed_ctrl_extra(uint64_t bits, struct pmu_err *e);

#endif
