/* errata: the PMU errata of real CPUs that make a correct harness report
 * a failure that is the chip's, not the PMU driver's (issue 40 item 4).
 *
 * Each erratum names the CPUs it affects (signature, stepping range, and
 * the first microcode revision that fixes it, where one does), where it
 * is documented (the Intel specification update's erratum id where one
 * is known, else the Linux function that works around it), and the
 * harness's tests it touches (comma-separated globs).  On an affected CPU
 * under backend=hw the runner writes such a test's result with
 * "# TODO erratum <id>: <what>" (harness/runner.c): TAP counts a TODO
 * failure as no failure, so a known silicon defect stays visible but is
 * no regression.  Under the model and backend=emulated nothing changes:
 * the reference model has no errata. */
#ifndef PMU_ERRATA_H
#define PMU_ERRATA_H

#include <stdint.h>
#include "detect.h"

/* No microcode revision fixes it. */
#define ERRATUM_NO_FIX 0xffffffffu

struct pmu_erratum_cpu {
	unsigned family, model;		/* 0: the end of the list */
	unsigned stepping_lo, stepping_hi;
	/* The first microcode revision without the erratum; ERRATUM_NO_FIX
	 * where none.  An unreadable revision counts as affected. */
	uint32_t fixed_from;
};

#define ERRATUM_CPUS 32

struct pmu_erratum {
	const char *id;			/* "HSW11", "PPro-26" */
	const char *what;		/* what goes wrong, one line */
	const char *source;		/* where it is documented */
	/* The harness's tests it touches (globs, comma-separated); NULL
	 * where none does, and no_test says why. */
	const char *tests;
	const char *no_test;
	/* Matched in order: the first entry whose signature and stepping
	 * match decides (a stepping's own fix before its model's catch-all). */
	struct pmu_erratum_cpu cpus[ERRATUM_CPUS];
};

/* Every erratum of the table, *n of them. */
const struct pmu_erratum *pmu_errata(unsigned *n);
/* Does e affect the CPU ci describes (its signature, stepping and, where
 * a fix exists, microcode revision)? */
int pmu_erratum_affects(const struct pmu_erratum *e,
			const struct cpu_info *ci);
/* The first erratum that affects ci and touches the test named name, or
 * NULL. */
const struct pmu_erratum *pmu_erratum_for(const struct cpu_info *ci,
					  const char *name);

#endif
