/* options: the harness's key=value options (docs in README "Options").
 * Pure logic, shared by the UEFI entry (config file, load options) and the
 * host tests.  Parsing never stops at bad input: each problem is reported
 * through the error callback and the previous value is kept, but for
 * tests=: a rejected tests= selects no test (never the whole suite). */
#ifndef BOOT_OPTIONS_H
#define BOOT_OPTIONS_H

#include "../pmu/backend.h"
#include "../harness/select.h"

/* tests= and inject= values of up to 4096 characters (NUL excluded): a
 * lab's list of test names, INJECT_MAX full-length inject= items. */
#define OPT_TESTS_MAX SELECT_GLOBS_MAX
#define OPT_INJECT_MAX 4097
/* emulated_fault= values: every fault's name once, with its comma. */
#define OPT_EMUFAULT_MAX 512
/* timeout= and run_timeout= bounds, in seconds (README "Options"). */
#define OPT_TIMEOUT_DEFAULT 60
#define OPT_RUN_TIMEOUT_DEFAULT 3600
#define OPT_TIMEOUT_MAX 86400
/* An error message's size, NUL included: a longer one is cut and ends
 * with " [N more characters cut]" (lib/escape.h). */
#define OPT_ERROR_MAX 256

enum opt_exit { EXIT_AUTO, EXIT_RETURN, EXIT_SHUTDOWN, EXIT_REBOOT };

struct options {
	char tests[OPT_TESTS_MAX];	/* comma-separated globs; "" after a
					 * rejected tests=: no test runs */
	enum backend_want backend;
	unsigned serial_port;		/* 16550 I/O base; 0 = serial off */
	int serial_com;			/* 1-4 when given as comN, else 0 */
	enum opt_exit exit;
	int verbose;
	unsigned timeout_s;		/* per-test limit, seconds */
	unsigned run_timeout_s;		/* whole-run limit, seconds */
	char inject[OPT_INJECT_MAX];	/* model fault injection spec */
	char emulated_fault[OPT_EMUFAULT_MAX];	/* pmu/emufault.h names */
	int emulated_noise;		/* pmu/noise.h: 0 or 1 */
};

typedef void (*opt_error_fn)(void *ctx, const char *msg);

void options_defaults(struct options *o);
/* Parses whitespace-separated key=value words; '#' starts a comment that
 * runs to the end of the line.  'source' names the origin in messages.
 * A word holding a byte outside printable ASCII is reported and not
 * applied, so no option value holds one; messages show the words they
 * quote escaped (control and non-ASCII bytes, \ and " as \xNN), and are
 * shorter than OPT_ERROR_MAX.  Returns the number of errors reported. */
int options_parse(struct options *o, const char *text, const char *source,
		  opt_error_fn err, void *ctx);
/* A source of options that could not be read whole (over its size
 * limit, unreadable, undecodable): nothing from it applies, and no test
 * runs, since its tests= may have been among what was lost (the rule of
 * a rejected tests=; README "Options").  The caller reports why. */
void options_reject_source(struct options *o);
/* The UEFI shell passes the program's own path as the first word: returns
 * text past it when the first word ends in ".efi", else text itself. */
const char *options_skip_program(const char *text);

const char *options_backend_name(enum backend_want b);
const char *options_exit_name(enum opt_exit e);

#endif
