/* tsc_calibrate: the TSC's rate against a counter (tsc_calibrate.h). */
#include "tsc_calibrate.h"

struct pair {
	uint64_t tsc;		/* the TSC at the counter read (midpoint) */
	uint32_t count;
};

/* One end: the pair whose two TSC reads are the closest. */
static struct pair tight_pair(const struct tsc_ref *r)
{
	struct pair best = { 0, 0 };
	uint64_t best_gap = UINT64_MAX;

	for (unsigned i = 0; i < TSC_CAL_PAIRS; i++) {
		uint64_t t0 = r->tsc(r->ctx);
		uint32_t c = r->read(r->ctx) & r->mask;
		uint64_t t1 = r->tsc(r->ctx);

		if (t1 - t0 < best_gap) {
			best_gap = t1 - t0;
			best.tsc = t0 + (t1 - t0) / 2;
			best.count = c;
		}
	}
	return best;
}

/* One measurement; 0 when the counter stopped, or when it wrapped past
 * its range while the machine was held back (fewer ticks than the span
 * seen at the end). */
static uint64_t measure(const struct tsc_ref *r, uint32_t span,
			uint32_t spin_limit)
{
	struct pair a = tight_pair(r), b;
	uint32_t ticks = 0, last = a.count, idle = 0;

	while (ticks < span) {
		uint32_t c = r->read(r->ctx) & r->mask;

		idle = c == last ? idle + 1 : 0;
		if (idle > spin_limit)
			return 0;	/* stopped, or never ran */
		last = c;
		ticks = (c - a.count) & r->mask;
	}
	b = tight_pair(r);
	ticks = (b.count - a.count) & r->mask;
	if (ticks < span || b.tsc <= a.tsc)
		return 0;
	/* (tsc ticks) * hz / ticks, without overflow for spans of seconds
	 * at GHz rates: whole seconds' worth first. */
	return (b.tsc - a.tsc) / ticks * r->hz +
	       (b.tsc - a.tsc) % ticks * r->hz / ticks;
}

uint64_t tsc_hz_against(const struct tsc_ref *r, uint32_t span,
			uint32_t spin_limit)
{
	uint64_t hz = 0;

	for (unsigned i = 0; i < TSC_CAL_TRIES && !hz; i++)
		hz = measure(r, span, spin_limit);
	return hz;
}
