/* pmu/perfmon/lbr/model.h: the LBR stack of the arch-perfmon reference
 * model (lbr/model.c), as far as the adaptive PEBS record's LBR group
 * copies it (pmu/perfmon/pebs/model.c). */
#ifndef PMU_PERFMON_LBR_MODEL_H
#define PMU_PERFMON_LBR_MODEL_H

#include <stdint.h>
#include "../../../arch/x86/trace.h"
#include "../../model.h"

/* An empty stack (the model's reset). */
void lbr_model_reset(void);
/* Its state, for a prediction beside the live model (pmu/model.h). */
struct model_part lbr_model_part(void);
/* One step of this thread with IA32_DEBUGCTL = debugctl: while
 * DEBUGCTL.LBR (bit 0) is set, a branch of the step
 * (ds_model_branch(), the rule BTS shares) is pushed as (from, to). */
void lbr_model_step(const struct insn_event *e, uint64_t debugctl);
/* The k-th most recent entry (k = 0 newest); {0, 0} past what was
 * recorded. */
void lbr_model_entry(unsigned k, uint64_t *from, uint64_t *to);

#endif
