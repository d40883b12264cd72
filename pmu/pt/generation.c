/* pmu/pt/generation.c: Intel Processor Trace's descriptor (generation.h):
 * a feature of the architectural-perfmon machines the harness drives,
 * with its own test groups and no PMU driver or model of its own (its
 * interface is pmu/pt/driver.h, its capabilities pmu/pt/caps.h, its model
 * a part of the arch-perfmon model's, pmu/pt/model.h). */
#include "../generation.h"

PMU_GENERATION(pt,
	.name = "pt",
	.kind = PMU_ARCH,
	.feature = 1,
	.groups = { "pt/" },
);
