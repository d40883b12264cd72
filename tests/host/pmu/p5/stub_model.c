/* Host stub for tests/host/pmu/p5/test_*.c: links the P5 reference model
 * (pmu/p5/model.c) and the generation lookup model_for() answers from.
 *
 * The model's source is compiled into this translation unit: a test that
 * names this stub in its host-sources gets the model with it.
 * model_for() (pmu/model.c) asks the kind's descriptor for its model
 * (pmu_generation_for(), pmu/generation.h), so what a test sees depends on
 * the descriptors it links:
 *
 *   - none (test_model.c): STUB_MODEL_GENERATION()'s weak lookup
 *     (tests/host/pmu/stub_model_generation.h) knows PMU_P5 alone, with
 *     this model; every other kind has no model, as on a firmware with
 *     only P5 support.
 *   - pmu/generation.c with descriptors (test_driver.c, test_regs.c): the
 *     real lookup replaces the weak one.  A generation linked in full
 *     (pmu/<gen>/generation.c) brings its driver and model, as the image
 *     does; one whose code the test does not link comes as its descriptor
 *     alone, tests/host/pmu/<gen>/stub_generation.c (built with
 *     PMU_GENERATION_NO_OPS: no driver, no model), so model_for() of its
 *     kind still answers NULL.  That is why test_regs.c, which links the
 *     P6's descriptor but not its model, still finds model_for(PMU_P6)
 *     NULL.  No empty model object stands in for a missing one where
 *     model_for() is linked: it would answer that object as a model.
 *     (A test without the model layer, pmu/model.c, may name an empty one
 *     for a descriptor it links in full: nothing there can look it up,
 *     tests/host/pmu/netburst/test_driver.c.)
 *
 * Do not list pmu/p5/model.c in host-sources next to this file (it would
 * be linked twice). */
#include "pmu/p5/model.c"
#include "tests/host/pmu/stub_model_generation.h"

STUB_MODEL_GENERATION(PMU_P5, p5_model)

/* pmu/model.c raises PMIs through the local APIC, which the host has not:
 * the P5 never raises one (it has no overflow interrupt). */
int apic_lvtpc_deliver(int mask_after);
int apic_lvtpc_deliver(int mask_after)
{
	(void)mask_after;
	return -1;
}

