/* pmu/perfmon/sample.h: PEBS sampling of one run, through the
 * arch-perfmon drivers (sample.c): the counters below preset
 * `period` events below their wrap, a DS area whose PEBS buffer the
 * caller owns, the counter-reset slots `reload` events below the wrap
 * (SDM Vol. 3B §18.6.2.4.1, §18.8.1.1 "PEBS Counter Reset"), PEBS on;
 * then the counters read back and the DS area taken away.  The harness
 * (tests/pebs/pebs_run.c) runs the benchmark in between. */
#ifndef PMU_PERFMON_SAMPLE_H
#define PMU_PERFMON_SAMPLE_H

#include <stdint.h>
#include "../driver.h"

/* A counter sampled with PEBS. */
struct pebs_ctr {
	unsigned bit;		/* GLOBAL numbering: n GP n, 32 + i fixed i */
	uint64_t sel;		/* GP: PerfEvtSel (EN clear); fixed: its
				 * FIXED_CTR_CTRL field */
	uint32_t sem;		/* what the event counts (pmu/sem.h) */
	uint64_t period;	/* events to the first overflow (the counter
				 * is preset to 2^width - period) */
	uint64_t reload;	/* the DS counter reset: 2^width - reload */
	int adaptive;		/* Adaptive_Record */
	int pdir;		/* INST_RETIRED.PREC_DIST on PMC1: for the
				 * tests' tap (tests/pebs/pebs_expect.c),
				 * whose record is at the overflowing event;
				 * the drivers ignore it */
};

struct pebs_sample {
	const struct pebs_ctr *ctr;	/* the counters sampled */
	unsigned n_ctr;
	uint64_t cfg;			/* MSR_PEBS_DATA_CFG */
	/* IA32_DEBUGCTL bits during the run; its LBR bit turns this CPU's
	 * LBRs on, whatever enables them (IA32_LBR_CTL on architectural
	 * LBRs, pmu/lbr.h) */
	uint64_t debugctl;
	void *area;			/* the DS save area's memory */
	uint64_t base;			/* the PEBS buffer's linear address */
	unsigned capacity;		/* records it holds */
	unsigned thresh;		/* records to the threshold (0:
					 * capacity - 1, one record short
					 * of the maximum: ds_check()) */
	unsigned record_size;		/* pebs_sample_record_size() */
};

/* A clean PMU (the arch-perfmon driver's init): before and after. */
int pebs_sample_reset(struct pmu_err *e);
/* The PEBS record bytes of this PMU with cfg, adaptive when one of the
 * n counters is (the DS driver's answer); 0 without capabilities. */
unsigned pebs_sample_record_size(uint64_t cfg, const struct pebs_ctr *ctr,
				 unsigned n);
/* Programs and presets each counter, installs the DS area, writes the
 * fixed counters' fields and Adaptive_Record bits (which the driver's
 * fields lack: perfmon_fixed_ctrl_extra), enables PEBS on them with cfg,
 * sets the DEBUGCTL bits, and starts the counters last, so that no event
 * counts before a record can be taken.  -1 at the first refusal, why
 * naming the step and the driver's sentence (the caller then calls
 * pebs_sample_abort()). */
int pebs_sample_arm(const struct pebs_sample *s, char *why, unsigned size);
/* After a refused arm: PEBS and BTS off, the DS area taken away. */
int pebs_sample_abort(struct pmu_err *e);
/* IA32_PERF_GLOBAL_STATUS now (from the PMI handler): 0 or a vector. */
int pebs_sample_status(uint64_t *v);
/* Stops the counters and reads them (count[k] for ctr[k]), clears
 * DEBUGCTL where debugctl set bits, reads the PEBS index (*index; 0 when
 * the PMU has no DS layout) and takes the DS area away: -1 when that
 * last step fails. */
int pebs_sample_end(const struct pebs_sample *s, uint64_t *count,
		    uint64_t *index, struct pmu_err *e);

#endif
