/* pmu/p6/model.h: the reference model of the P6 family PMU
 * (pmu/p6/model.c), which the generation's descriptor names
 * (pmu/p6/generation.c) and model_for() reaches through it
 * (pmu/model.h). */
#ifndef PMU_P6_MODEL_H
#define PMU_P6_MODEL_H

#include "../model.h"

extern const struct pmu_model p6_model;

#endif
