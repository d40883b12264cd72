/* Host stub for tests/host/pmu/p6/test_*.c: links the P6 reference model
 * (pmu/p6/model.c) and the generation lookup model_for() answers from,
 * the way tests/host/pmu/p5/stub_model.c does for the P5 (see there why
 * the model's source is compiled into this file and how the lookup
 * depends on the descriptors a test links): without pmu/generation.c
 * (test_model.c, test_regs.c) only PMU_P6 has a model, this one; with it
 * (test_driver.c) the real descriptors answer, the P5's linked as its
 * descriptor alone (tests/host/pmu/p5/stub_generation.c: no driver, no
 * model).
 *
 * pmu/model.c raises PMIs through the local APIC, which the host has not:
 * apic_lvtpc_deliver() here counts the calls and records mask_after, so
 * the tests can see when the model raises one.
 *
 * Do not list pmu/p6/model.c in host-sources next to this file. */
#include "pmu/p6/model.c"
#include "tests/host/pmu/p6/stub_model.h"
#include "tests/host/pmu/stub_model_generation.h"

STUB_MODEL_GENERATION(PMU_P6, p6_model)

struct stub_pmi stub_pmi;

int apic_lvtpc_deliver(int mask_after);
int apic_lvtpc_deliver(int mask_after)
{
	stub_pmi.calls++;
	stub_pmi.mask_after = mask_after;
	return 1;
}
