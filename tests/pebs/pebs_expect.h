/* tests/pebs/pebs_expect.h: which steps of a trace must give a PEBS
 * record, and with what, by the SDM's rules alone (pebs_expect.c) - the
 * tests' own reading, not the model's code, so that a test holds the
 * model and hardware to it (pebs_run.c feeds it the traced steps).
 *
 * The rules (SDM Vol. 3B, order no. 253669-060US, §18.8.1.1 "Processor
 * Event Based Sampling (PEBS)" of the Intel Core i7 section; the Core 2
 * text of §18.6.2.4 says the same):
 *   - "When the counter IA32_PMCx overflows from maximum count to zero,
 *     the PEBS hardware is armed.  Upon occurrence of the next PEBS
 *     event, the PEBS hardware triggers an assist and causes a PEBS
 *     record to be written": a counter preset `period` events below its
 *     wrap overflows at its period-th event and the record is written in
 *     the step of its (period + 1)-th event - the record's instruction is
 *     the one after the overflowing one, not that one;
 *   - "After each PEBS record is written, the processor checks each
 *     counter to see if it overflowed and was enabled for PEBS ... the
 *     reset value for each overflowed counter is loaded from the DS
 *     Buffer Management Area" (PEBS CounterX Reset): every PEBS counter
 *     that has overflowed by then - the one whose next event made the
 *     assist and any other armed one - is named by the record and
 *     reloaded `reload` events below its wrap; it overflows again at the
 *     reload-th event after the assist and records at the one after.  So
 *     the records fall at events period + 1 + k * (reload + 1);
 *   - precise distribution (INST_RETIRED.PREC_DIST, C0H/01H, on PMC1,
 *     Sandy Bridge to Skylake; pebs_ctr.pdir): the record is for the
 *     instruction that made the counter overflow, no skid (SDM Vol. 3B
 *     §18.9.4.4 "Precise Distribution of Instructions Retired (PDIR)":
 *     the machine traps on the instruction that actually caused the
 *     counter overflow; PMC1 only; the Haswell and Skylake PEBS sections
 *     keep it): records at events period + k * reload;
 *   - PDist on IA32_PMC0 (Sapphire Rapids, Emerald Rapids) and
 *     Tremont's reduced-skid PEBS there (pebs_sdm.c sdm_pdist_pmc0()):
 *     the same, for every precise event on PMC0;
 *   - precise distribution on IA32_FIXED_CTR0 from Ice Lake on, and
 *     Tremont's reduced skid there (pebs_sdm.c sdm_pdir_fixed0()): the
 *     same for fixed counter 0;
 *   - a counter counts at the CPLs its PerfEvtSel OS (bit 17) / USR
 *     (bit 16) bits select (§18.2.1.1, Figure 18-1), a fixed counter at
 *     those of its IA32_FIXED_CTR_CTRL field's OS (bit 0) / USR (bit 1)
 *     (§18.2.2, Figure 18-2);
 *   - while IA32_DEBUGCTL.LBR (bit 0, §17.4.1) is set (IA32_LBR_CTL.LBREn
 *     on architectural LBRs), the LBR stack the record's LBR group copies
 *     takes each retired taken near branch and far transfer (§17.4.8),
 *     each entry {FROM, TO, INFO} as the LBR MSRs hold it: INFO is the
 *     LBR_INFO of its format (tests/lbr/lbr_sdm.c sdm_lbr_info()). */
#ifndef TESTS_PEBS_PEBS_EXPECT_H
#define TESTS_PEBS_PEBS_EXPECT_H

#include <stdint.h>
#include "../../arch/x86/trace.h"
#include "../../pmu/perfmon/sample.h"
#include "../lbr/lbr_test.h"

#define PEBS_EXPECT_CTRS 4
#define PEBS_EXPECT_LBR 32

/* A step that must give a record, as the trace saw it. */
struct pebs_step {
	uint64_t rip, next_rip;
	uint8_t cpl;
	struct step_regs after, before;
	int have_before;
	uint64_t load, store;	/* first load / store address (0: none) */
	int access_known;
	uint64_t applicable;	/* counters the record is for */
	uint64_t from[PEBS_EXPECT_LBR], to[PEBS_EXPECT_LBR];	/* newest
								 * first */
	uint64_t info[PEBS_EXPECT_LBR];
	unsigned n_branches;	/* taken branches before, this one included */
};

/* The rules' state over one run. */
struct pebs_expect {
	const struct pebs_ctr *ctr;
	unsigned n_ctr;
	uint64_t debugctl;		/* IA32_DEBUGCTL during the run */
	int pdist_pmc0;			/* sdm_pdist_pmc0(): PMC0 records at
					 * its overflowing event */
	int pdir_fixed0;		/* sdm_pdir_fixed0(): fixed counter 0
					 * does */
	uint64_t left[PEBS_EXPECT_CTRS];	/* events to the overflow; 0:
						 * overflowed, armed */
	struct step_regs prev;		/* the state the last step left */
	int have_prev;
	uint64_t from[PEBS_EXPECT_LBR], to[PEBS_EXPECT_LBR];
	uint64_t info[PEBS_EXPECT_LBR];
	unsigned n_br;
	/* the LBRs as the SDM has them here (tests/lbr/lbr_sdm.c), for
	 * LBR_INFO; the trace's steps, and those at the last branch */
	struct sdm_lbr lbr;
	uint64_t steps, br_steps;
};

/* Before the first step: n_ctr (at most PEBS_EXPECT_CTRS) counters, each
 * period events from its overflow. */
void pebs_expect_start(struct pebs_expect *x, const struct pebs_ctr *ctr,
		       unsigned n_ctr, uint64_t debugctl);
/* One traced step: the counters the record it gives is for (GLOBAL
 * numbering), 0 when it gives none; then, with s not NULL, *s is that
 * record. */
uint64_t pebs_expect_step(struct pebs_expect *x, const struct insn_event *e,
			  struct pebs_step *s);

#endif
