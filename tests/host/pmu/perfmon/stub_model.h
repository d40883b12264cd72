/* tests/host/pmu/perfmon/stub_model.h: the CPU the perfmon model stands
 * in for, and what stub_model.c records of it (see there). */
#ifndef TESTS_HOST_PMU_PERFMON_STUB_MODEL_H
#define TESTS_HOST_PMU_PERFMON_STUB_MODEL_H

struct stub_pm {
	unsigned pmis;		/* PMIs the model raised */
	int sibling;		/* 1: the steps fed are the sibling's */
	int ds_memory;		/* 1: every linear address is writable host
				 * memory (the DS suite's area and buffer) */
};

extern struct stub_pm stub_pm;

/* cpu_info() becomes a GenuineIntel part of this family/model whose
 * CPUID.0AH reports no version; the PMI count, the sibling flag and
 * ds_memory clear. */
void stub_pm_cpu(unsigned family, unsigned model);

#endif
