/* tests/host/pmu/p6/stub_model.h: what stub_model.c records of the PMIs
 * the P6 model raises (its apic_lvtpc_deliver() stands in for the
 * APIC). */
#ifndef TESTS_HOST_STUB_P6_MODEL_H
#define TESTS_HOST_STUB_P6_MODEL_H

struct stub_pmi {
	unsigned calls;		/* apic_lvtpc_deliver() calls */
	int mask_after;		/* its argument the last time */
};

extern struct stub_pmi stub_pmi;

#endif
