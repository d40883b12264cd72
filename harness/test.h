/* test: the on-target test registry and the API a test uses.
 * A test is one file under tests/<group>/ with one or more TEST() lines:
 *
 *	static void fn(struct tcase *t) { check(t, x == 1, "x: got %d", x); }
 *	TEST(arch_tsc, "arch/tsc-monotonic", "TSC never goes back", fn, 0);
 *
 * check() records a failed expectation with its message (keep measured and
 * expected values in it); value() adds a key to the result's YAML block;
 * skip() ends the test as SKIP with a reason.  A fault inside a test fails
 * it with the vector, error code and RIP. */
#ifndef HARNESS_TEST_H
#define HARNESS_TEST_H

#include <stdint.h>

struct tcase;

/* Run only when a tests= pattern names the group without wildcards. */
#define TEST_MANUAL 1u
/* Known to risk the machine (hangs on purpose, faults outside a test):
 * the log file is made durable before it starts (boot/logflush.h). */
#define TEST_RISKY 2u

struct test {
	const char *name;	/* "group/name" */
	const char *what;	/* one line: what the manual says it checks */
	void (*run)(struct tcase *t);
	unsigned flags;
};

#define TEST(id, name, what, fn, flags)                                      \
	static const struct test test_##id                                   \
		__attribute__((used, section(".data.pmu_tests"),             \
			       aligned(8))) = { name, what, fn, flags }

/* Returns ok, so a test can stop early: if (!check(...)) return; */
int check(struct tcase *t, int ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void value(struct tcase *t, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void skip(struct tcase *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* fn runs after the test's result is written, outside any catch frame
 * (a fault there is a fault outside a test: the selftest that proves
 * "Bail out!" uses it). */
void after_test(struct tcase *t, void (*fn)(void));

#endif
