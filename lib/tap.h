/* tap: writer for the harness log, TAP version 13 (docs/log-format.md).
 * Pure logic: every finished line goes to the emit callback, so the same
 * writer serves the serial/console/file sinks on target and the host tests. */
#ifndef LIB_TAP_H
#define LIB_TAP_H

#include <stdarg.h>

#define TAP_LINE_MAX 512

enum tap_status { TAP_PASS, TAP_FAIL, TAP_SKIP };

struct tap {
	void (*emit)(void *ctx, const char *line);
	void *ctx;
	unsigned n;		/* results written so far */
	unsigned passed, failed, skipped;
	unsigned todo;		/* of the passed: results marked TODO */
	int in_yaml;
	char summary_extra[TAP_LINE_MAX / 2];	/* tap_summary_field()s */
	int untested;			/* tap_untested() was called */
	char untested_reason[160];	/* ` reason="..."`, cut to fit */
};

/* How a run ends (tap_verdict()); boot/leave.h hands it to the machine. */
enum tap_verdict {
	TAP_VERDICT_PASS = 0,
	TAP_VERDICT_FAIL = 1,
	TAP_VERDICT_BROKEN = 2,		/* Bail out! */
	/* Nothing failed, but nothing of what the run was asked to test was
	 * tested (automake's and kvm-unit-tests' SKIP; qemu-boot.sh 77). */
	TAP_VERDICT_UNTESTED = 3,
};

void tap_init(struct tap *t, void (*emit)(void *, const char *), void *ctx);
void tap_version(struct tap *t);
void tap_comment(struct tap *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Writes "ok N - name", "not ok N - name" or "ok N - name # SKIP reason". */
void tap_result(struct tap *t, enum tap_status st, const char *name,
		const char *skip_reason);
/* Writes "ok N - name # TODO why" or "not ok N - name # TODO why" (ok:
 * whether the test passed): a known defect, here a CPU's erratum
 * (pmu/errata.h).  TAP counts neither as a failure; the summary counts
 * both as passed and says how many with ` todo=N` (docs/log-format.md). */
void tap_result_todo(struct tap *t, int ok, const char *name,
		     const char *why);
/* YAML diagnostics under the last result: key/value lines and lists (the
 * first of them opens the block, "  ---"), then tap_yaml_end().  A value
 * is written as is (numbers, hex), quoted if YAML would misread it. */
void tap_yaml_kv(struct tap *t, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A key that opens a list ("  key:"), then its items "    - value"
 * (value quoted as needed). */
void tap_yaml_list(struct tap *t, const char *key);
void tap_yaml_item(struct tap *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_yaml_end(struct tap *t);
/* The plan "1..N" and "# summary: passed=P failed=F skipped=S", then
 * ` verdict=untested reason="..."` when tap_verdict() is UNTESTED, then
 * the fields tap_summary_field() added, in order. */
void tap_finish(struct tap *t);
/* Adds ` key="value"` to the summary line (e.g. logfile_error="...").
 * The value is quoted without escapes, as the header's fields are: a '"'
 * in it becomes '\'', a control byte '?'.  A value too long for what is
 * left of the line is cut; a field whose key does not fit is left out. */
void tap_summary_field(struct tap *t, const char *key, const char *value);
void tap_bail_out(struct tap *t, const char *reason);
/* Marks the run untested: what it was asked to test did not run (the
 * reason, quoted in the summary as tap_summary_field() quotes).  A
 * failure still makes the verdict FAIL. */
void tap_untested(struct tap *t, const char *reason);
/* Exit verdict: FAIL when a test failed or none ran, else UNTESTED after
 * tap_untested(), else PASS. */
enum tap_verdict tap_verdict(const struct tap *t);

#endif
