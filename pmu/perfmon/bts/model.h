/* pmu/perfmon/bts/model.h: Branch Trace Store records of the
 * arch-perfmon reference model (bts/model.c), which pmu/perfmon/model.c
 * feeds each step of this thread. */
#ifndef PMU_PERFMON_BTS_MODEL_H
#define PMU_PERFMON_BTS_MODEL_H

#include <stdint.h>
#include "../../../arch/x86/trace.h"

/* One traced step with IA32_DEBUGCTL = debugctl.  A taken branch with TR
 * and BTS set, at a CPL BTS_OFF_* leaves on, gets a record {from the
 * branch's RIP, to its target, flags 0}.  BTINT clear: the buffer is
 * circular (the index wraps to the base when the record would pass the
 * absolute maximum).  BTINT set: no record past the maximum; when the
 * index reaches the threshold, returns 1 (the caller sets GLOBAL_STATUS
 * bit 62 and raises the PMI).  Else 0. */
int bts_model_step(const struct insn_event *e, uint64_t debugctl);

#endif
