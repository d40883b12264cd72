/* lbr_model: the Last Branch Records of the reference models (lbr_model.c),
 * one register file for every layout pmu/lbr.h describes, which each
 * generation's model (p6, netburst, perfmon) answers its LBR registers
 * with and feeds with its steps. */
#ifndef PMU_LBR_MODEL_H
#define PMU_LBR_MODEL_H

#include <stdint.h>
#include "../arch/x86/trace.h"
#include "model.h"

struct lbr_layout;

/* An empty stack of layout l (its generation's, pmu/lbr.h; NULL: the
 * CPU has none).  IA32_LBR_DEPTH at its largest allowed value. */
void lbr_model_reset(const struct lbr_layout *l);
/* Its state, for a prediction beside the live model (pmu/model.h). */
struct model_part lbr_model_part(void);
/* An LBR register of the layout: 0 or the vector (#GP for an entry past
 * IA32_LBR_DEPTH, a reserved bit, a depth CPUID.1CH does not allow;
 * BE_NOT_MODELLED for a write the model does not know the effect of);
 * 1: not an LBR register. */
int lbr_model_rdmsr(uint32_t msr, uint64_t *v);
int lbr_model_wrmsr(uint32_t msr, uint64_t v);
/* Does the stack record now: the legacy layouts while IA32_DEBUGCTL.LBR
 * (debugctl bit 0), the architectural ones while IA32_LBR_CTL.LBREn;
 * never while frozen (IA32_PERF_GLOBAL_STATUS.LBR_FRZ, §17.4.7). */
int lbr_model_recording(uint64_t debugctl, int frozen);
/* One step of this thread at model clock now: its branch recorded as
 * the layout and its filter (LBR_SELECT, IA32_LBR_CTL) say.  Returns
 * what the stack did: LBR_STEP_NONE, _PUSHED (a record added) or _POPPED
 * (call-stack mode: a RET removed one), for the event that counts LBR
 * records (pmu/perfmon/lbr/events.h). */
enum lbr_step { LBR_STEP_NONE, LBR_STEP_PUSHED, LBR_STEP_POPPED };
enum lbr_step lbr_model_step(const struct insn_event *e, uint64_t debugctl,
			     int frozen, uint64_t now);
/* The k-th most recent record (k = 0 newest) as its FROM, TO and INFO
 * registers read ({0, 0, 0} past what was recorded): the adaptive PEBS
 * record's LBR group copies them (pmu/perfmon/pebs/model.c). */
void lbr_model_entry(unsigned k, uint64_t *from, uint64_t *to,
		     uint64_t *info);

#endif
