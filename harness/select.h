/* select: which tests a tests= option chooses on a CPU (select.c). */
#ifndef HARNESS_SELECT_H
#define HARNESS_SELECT_H

#include "../pmu/cpu_model.h"

struct test;

/* The longest glob list (and glob) a tests= option holds, NUL included:
 * 4 KiB of text, room for a lab's list of test names. */
#define SELECT_GLOBS_MAX 4097

/* Is the test chosen by a comma-separated glob list?  (Pure; host-tested.)
 * Manual tests need a pattern whose group part has no wildcard. */
int runner_selected(const struct test *t, const char *globs);
/* A test of a PMU generation's group (the groups its
 * pmu/<gen>/generation.c names) applies to a CPU with that kind of PMU
 * only; others always apply. */
int runner_applicable(const struct test *t, enum pmu_kind k);
/* On a CPU with PMU kind k, a test that does not apply is chosen like a
 * manual one: only by a pattern that names its group without wildcards
 * (it then runs and SKIPs with its reason). */
int runner_selected_on(const struct test *t, const char *globs,
		       enum pmu_kind k);
/* Each non-empty pattern of the comma-separated globs that chooses no
 * test of [first, end) on any CPU (runner_selected()) is passed to
 * unmatched(ctx, pattern), in order; returns how many there were.  A
 * typing error ("perfmn/" for "perfmon/") is thus named instead of silently running
 * less.  (Pure; host-tested.) */
unsigned runner_unmatched_patterns(const char *globs,
				   const struct test *first,
				   const struct test *end,
				   void (*unmatched)(void *ctx,
						     const char *pattern),
				   void *ctx);

#endif
