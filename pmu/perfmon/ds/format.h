/* pmu/perfmon/ds/format.h: which DS save area format this CPU writes in
 * this build's mode (format.c), the one answer the DS driver, the PEBS
 * and BTS drivers and the model all use. */
#ifndef PMU_PERFMON_DS_FORMAT_H
#define PMU_PERFMON_DS_FORMAT_H

/* 1: the 64-bit DS format, 0: the 32-bit one (ds_format64() of
 * DS_BUILD_IA32E and CPUID.01H:ECX.DTES64, regs.h). */
int perfmon_ds64(void);

#endif
