/* pmu/perfmon/pebs/expect.h: which steps of a trace must give a PEBS
 * record, and with what, by the SDM's rules alone (pebs/expect.c) - not
 * by the model's code, so that a test can hold the model and hardware to
 * them (tests/pebs/pebs_run.c feeds it the traced steps).
 *
 * The rules: a PEBS counter preset `period` events below its top wraps
 * at the period-th event, and each record reloads it `reload` events
 * below (SDM Vol. 3B §18.6.2.4.1, §18.8.1.1 "PEBS Counter Reset"); a
 * step in which counters wrap is one record, for all of them; a counter
 * counts at the CPLs its PerfEvtSel OS/USR bits (a fixed counter's
 * FIXED_CTR_CTRL field) select; while IA32_DEBUGCTL.LBR is set, the LBR
 * stack the record's LBR group copies takes each retired taken near
 * branch and far transfer. */
#ifndef PMU_PERFMON_PEBS_EXPECT_H
#define PMU_PERFMON_PEBS_EXPECT_H

#include <stdint.h>
#include "../../../arch/x86/trace.h"

#define PEBS_EXPECT_CTRS 4
#define PEBS_EXPECT_LBR 32

/* A counter sampled with PEBS. */
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
	uint64_t from[PEBS_EXPECT_LBR], to[PEBS_EXPECT_LBR];	/* newest
								 * first */
	unsigned n_branches;	/* taken branches before, this one included */
};

/* The rules' state over one run. */
struct pebs_expect {
	const struct pebs_ctr *ctr;
	unsigned n_ctr;
	uint64_t debugctl;		/* IA32_DEBUGCTL during the run */
	uint64_t left[PEBS_EXPECT_CTRS];	/* events to the next wrap */
	struct step_regs prev;		/* the state the last step left */
	int have_prev;
	uint64_t from[PEBS_EXPECT_LBR], to[PEBS_EXPECT_LBR];
	unsigned n_br;
};

/* Before the first step: n_ctr (at most PEBS_EXPECT_CTRS) counters, each
 * period events from its first wrap. */
void pebs_expect_start(struct pebs_expect *x, const struct pebs_ctr *ctr,
		       unsigned n_ctr, uint64_t debugctl);
/* One traced step: the counters that wrap in it (GLOBAL numbering), 0
 * when none; then, with s not NULL, *s is the record it must give. */
uint64_t pebs_expect_step(struct pebs_expect *x, const struct insn_event *e,
			  struct pebs_step *s);

#endif
