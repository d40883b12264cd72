/* logflush: the log file's flush rate (logflush.h). */
#include "logflush.h"

void logflush_init(struct logflush *f, uint64_t tsc_hz)
{
	f->hz = tsc_hz;
	f->last = 0;
	f->took = 0;
	f->flushed = 0;
}

int logflush_due(const struct logflush *f, uint64_t now, int urgent)
{
	uint64_t interval = f->hz / 1000 * LOGFLUSH_INTERVAL_MS;

	if (f->took > interval)
		interval = f->took;
	if (urgent || !f->hz || !f->flushed)
		return 1;
	/* A TSC that went back (another processor's, a reset) is a reason
	 * to flush, not to wait forever. */
	return now < f->last || now - f->last >= interval;
}

void logflush_done(struct logflush *f, uint64_t start, uint64_t end)
{
	f->last = end;
	f->took = end >= start ? end - start : 0;
	f->flushed = 1;
}

void logflush_tally_add(struct logflush_tally *t, uint64_t start,
			uint64_t end, int urgent)
{
	uint64_t took = end >= start ? end - start : 0;

	if (!t->urgent && !t->interval)
		t->first_start = start;
	t->last_end = end;
	t->busy += took;
	if (took > t->longest)
		t->longest = took;
	if (urgent)
		t->urgent++;
	else
		t->interval++;
}
