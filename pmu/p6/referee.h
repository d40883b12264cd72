/* pmu/p6/referee.h: this generation's tables against libpfm4, for
 * the host's pfm-check (referee.c; pmu/referee.h). */
#ifndef PMU_P6_REFEREE_H
#define PMU_P6_REFEREE_H

#include "../referee.h"

extern const struct pmu_referee_tables p6_referee;

#endif
