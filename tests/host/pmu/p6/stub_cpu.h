/* tests/host/pmu/p6/stub_cpu.h: the CPU and the model's MSRs as the P6
 * model's host suites see them (stub_cpu.c). */
#ifndef TESTS_HOST_STUB_P6_CPU_H
#define TESTS_HOST_STUB_P6_CPU_H

#include <stdint.h>
#include "arch/x86/trap.h"
#include "pmu/detect.h"
#include "pmu/model.h"

/* What cpu_info() answers, and the hooks trap_set_hook() was given. */
extern struct cpu_info stub_cpu;
extern trap_hook_fn stub_trap_hooks[32];

/* A fresh GenuineIntel family 6 CPU of this model with the P6 model
 * live and no PMI seen; returns the model. */
const struct pmu_model *stub_p6_start(unsigned model);
/* The live model's MSR msr, which must read without a fault; a write
 * that must not fault. */
uint64_t stub_rd(uint32_t msr);
void stub_wr(uint32_t msr, uint64_t v);
/* n steps at cpl of one retired plain instruction. */
void stub_steps(unsigned cpl, unsigned n);

#endif
