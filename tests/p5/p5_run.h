/* p5_run: shared steps of the P5 tests - program both counters, run a
 * benchmark at a CPL, read the counters, and say what the oracle expects.
 *
 * Under the model backend the benchmark runs single-stepped and the model
 * counts from the same trace as the oracle, so counts must be exact.  On
 * hardware (or an emulator with a real CESR) the benchmark runs at full
 * speed, the oracle traces it separately, and each comparison has a stated
 * tolerance (p5_tolerance). */
#ifndef TESTS_P5_RUN_H
#define TESTS_P5_RUN_H

#include <stdint.h>
#include "../test.h"
#include "../bench/oracle.h"
#include "../../pmu/p5.h"

struct p5_run {
	const char *label;		/* YAML key prefix; NULL: "cpl<N>" */
	const char *bench;
	uint64_t n;
	int cpl;
	struct p5_half h[P5_COUNTERS];
	uint64_t preset[P5_COUNTERS];
	uint64_t ctr[P5_COUNTERS];	/* read after the run */
	uint32_t cesr;			/* as programmed (read back) */
	struct oracle_counts oc;
};

/* SKIPs (and returns 0) unless this is a P5 with a backend to drive it. */
int p5_ready(struct tcase *t);
/* Programs, presets, runs and reads; logs CESR and counts.  Returns 1 when
 * all went through (failures are already checks). */
int p5_run(struct tcase *t, struct p5_run *r);
/* What the oracle says counter ctr should read after r (preset included,
 * 40-bit wrap applied); *exact is 0 when only a range can be stated. */
uint64_t p5_expected(const struct p5_run *r, unsigned ctr, int *exact);
/* Compares counter ctr with the oracle, with hardware's tolerance. */
void p5_check_counter(struct tcase *t, const struct p5_run *r, unsigned ctr);

#endif
