/* tests/host/pmu/netburst/stub_model.h: what stub_model.c records of the
 * PMIs the NetBurst model raises (its apic_lvtpc_deliver() stands in for
 * the local APIC), and which logical processor the next steps are fed as
 * (its smp_on_sibling() stands in for arch/x86/smp.c). */
#ifndef TESTS_HOST_STUB_NETBURST_MODEL_H
#define TESTS_HOST_STUB_NETBURST_MODEL_H

struct stub_pmi {
	unsigned calls;		/* PMIs delivered (LVTPC unmasked) */
	int mask_after;		/* apic_lvtpc_deliver()'s argument the last
				 * time it delivered */
	int masked;		/* the LVTPC mask: set by a delivery with
				 * mask_after (Vol. 3A §10.5.1), cleared by
				 * the test (a handler's unmask) */
};

extern struct stub_pmi stub_pmi;
/* 1: the steps fed are the sibling's (logical processor 1). */
extern int stub_sibling;
/* 1: the sibling spins in harness code meanwhile (smp_sibling_spinning()),
 * 0: the firmware keeps it halted. */
extern int stub_sibling_spinning;

#endif
