/* pmu/perfmon/pebs/model.h: the PEBS part of the arch-perfmon reference
 * model (pebs/model.c): its registers (IA32_PEBS_ENABLE,
 * MSR_PEBS_DATA_CFG, MSR_PEBS_LD_LAT), and the assist, which
 * pmu/perfmon/model.c calls in a step in which PEBS counters
 * overflowed. */
#ifndef PMU_PERFMON_PEBS_MODEL_H
#define PMU_PERFMON_PEBS_MODEL_H

#include <stdint.h>
#include "../../../arch/x86/trace.h"
#include "../../model.h"
#include "../regs.h"
#include "regs.h"

void pebs_model_reset(const struct perfmon_caps *c);
/* Its state, for a prediction beside the live model (pmu/model.h). */
struct model_part pebs_model_part(void);
/* The PEBS MSRs: 0 or a vector; 1 when msr is not one of them. */
int pebs_model_rdmsr(uint32_t msr, uint64_t *v);
int pebs_model_wrmsr(uint32_t msr, uint64_t v);
/* PEBS exists on the modelled PMU (IA32_MISC_ENABLE 12 clear). */
int pebs_model_has_pebs(void);
/* IA32_PEBS_ENABLE and MSR_PEBS_DATA_CFG as written. */
uint64_t pebs_model_enable(void);
uint64_t pebs_model_cfg(void);

/* The assist for the PEBS counters that overflowed in step e. */
struct pebs_assist {
	const struct insn_event *e;
	const struct step_regs *before;	/* state before e (fault-like
					 * records); NULL: not known */
	uint64_t applicable;		/* GLOBAL numbering */
	uint64_t status;		/* GLOBAL_STATUS at the assist */
	uint64_t adaptive;		/* of applicable: Adaptive_Record */
	enum pebs_data data;		/* of the lowest applicable counter */
	uint64_t tsc;			/* TSC at the assist */
};
/* Writes one record unless the buffer is full (index + record > maximum),
 * advances the index, and gives the counter-reset values of the
 * applicable counters (gp_reload[n], fixed_reload[i]; left alone for
 * others).  Returns 1 when the index has reached the threshold after a
 * record (GLOBAL_STATUS bit 62 and a PMI), 0 after another record, and
 * PEBS_ASSIST_DROPPED when the bounds checks failed: the assist is
 * skipped entirely, no record, no reload, no signal, and the caller
 * keeps the counters' overflow status (SDM Vol. 3B §18.8.1.1). */
#define PEBS_ASSIST_DROPPED (-1)
int pebs_model_assist(const struct pebs_assist *a, uint64_t *gp_reload,
		      uint64_t *fixed_reload);

#endif
