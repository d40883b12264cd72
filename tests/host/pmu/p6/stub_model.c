/* Host stub for tests/host/pmu/p6/test_*.c: links the P6 reference model
 * (pmu/p6/model.c) and supplies the bounds of the model registry that
 * pmu/model.c walks, the way tests/host/pmu/p5/stub_model.c does for the P5
 * (see there why the model's source is compiled into this file): the
 * registry holds exactly the P6 model.
 *
 * pmu/model.c raises PMIs through the local APIC, which the host has not:
 * apic_lvtpc_deliver() here counts the calls and records mask_after, so
 * the tests can see when the model raises one.
 *
 * Do not list pmu/p6/model.c in host-sources next to this file. */
#include "pmu/p6/model.c"
#include "tests/host/pmu/p6/stub_model.h"

__attribute__((used)) static void pmu_models_bounds(void)
{
	__asm__(".globl __pmu_models_start\n\t"
		".set __pmu_models_start, model_p6\n\t"
		".globl __pmu_models_end\n\t"
		".set __pmu_models_end, model_p6 + %c0"
		: : "i"(sizeof(struct pmu_model)));
}

struct stub_pmi stub_pmi;

int apic_lvtpc_deliver(int mask_after);
int apic_lvtpc_deliver(int mask_after)
{
	stub_pmi.calls++;
	stub_pmi.mask_after = mask_after;
	return 1;
}
