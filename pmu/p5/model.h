/* pmu/p5/model.h: the reference model of the Pentium (P5) PMU
 * (pmu/p5/model.c), which the generation's descriptor names
 * (pmu/p5/generation.c) and model_for() reaches through it
 * (pmu/model.h). */
#ifndef PMU_P5_MODEL_H
#define PMU_P5_MODEL_H

#include "../model.h"

extern const struct pmu_model p5_model;

#endif
