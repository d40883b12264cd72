/* pebs_run: the harness steps of a PEBS test - a DS area and a PEBS
 * buffer of a given capacity and threshold, counters armed with their
 * periods and DS reset values, the benchmark run with a tap on the trace
 * that works out, from the trace alone, which steps must give a record
 * and with what state, and the PMIs the buffer raises.
 *
 * The tap counts each PEBS counter's events by the SDM's rule, not by the
 * model's code: a counter preset `period` events below its top wraps at
 * the period-th event, and each record reloads it `reload` events below
 * (SDM Vol. 3B §18.6.2.4.1, §18.8.1.1 "PEBS Counter Reset").  A step in
 * which counters wrap is one record, for all of them.
 *
 * Under the model the benchmark runs single-stepped with the model fed
 * before the tap sees the step.  On hardware the benchmark is traced
 * first (the tap alone), then run at full speed with PEBS on; tests state
 * hardware tolerances themselves. */
#ifndef HARNESS_PEBS_RUN_H
#define HARNESS_PEBS_RUN_H

#include <stdint.h>
#include "test.h"
#include "../arch/x86/trace.h"
#include "../pmu/perfmon/ds/driver.h"

#define PEBS_RUN_CTRS 4
#define PEBS_RUN_MAX 48		/* expected records kept (more counted) */
#define PEBS_RUN_LBR 32

struct pebs_ctr {
	unsigned bit;		/* GLOBAL numbering: n GP n, 32 + i fixed i */
	uint64_t sel;		/* GP: PerfEvtSel (EN clear); fixed: its
				 * FIXED_CTR_CTRL field */
	uint32_t sem;		/* what the event counts (pmu/sem.h) */
	uint64_t period;	/* events to the first record */
	uint64_t reload;	/* events between records (DS reset) */
	int adaptive;		/* Adaptive_Record */
};

/* A step that must give a record, as the trace saw it. */
struct pebs_step {
	uint64_t rip, next_rip;
	uint8_t cpl;
	struct step_regs after, before;
	int have_before;
	uint64_t load, store;	/* first load / store address (0: none) */
	int access_known;
	uint64_t applicable;	/* counters that wrapped in the step */
	uint64_t from[PEBS_RUN_LBR], to[PEBS_RUN_LBR];	/* newest first */
	unsigned n_branches;	/* taken branches before, this one included */
};

struct pebs_run {
	const char *bench;
	uint64_t n;
	int cpl;
	struct pebs_ctr ctr[PEBS_RUN_CTRS];
	unsigned n_ctr;
	uint64_t cfg;		/* MSR_PEBS_DATA_CFG */
	unsigned capacity;	/* records the buffer holds */
	unsigned thresh;	/* records to the threshold (0: capacity) */
	uint64_t debugctl;	/* IA32_DEBUGCTL bits during the run */
	const uint64_t *xmm;	/* loaded into XMM0-15 before (or NULL) */
	/* results */
	unsigned record_size;	/* the driver's, for the buffer */
	const uint8_t *area;	/* the DS save area it installed */
	uint8_t *buf;
	uint64_t base, index;	/* the PEBS base and index after the run */
	struct pebs_step exp[PEBS_RUN_MAX];
	unsigned n_exp;		/* records the trace asks for (all) */
	unsigned pmis;
	uint64_t status_in_pmi;	/* GLOBAL_STATUS in the first PMI */
	uint32_t lvtpc_in_pmi;
	uint64_t tsc0, tsc1;	/* TSC before and after the run */
	uint64_t count_after[PEBS_RUN_CTRS];	/* the counters after it */
	uint64_t range_lo, range_hi;	/* the benchmark's code */
};

/* Everything above; 1 when the run went through (failures are checks). */
int pebs_run(struct tcase *t, struct pebs_run *r);
/* Records actually in the buffer: min(expected, capacity). */
unsigned pebs_run_written(const struct pebs_run *r);
/* A 64-bit field of record i at byte offset off. */
uint64_t pebs_run_field(const struct pebs_run *r, unsigned i, unsigned off);

#endif
