/* runner: selects tests by the tests= globs and runs each under
 * trap_catch(), writing one TAP result (with its YAML block) per test. */
#ifndef HARNESS_RUNNER_H
#define HARNESS_RUNNER_H

#include "../lib/tap.h"

struct test;

/* Is the test chosen by a comma-separated glob list?  (Pure; host-tested.)
 * Manual tests need a pattern whose group part has no wildcard. */
int runner_selected(const struct test *t, const char *globs);
/* Runs the selected tests; sync() is called after each result. */
void runner_run(struct tap *tap, const char *globs, int verbose,
		void (*sync)(void));

#endif
