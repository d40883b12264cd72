/* pmu/p6/listing.c: the P6 family's events for the host's `events` tool
 * (listing.h): the table of events.c, those of the CPU's generation
 * (p6_gen_of(): Pentium Pro, II, III, M). */
#include "listing.h"
#include "events.h"
#include "regs.h"

int p6_list_events(const struct pmu_listing *out, const struct cpu_sig *sig,
		   const char **why)
{
	unsigned gen = p6_gen_of(sig);

	(void)why;
	out->events_begin();
	for (unsigned i = 0; i < p6_n_events; i++) {
		const struct p6_event *e = &p6_events[i];

		if (!(e->gens & gen))
			continue;
		out->event_begin(e->name);
		out->num("event", e->code);
		out->num("umask", e->umask_bits);
		out->counters("counters", e->counters);
		out->flag("precise", 0);
		pmu_listing_model(out, e->sem, e->why_not);
		out->event_end();
	}
	out->events_end();
	return 0;
}
