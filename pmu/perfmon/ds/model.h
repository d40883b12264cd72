/* pmu/perfmon/ds/model.h: the DS save area part of the arch-perfmon
 * reference model (pmu/perfmon/model.c): IA32_DS_AREA and
 * IA32_MISC_ENABLE's availability bits (ds/model.c), and what the BTS
 * records (pmu/perfmon/bts/model.c), the PEBS assists
 * (pmu/perfmon/pebs/model.c, which also has the PEBS registers) and the
 * LBR stack (pmu/perfmon/lbr/model.c) read of it: the live DS area, the
 * rule of what a branch is.  Those are written into
 * the real buffers in memory that IA32_DS_AREA points at, at the step the
 * trace says, with the state the trace carries.
 *
 * The model reads the DS area's fields from memory at each record, as the
 * processor does (software may move the index at any time), and touches
 * only memory the live page tables map writable: a DS area or buffer that
 * is not mapped gets no record (hardware would fault or hang; the driver
 * refuses such an area before anything is enabled). */
#ifndef PMU_PERFMON_DS_MODEL_H
#define PMU_PERFMON_DS_MODEL_H

#include <stdint.h>
#include "../../../arch/x86/trace.h"
#include "../../model.h"
#include "../regs.h"
#include "regs.h"

void ds_model_reset(const struct perfmon_caps *c);
/* Its state, for a prediction beside the live model (pmu/model.h). */
struct model_part ds_model_part(void);
/* The DS MSRs: 0 or a vector; 1 when msr is not one of them. */
int ds_model_rdmsr(uint32_t msr, uint64_t *v);
int ds_model_wrmsr(uint32_t msr, uint64_t v);
/* The IA32_DEBUGCTL bits the DS part gives meaning to (TR, BTS, BTINT,
 * BTS_OFF_OS, BTS_OFF_USR) where BTS exists; 0 otherwise. */
uint64_t ds_model_debugctl_bits(void);

/* The live DS area: its address (IA32_DS_AREA) and layout; NULL when
 * IA32_DS_AREA is 0 or the area is not mapped writable. */
void *ds_model_area(const struct ds_layout **l);

/* Is step e a branch BTS and the LBRs record: a taken near branch
 * (SEM_TAKEN) or a far transfer (SEM_FAR), retired. */
int ds_model_branch(const struct insn_event *e);

#endif
