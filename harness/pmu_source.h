/* pmu_source: a PMU driver as a counter source of measure()
 * (harness/measure.h), for any generation: each value is one semantic
 * count (pmu/sem.h) on the first counter whose event_config can count it.
 * Under the model backend the source carries the backend's sink, so
 * measure() runs the benchmark single-stepped and the model sees it. */
#ifndef HARNESS_PMU_SOURCE_H
#define HARNESS_PMU_SOURCE_H

#include "test.h"
#include "../pmu/driver.h"

/* The measurement test every generation runs: driver d as the counter
 * source of measure() for sems[0..n-1] at CPL 3 over bench, which must
 * give large-small deltas equal to the benchmark's formulas (and never
 * go backwards).  ctr_name names a counter in the log ("CTR", "PerfCtr");
 * log_regs(), when given, logs the generation's control registers as the
 * measurement left them. */
void pmu_measure_two_size(struct tcase *t, const struct pmu_driver *d,
			  const char *bench, const enum sem *sems, unsigned n,
			  const char *ctr_name, void (*log_regs)(struct tcase *t));

#endif
