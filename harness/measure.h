/* measure: the one entry point that turns a benchmark into counts.
 *
 *	measure(bench, cfg, source, &result)
 *
 * For each repetition it runs the benchmark at cfg->n_small and at
 * cfg->n_large: serialize, source->start (a driver programs and enables
 * its counters), run at cfg->cpl, source->stop, source->read.  Per value it
 * keeps the difference large - small (fixed overhead cancels), and reports
 * the min and median over the repetitions, plus those of the large run
 * itself.  One warm-up run precedes the first repetition.
 *
 * A source whose sink is set needs the benchmark single-stepped (the
 * oracle, a model backend): the sink then sees every step. */
#ifndef HARNESS_MEASURE_H
#define HARNESS_MEASURE_H

#include <stdint.h>
#include "../bench/bench.h"
#include "../arch/x86/trace.h"

#define MEASURE_MAX_VALUES 12
#define MEASURE_MAX_REPS 32

struct counter_source {
	const char *name;
	unsigned n_values;
	const char *value_names[MEASURE_MAX_VALUES];
	void *ctx;
	int (*start)(void *ctx);	/* 0, or an error that ends the run */
	int (*stop)(void *ctx);
	int (*read)(void *ctx, uint64_t *values);
	trace_sink sink;		/* NULL: run untraced */
};

struct measure_cfg {
	int cpl;			/* 0 or 3 */
	unsigned reps;			/* <= MEASURE_MAX_REPS */
	uint64_t n_small, n_large;
};

struct measure_result {
	unsigned reps;			/* repetitions completed */
	uint64_t delta_min[MEASURE_MAX_VALUES];
	uint64_t delta_median[MEASURE_MAX_VALUES];
	uint64_t large_min[MEASURE_MAX_VALUES];
	uint64_t large_median[MEASURE_MAX_VALUES];
	unsigned negative[MEASURE_MAX_VALUES];	/* reps with large < small */
	char error[120];		/* empty when all went well */
};

/* Returns 0, or -1 with result->error saying what stopped it (results of
 * completed repetitions are kept). */
int measure(const struct bench *b, const struct measure_cfg *cfg,
	    const struct counter_source *src, struct measure_result *res);

/* The oracle as a counter source: values are the bench_count counts at
 * the measured CPL, in enum sem order (SEM_CLOCKS: traced steps). */
void oracle_source(struct counter_source *src, int cpl);

#endif
