/* runner: selects tests by the tests= globs and runs each under
 * trap_catch(), writing one TAP result (with its YAML block) per test. */
#ifndef HARNESS_RUNNER_H
#define HARNESS_RUNNER_H

#include "../lib/tap.h"

/* How a run goes (boot/ fills it from the options). */
struct runner_opts {
	const char *globs;		/* tests= */
	int verbose;			/* announce each test first */
	/* After each result and announcement, and before a risky test:
	 * the log file keeps what is written, at once when urgent (a
	 * failure, a risky test next), else at the console's rate
	 * (boot/logflush.h). */
	void (*sync)(int urgent);
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
