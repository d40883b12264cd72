/* oracle: exact counts of what a benchmark retired, from the single-step
 * tracer (arch/x86/trace.h), per CPL and per bench_count.  It is also the
 * first counter source of the measurement API (tests/measure.h). */
#ifndef TESTS_BENCH_ORACLE_H
#define TESTS_BENCH_ORACLE_H

#include <stdint.h>
#include "bench.h"
#include "../../arch/x86/trace.h"

struct oracle_counts {
	uint64_t c[4][BC_NR];		/* [CPL][count] */
	uint64_t steps[4];		/* traced steps: instructions + extra
					 * REP iterations (the model clock) */
	uint64_t unclassified[4];	/* steps the decoder could not explain */
	uint64_t outside;		/* steps outside the routine */
};

/* The benchmark's data buffer: allocated, user-mapped and prepared once
 * per benchmark; NULL when it cannot be had. */
void *bench_data(const struct bench *b);

/* Traces b with parameter n at cpl into *out.  Extra sinks (the model
 * backend) may watch the same events: pass them as sink/ctx or NULL.
 * Returns 0, -1 when no data buffer, or 1 on a fault (*f). */
int oracle_run(const struct bench *b, uint64_t n, int cpl,
	       struct oracle_counts *out, trace_sink extra, void *extra_ctx,
	       struct fault *f);

/* Runs b once with parameter n at cpl on its data buffer: single-stepped
 * into sink when sink is set (a model backend), else at full speed (at
 * CPL 0 with interrupts off).  Returns 0, -1 without a data buffer, or 1
 * on a fault (*f). */
int bench_exec(const struct bench *b, uint64_t n, int cpl, trace_sink sink,
	       void *ctx, struct fault *f);

/* Adds one event to counts (exposed for the host tests). */
void oracle_account(struct oracle_counts *o, const struct insn_event *e);

#endif
