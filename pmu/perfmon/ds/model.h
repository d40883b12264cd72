/* ds_model: the DS save area part of the arch-perfmon reference model
 * (pmu/perfmon/model.c): IA32_DS_AREA, IA32_PEBS_ENABLE, MSR_PEBS_DATA_CFG,
 * MSR_PEBS_LD_LAT and IA32_MISC_ENABLE's availability bits, BTS records
 * (pmu/perfmon/bts/model.c) and PEBS assists (pmu/perfmon/pebs/model.c), written into the
 * real buffers in memory that IA32_DS_AREA points at, at the step the
 * trace says, with the state the trace carries.
 *
 * The model reads the DS area's fields from memory at each record, as the
 * processor does (software may move the index at any time), and touches
 * only memory the live page tables map writable: a DS area or buffer that
 * is not mapped gets no record (hardware would fault or hang; the driver
 * refuses such an area before anything is enabled). */
#ifndef PMU_DS_MODEL_H
#define PMU_DS_MODEL_H

#include <stdint.h>
#include "../../../arch/x86/trace.h"
#include "regs.h"
#include "../pebs/regs.h"
#include "../perfmon.h"

void ds_model_reset(const struct perfmon_caps *c);
/* The DS MSRs: 0 or a vector; 1 when msr is not one of them. */
int ds_model_rdmsr(uint32_t msr, uint64_t *v);
int ds_model_wrmsr(uint32_t msr, uint64_t v);
/* The IA32_DEBUGCTL bits the DS part gives meaning to (TR, BTS, BTINT,
 * BTS_OFF_OS, BTS_OFF_USR) where BTS exists; 0 otherwise. */
uint64_t ds_model_debugctl_bits(void);
/* PEBS and BTS exist on the modelled PMU (IA32_MISC_ENABLE 12, 11). */
int ds_model_has_pebs(void);
int ds_model_has_bts(void);

/* The live DS area: its address (IA32_DS_AREA) and layout; NULL when
 * IA32_DS_AREA is 0 or the area is not mapped writable. */
void *ds_model_area(const struct ds_layout **l);
/* IA32_PEBS_ENABLE and MSR_PEBS_DATA_CFG as written. */
uint64_t ds_model_pebs_enable(void);
uint64_t ds_model_pebs_cfg(void);

/* Is step e a branch BTS and the LBRs record: a taken near branch
 * (SEM_TAKEN) or a far transfer (SEM_FAR), retired. */
int ds_model_branch(const struct insn_event *e);

/* BTS (pmu/perfmon/bts/model.c): one traced step with IA32_DEBUGCTL = debugctl.
 * A taken branch with TR and BTS set, at a CPL BTS_OFF_* leaves on, gets
 * a record {from the branch's RIP, to its target, flags 0}.  BTINT clear:
 * the buffer is circular (the index wraps to the base when the record
 * would pass the absolute maximum).  BTINT set: no record past the
 * maximum; when the index reaches the threshold, returns 1 (the caller
 * sets GLOBAL_STATUS bit 62 and raises the PMI).  Else 0. */
int bts_model_step(const struct insn_event *e, uint64_t debugctl);

/* PEBS (pmu/perfmon/pebs/model.c): the assist for the PEBS counters that
 * overflowed in step e. */
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
/* Writes one record unless the buffer is full (index + record > maximum:
 * dropped, no signal), advances the index, and gives the counter-reset
 * values of the applicable counters (gp_reload[n], fixed_reload[i]; left
 * alone for others).  Returns 1 when the index has reached the threshold
 * after a record (GLOBAL_STATUS bit 62 and a PMI), else 0. */
int pebs_model_assist(const struct pebs_assist *a, uint64_t *gp_reload,
		      uint64_t *fixed_reload);

/* The LBR stack the adaptive LBR group copies (pmu/perfmon/pebs/model.c): each
 * taken branch of a step while IA32_DEBUGCTL.LBR (bit 0) is set is pushed
 * (from, to); pebs_model_lbr(k) is the k-th most recent (k = 0 newest),
 * {0, 0} past what was recorded.  A NULL e clears the stack (reset). */
#define LBR_MODEL_DEPTH 32
void pebs_model_lbr_step(const struct insn_event *e, uint64_t debugctl);
void pebs_model_lbr(unsigned k, uint64_t *from, uint64_t *to);

#endif
