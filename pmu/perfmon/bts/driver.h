/* pmu/perfmon/bts/driver.h: Branch Trace Store on the DS area that
 * pmu/perfmon/ds/driver.h installed (bts/driver.c). */
#ifndef PMU_PERFMON_BTS_DRIVER_H
#define PMU_PERFMON_BTS_DRIVER_H

#include <stdint.h>
#include "../../driver.h"

/* BTS into the installed DS area's BTS buffer: IA32_DEBUGCTL gets TR,
 * BTS and the subset of DEBUGCTL_BTINT | DEBUGCTL_BTS_OFF_OS |
 * DEBUGCTL_BTS_OFF_USR in flags (other DEBUGCTL bits kept).  Refused: BTS
 * unavailable, no DS area with a BTS buffer installed, other flag bits. */
int perfmon_bts_enable(uint64_t flags, struct pmu_err *e);
int perfmon_bts_disable(struct pmu_err *e);

#endif
