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
/* How a run goes (boot/ fills it from the options). */
struct runner_opts {
	const char *globs;		/* tests= */
	int verbose;			/* announce each test first */
	void (*sync)(void);		/* after each result and announcement:
					 * the log file keeps what is written */
	unsigned timeout_s;		/* per-test limit (timeout=) */
	unsigned run_timeout_s;		/* whole-run limit (run_timeout=) */
	/* Before each test: the firmware's watchdog, re-armed for the rest
	 * of the run plus a margin (a wedged machine resets); may be NULL. */
	void (*firmware_watchdog)(unsigned seconds);
};

/* Seconds the firmware watchdog gets on top of the run's remaining time. */
#define RUNNER_FIRMWARE_MARGIN_S 120

/* Runs the selected tests, each under its time limit (arch/x86/
 * watchdog.h enforces it where the machine allows; the log says where
 * it cannot). */
void runner_run(struct tap *tap, const struct runner_opts *o);

#endif
