/* tests/host/pmu/stub_model_generation.h: the generation lookup a model's
 * host stub (tests/host/pmu/<gen>/stub_model.c) supplies for the tests
 * that link that one model but no descriptors.
 *
 * model_for() answers with the model its kind's descriptor names
 * (pmu/model.c asks pmu_generation_for(), pmu/generation.c).  A test that
 * links pmu/model.c without pmu/generation.c and the descriptors gets
 * STUB_MODEL_GENERATION(kind, model)'s lookup instead: a weak
 * pmu_generation_for() that knows kind alone, whose descriptor names
 * nothing but kind and model, so model_for() answers model for kind and
 * NULL for every other kind (no other model is linked).  A test that
 * links pmu/generation.c gets the real lookup over the real descriptors:
 * its strong definition is the one the link keeps. */
#ifndef TESTS_HOST_PMU_STUB_MODEL_GENERATION_H
#define TESTS_HOST_PMU_STUB_MODEL_GENERATION_H

#include "pmu/generation.h"

#define STUB_MODEL_GENERATION(k, m)                                          \
	static const struct pmu_generation stub_model_generation = {         \
		.kind = (k),                                                 \
		.model = &(m),                                               \
	};                                                                   \
	__attribute__((weak)) const struct pmu_generation *                  \
	pmu_generation_for(enum pmu_kind kind)                               \
	{                                                                    \
		return kind == (k) ? &stub_model_generation : NULL;          \
	}

#endif
