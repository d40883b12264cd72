/* pmu/netburst/model.h: the reference model of the NetBurst (Pentium 4,
 * Xeon) PMU (pmu/netburst/model.c), which the generation's descriptor
 * names (pmu/netburst/generation.c) and model_for() reaches through it
 * (pmu/model.h). */
#ifndef PMU_NETBURST_MODEL_H
#define PMU_NETBURST_MODEL_H

#include "../model.h"

extern const struct pmu_model netburst_model;

#endif
