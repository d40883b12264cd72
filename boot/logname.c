/* logname: log-file naming and state words (see logname.h). */
#include "logname.h"
#include "../lib/fmt.h"
#include "../lib/string.h"

/* Candidate attempt (0 .. LOGNAME_ATTEMPTS-1): YYYYMMDD-HHMMSS.log, then
 * YYYYMMDD-HHMMSS-<attempt>.log; run-<attempt>.log without a clock. */
static void logname_candidate(const struct logname_time *t, unsigned attempt,
			      char *name, unsigned size)
{
	if (!t->valid)
		fmt_snprintf(name, size, "run-%u.log", attempt);
	else if (!attempt)
		fmt_snprintf(name, size, "%04u%02u%02u-%02u%02u%02u.log",
			     t->year, t->month, t->day, t->hour, t->minute,
			     t->second);
	else
		fmt_snprintf(name, size, "%04u%02u%02u-%02u%02u%02u-%u.log",
			     t->year, t->month, t->day, t->hour, t->minute,
			     t->second, attempt);
}

enum logfile_state logname_choose(const struct logname_time *t,
				  logname_probe probe, void *ctx,
				  char *name, unsigned size, unsigned *taken)
{
	*taken = 0;
	for (unsigned attempt = 0; attempt < LOGNAME_ATTEMPTS; attempt++) {
		int r;

		logname_candidate(t, attempt, name, size);
		r = probe(ctx, name);
		if (r < 0)
			return LOGFILE_FAILED;
		if (!r)
			return LOGFILE_OPEN;
		(*taken)++;	/* never overwrite an earlier run's log */
	}
	return LOGFILE_COLLISION;
}

/* Copies s with each '"' turned into '\'': the header quotes the value and
 * its readers take no escapes. */
static void copy_unquoted(char *buf, unsigned size, const char *s)
{
	unsigned i;

	for (i = 0; s[i] && i + 1 < size; i++)
		buf[i] = s[i] == '"' ? '\'' : s[i];
	if (size)
		buf[i] = 0;
}

void logfile_describe(char *buf, unsigned size, enum logfile_state state,
		      const char *name, unsigned taken, const char *detail)
{
	char text[200];

	switch (state) {
	case LOGFILE_OPEN:
		fmt_snprintf(text, sizeof(text), "\\pmu-harness\\%s", name);
		break;
	case LOGFILE_NO_VOLUME:
		str_copy(text, "none (no file system on the boot device)",
			 sizeof(text));
		break;
	case LOGFILE_READ_ONLY:
		str_copy(text, "volume read-only", sizeof(text));
		break;
	case LOGFILE_NOT_DIR:
		str_copy(text, "\\pmu-harness is not a directory",
			 sizeof(text));
		break;
	case LOGFILE_COLLISION:
		fmt_snprintf(text, sizeof(text), "name collision: %u names "
			     "taken", taken);
		break;
	default:
		fmt_snprintf(text, sizeof(text), "unwritable: %s",
			     detail && *detail ? detail : "unknown error");
		break;
	}
	copy_unquoted(buf, size, text);
}
