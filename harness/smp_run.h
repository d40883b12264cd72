/* smp_run: the shared first step of the smp tests - go on when a sibling
 * logical processor is ready (arch/x86/smp.h), SKIP when there is none,
 * FAIL when the firmware lists one that does not work. */
#ifndef HARNESS_SMP_RUN_H
#define HARNESS_SMP_RUN_H

#include "test.h"

/* 1: the sibling is ready.  0: the test was skipped (one logical
 * processor, or no sibling thread of the BSP's core) or failed (the
 * firmware lists a sibling, but it did not run the probe, or CPUID says
 * it is not the BSP's core), with smp_sibling_ready()'s reason. */
int sibling_ready(struct tcase *t);

#endif
