/* pmu/perfmon/lbr/layout.h: the Last Branch Records of the architectural
 * perfmon CPUs (layout.c), the descriptor's lbr hook (pmu/lbr.h). */
#ifndef PMU_PERFMON_LBR_LAYOUT_H
#define PMU_PERFMON_LBR_LAYOUT_H

#include "../../lbr.h"
#include "../../detect.h"

/* This CPU's LBRs: architectural ones where the capabilities say so,
 * else its microarchitecture's legacy stack with the LBR_FMT of
 * IA32_PERF_CAPABILITIES[5:0].  -1 with *why without capabilities, -2
 * for a microarchitecture the table has no stack of. */
int perfmon_lbr_layout(const struct cpu_info *ci, struct lbr_layout *l,
		       const char **why);

#endif
