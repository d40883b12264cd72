/* tcase: what one test case collects while it runs (checks, values, a
 * skip), written by test.c's check()/value()/skip() and reported by
 * runner.c.  Types only: harness-internal, tests see struct tcase as an
 * opaque handle (test.h). */
#ifndef HARNESS_TCASE_H
#define HARNESS_TCASE_H

struct test;

#define MAX_ITEMS 320	/* PEBS tests log three records of up to
			 * ~46 fields each (docs/pebs.md) */
#define ITEM_LEN 240

struct item {
	char key[40];
	char val[ITEM_LEN];
};

struct tcase {
	const struct test *test;
	unsigned checks, failed;
	int skipped;
	char skip_reason[160];
	struct item values[MAX_ITEMS];
	unsigned n_values, dropped_values;
	char failures[8][ITEM_LEN];
	unsigned n_failures;
	void (*after)(void);	/* runs outside any catch frame (after_test) */
};

#endif
