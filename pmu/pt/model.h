/* pmu/pt/model.h: Intel PT's part of the arch-perfmon reference model
 * (pmu/pt/model.c), called by that model (pmu/perfmon/model.c) as it calls
 * the DS part: the IA32_RTIT_* MSRs and the packets of each traced step. */
#ifndef PMU_PT_MODEL_H
#define PMU_PT_MODEL_H

#include <stdint.h>
#include "../../arch/x86/trace.h"
#include "../model.h"

void pt_model_reset(void);
/* Its state, for a prediction beside the live model (pmu/model.h). */
struct model_part pt_model_part(void);
/* Is the trace running (TraceEn set and not stopped or in error)? */
int pt_model_tracing(void);
/* 0 or a vector; 1 when msr is not a PT MSR */
int pt_model_rdmsr(uint32_t msr, uint64_t *v);
int pt_model_wrmsr(uint32_t msr, uint64_t v);
/* One traced step at model clock `clock` (already advanced for it). */
void pt_model_step(const struct insn_event *e, uint64_t clock);

#endif
