/* tests/host/pmu/perfmon/stub_model.h: the CPU the perfmon model stands
 * in for, and what stub_model.c records of it (see there). */
#ifndef TESTS_HOST_PMU_PERFMON_STUB_MODEL_H
#define TESTS_HOST_PMU_PERFMON_STUB_MODEL_H

struct stub_pm {
	unsigned pmis;		/* PMIs the model raised */
	int sibling;		/* 1: the steps fed are the sibling's */
};

extern struct stub_pm stub_pm;

/* cpu_info() becomes a GenuineIntel part of this family/model whose
 * CPUID.0AH reports no version; the PMI count and sibling flag clear. */
void stub_pm_cpu(unsigned family, unsigned model);

#endif
