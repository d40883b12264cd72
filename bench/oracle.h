/* oracle: exact counts of what a benchmark retired, from the single-step
 * tracer (arch/x86/trace.h), per CPL and per semantic count (pmu/sem.h);
 * and bench_exec(), the one place that decides how a benchmark runs:
 * single-stepped into a sink (the oracle, a model backend) or at full
 * speed (hardware counters count by themselves). */
#ifndef BENCH_ORACLE_H
#define BENCH_ORACLE_H

#include <stdint.h>
#include "bench.h"
#include "data.h"
#include "../arch/x86/trace.h"

struct oracle_counts {
	uint64_t c[4][SEM_NR];		/* [CPL][count]; SEM_CLOCKS is the
					 * traced steps (the model clock) */
	uint64_t steps_with[4][SEM_NR];	/* steps in which the count
					 * happened: durations in model
					 * clocks */
	uint64_t runs_with[4][SEM_NR];	/* maximal runs of consecutive steps
					 * at one CPL in which the count
					 * happened: the deasserted-to-
					 * asserted edges of its condition */
	uint32_t last_with;		/* counts the previous step had */
	int last_cpl;			/* its CPL (zeroed: no previous step) */
	uint64_t unclassified[4];	/* steps the decoder could not explain */
	uint64_t outside;		/* steps outside the routine */
};

/* Traces b with parameter n at cpl into *out (identical steps in bulk:
 * the fastest way to count).  Returns 0, -1 when no data buffer, or 1 on
 * a fault (*f). */
int oracle_run(const struct bench *b, uint64_t n, int cpl,
	       struct oracle_counts *out, struct fault *f);

/* Runs b once with parameter n at cpl on its data buffer.  With a sink (a
 * model backend, a counting source): single-stepped, every step in order
 * to sink, and counted into *oc as the oracle counts when oc is given.
 * Without one: at full speed (at CPL 0 with interrupts off), oc untouched.
 * Returns 0, -1 without a data buffer, or 1 on a fault (*f). */
int bench_exec(const struct bench *b, uint64_t n, int cpl,
	       struct oracle_counts *oc, trace_sink sink, void *ctx,
	       struct fault *f);

/* Adds one event to counts (exposed for the host tests). */
void oracle_account(struct oracle_counts *o, const struct insn_event *e);

#endif
