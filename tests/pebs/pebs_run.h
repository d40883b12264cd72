/* tests/pebs/pebs_run.h: the harness steps of a PEBS test - a DS area and
 * a PEBS buffer of a given capacity and threshold, counters preset with
 * their periods and DS reset values (pmu/perfmon/sample.h), the
 * benchmark run with a tap on the trace that works out, from the trace
 * alone, which steps must give a record and with what state, and the
 * PMIs the buffer raises; each step a check of the test.
 *
 * The tap applies the SDM's rules as the tests read them
 * (pebs_expect.h: the record in the step of the event after the
 * overflow), not the model's code, to each traced step.
 *
 * Under the model the benchmark runs single-stepped with the model fed
 * before the tap sees the step.  On hardware the benchmark is traced
 * first (the tap alone), then run at full speed with PEBS on; tests state
 * hardware tolerances themselves. */
#ifndef TESTS_PEBS_PEBS_RUN_H
#define TESTS_PEBS_PEBS_RUN_H

#include <stdint.h>
#include "../../harness/test.h"
#include "../../arch/x86/trace.h"
#include "pebs_expect.h"

#define PEBS_RUN_CTRS PEBS_EXPECT_CTRS
#define PEBS_RUN_MAX 48		/* expected records kept (more counted) */
#define PEBS_RUN_LBR PEBS_EXPECT_LBR

struct pebs_run {
	const char *bench;
	uint64_t n;
	int cpl;
	struct pebs_ctr ctr[PEBS_RUN_CTRS];
	unsigned n_ctr;
	uint64_t cfg;		/* MSR_PEBS_DATA_CFG */
	unsigned capacity;	/* records the buffer holds */
	unsigned thresh;	/* records to the threshold (0: capacity - 1,
				 * pebs_sample.h) */
	uint64_t debugctl;	/* IA32_DEBUGCTL bits during the run */
	const uint64_t *xmm;	/* loaded into XMM0-15 before (or NULL) */
	int log_settings_only;	/* log the run's settings, not its records
				 * (a test's further runs of one shape:
				 * docs/pebs.md "Records in the log") */
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
	uint64_t tsc0, tsc1;	/* TSC before the counters start and
				 * after they stop */
	uint64_t count_after[PEBS_RUN_CTRS];	/* the counters after it */
	uint64_t status_after;	/* IA32_PERF_GLOBAL_STATUS after it, before
				 * the DS area is taken away (v2+; else 0) */
	uint64_t left_after[PEBS_RUN_CTRS];	/* the trace's events to the
						 * next overflow after it (0:
						 * overflowed, armed) */
	uint64_t range_lo, range_hi;	/* the benchmark's code */
	uint64_t data_cfg_used;	/* IA32_PEBS_DATA_CFG read back after the
				 * run (formats 4-5; else 0) */
};

/* The one run the tests fill in turn (a run is 55 KB, most of it the
 * expected records: one for every test would crowd the image out of a
 * small machine's memory, the matrix's memory-48 boot). */
struct pebs_run *pebs_run_mem(void);

/* Everything above; 1 when the run went through (failures are checks). */
int pebs_run(struct tcase *t, struct pebs_run *r);
/* Records actually in the buffer: min(expected, capacity). */
unsigned pebs_run_written(const struct pebs_run *r);
/* Logs the run's settings and records 0, 1 and the last (pebs_log.c);
 * pebs_run calls it. */
void pebs_log_run(struct tcase *t, const struct pebs_run *r);
/* backend=hw and emulated: the reference model's records for the same
 * arming and the benchmark's trace alone, logged beside r's
 * (model_records, model_records_delta, model_record<i>_ip:
 * pebs_predict.c); nothing on the model.  pebs_run calls it. */
void pebs_predict(struct tcase *t, const struct pebs_run *r);
/* A 64-bit field of record i at byte offset off. */
uint64_t pebs_run_field(const struct pebs_run *r, unsigned i, unsigned off);

#endif
