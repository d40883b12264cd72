/* Host stub: the P6 generation's descriptor alone
 * (pmu/p6/generation.c built with PMU_GENERATION_NO_OPS: no driver, no
 * model), for the host tests that link the descriptors (pmu/generation.c)
 * but not this generation's code.  Its kind keeps its name, probe, groups
 * and CPUs; pmu_driver_for() and model_for() answer NULL for it, as for a
 * generation whose driver and model are not linked
 * (tests/host/pmu/p5/stub_model.c says why no empty model stands in).
 *
 * List this file or pmu/p6/generation.c in host-sources, never both. */
#define PMU_GENERATION_NO_OPS
#include "pmu/p6/generation.c"
