/* Host stub for tests/host/pmu/netburst/test_model.c: links the NetBurst
 * reference model (pmu/netburst/model.c) and the generation lookup
 * model_for() answers from, the way tests/host/pmu/p5/stub_model.c does
 * for the P5 (see there why the model's source is compiled into this
 * file): the test links no descriptors, so only PMU_NETBURST has a model,
 * this one.
 *
 * pmu/model.c raises PMIs through the local APIC, which the host has not:
 * apic_lvtpc_deliver() here counts the deliveries and keeps an LVTPC mask
 * bit (set on a delivery with mask_after, cleared by the test).  pmu/model.c asks
 * arch/x86/smp.c whose step the model is fed: smp_on_sibling() here
 * answers what the test set (tests/host/arch/x86/stub_smp.c always
 * answers 0; do not link both).
 *
 * Do not list pmu/netburst/model.c in host-sources next to this file. */
#include "pmu/netburst/model.c"
#include "arch/x86/smp.h"
#include "tests/host/pmu/netburst/stub_model.h"
#include "tests/host/pmu/stub_model_generation.h"

STUB_MODEL_GENERATION(PMU_NETBURST, netburst_model)

struct stub_pmi stub_pmi;
int stub_sibling;

int apic_lvtpc_deliver(int mask_after);
int apic_lvtpc_deliver(int mask_after)
{
	/* a masked LVT entry inhibits the interrupt (Vol. 3A §10.5.1) */
	if (stub_pmi.masked)
		return 0;
	stub_pmi.calls++;
	stub_pmi.mask_after = mask_after;
	stub_pmi.masked = !!mask_after;
	return 1;
}

int smp_on_sibling(void)
{
	return stub_sibling;
}

int stub_sibling_spinning;

int smp_sibling_spinning(void)
{
	return stub_sibling_spinning;
}
