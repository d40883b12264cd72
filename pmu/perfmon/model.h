/* pmu/perfmon/model.h: the reference model of architectural performance
 * monitoring with its DS, PEBS, BTS, LBR and PT parts
 * (pmu/perfmon/model.c), which the generation's descriptor names
 * (pmu/perfmon/generation.c) and model_for() reaches through it
 * (pmu/model.h). */
#ifndef PMU_PERFMON_MODEL_H
#define PMU_PERFMON_MODEL_H

#include "../model.h"

extern const struct pmu_model perfmon_model;

#endif
