/* pmu/perfmon/caps.h: the capabilities the arch-perfmon driver and model
 * work with (struct perfmon_caps, regs.h): decoded from CPUID.0AH, or the
 * capability table's row for this CPU (caps_table.h), or a stand-in a
 * test sets under the model. */
#ifndef PMU_PERFMON_CAPS_H
#define PMU_PERFMON_CAPS_H

#include <stdint.h>
#include "regs.h"

/* The capabilities the driver and the model work with: CPUID's where it
 * reports a version, else the table row of this CPU; NULL when neither
 * (*why then says why). */
const struct perfmon_caps *perfmon_caps(const char **why);
/* Under the model only: make the driver and the model stand in for a PMU
 * with capabilities c (a test of a version rule this CPU lacks); NULL
 * goes back to the CPU's own.  The live model is reset (through the
 * model registry, pmu/model.h).  Returns -1 when the backend is not the
 * model. */
int perfmon_caps_stand_in(const struct perfmon_caps *c);
int perfmon_caps_standing_in(void);

#endif
