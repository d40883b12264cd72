/* pmu_run: the generation-independent steps of a PMU test - program the
 * counters through the driver's ops table, run a benchmark at a CPL, read
 * the counters, and compare each with what the oracle says, within a
 * stated tolerance.  Tests of a generation add only that generation's
 * facts (which config counts what, which bound hardware allows).
 *
 * Under the model backend the benchmark runs single-stepped and the model
 * counts from the same trace as the oracle, so counts are exact.  On
 * hardware the oracle traces the benchmark first, then the counters are
 * programmed and the benchmark runs at full speed (bench_exec() decides). */
#ifndef HARNESS_PMU_RUN_H
#define HARNESS_PMU_RUN_H

#include <stdint.h>
#include "test.h"
#include "../bench/oracle.h"
#include "../pmu/driver.h"

struct pmu_run {
	const char *label;		/* YAML key prefix; NULL: "cpl<N>" */
	const char *bench;
	uint64_t n;
	int cpl;
	unsigned n_ctrs;		/* counters 0..n_ctrs-1 take part */
	uint32_t idle;			/* ... except these (bit n: counter n
					 * is neither programmed nor read) */
	struct pmu_config cfg[PMU_MAX_COUNTERS];
	uint64_t preset[PMU_MAX_COUNTERS];
	/* optional: called once the counters count, before the benchmark
	 * (a generation checks its control registers here) */
	int (*started)(struct tcase *t, struct pmu_run *r);
	uint64_t got[PMU_MAX_COUNTERS];	/* read after the run */
	uint64_t tsc_span;		/* TSC ticks from the first start to
					 * the last stop: all the clocks the
					 * counters could have seen */
	struct oracle_counts oc;	/* the oracle's counts of the run */
};

/* The driver of this CPU's PMU when it is of kind k and a backend can
 * drive it, else SKIPs the test (with the reason) and returns NULL. */
const struct pmu_driver *pmu_ready(struct tcase *t, enum pmu_kind k);
/* Is the live backend the reference model (exact counts)? */
int pmu_on_model(void);

/* Programs, presets, starts, runs, stops and reads; logs the run and the
 * configs.  Returns 1 when all went through (failures are checks). */
int pmu_run(struct tcase *t, struct pmu_run *r);
/* For tests that drive the counters themselves, at CPL 3.  Before any
 * counter counts: on hardware, traces the oracle's counts into *oc (the
 * model gets them from the run itself).  Then pmu_exec() runs the
 * benchmark with whatever the counters are programmed to: under the model
 * single-stepped with the model fed and *oc counted from that trace; on
 * hardware at full speed, *oc left as pmu_oracle_first() made it. */
int pmu_oracle_first(struct tcase *t, const char *bench, uint64_t n,
		     struct oracle_counts *oc);
int pmu_exec(struct tcase *t, const char *bench, uint64_t n,
	     struct oracle_counts *oc);

/* What a counter should read, as a range of the increment over its
 * preset (modulo the counter width): lo == hi is exact. */
struct pmu_expect {
	uint64_t lo, hi;
	const char *tolerance;		/* why a range; NULL when exact */
};

/* The rule for an event count n_oracle on this backend: exact on the
 * model, and exact on hardware unless cpls (the CPL set the counter counts
 * at, pmu/driver.h) holds CPL 0, where the driver's own code between start
 * and stop counts too (PMU_HW_SLACK bounds it). */
#define PMU_HW_SLACK 512
struct pmu_expect pmu_expect_events(uint64_t n_oracle, unsigned cpls);
/* Checks counter ctr against x and logs read value and expectation. */
void pmu_check_counter(struct tcase *t, const struct pmu_driver *d,
		       const struct pmu_run *r, unsigned ctr,
		       const struct pmu_expect *x);

#endif
