/* runner: selects tests by the tests= globs and runs each under
 * trap_catch(), writing one TAP result (with its YAML block) per test. */
#ifndef HARNESS_RUNNER_H
#define HARNESS_RUNNER_H

#include "../lib/tap.h"
#include "../pmu/cpu_model.h"

struct test;

/* Is the test chosen by a comma-separated glob list?  (Pure; host-tested.)
 * Manual tests need a pattern whose group part has no wildcard. */
int runner_selected(const struct test *t, const char *globs);
/* A test of a PMU generation's group (p5/, p6/, netburst/, perfmon/)
 * applies to a CPU with that kind of PMU only; others always apply. */
int runner_applicable(const struct test *t, enum pmu_kind k);
/* On a CPU with PMU kind k, a test that does not apply is chosen like a
 * manual one: only by a pattern that names its group without wildcards
 * (it then runs and SKIPs with its reason). */
int runner_selected_on(const struct test *t, const char *globs,
		       enum pmu_kind k);
/* Runs the selected tests; sync() is called after each result. */
void runner_run(struct tap *tap, const char *globs, int verbose,
		void (*sync)(void));

#endif
