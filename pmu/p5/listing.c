/* pmu/p5/listing.c: the P5's events for the host's `events` tool
 * (listing.h): the table of events.c, the MMX-technology events only on a
 * Pentium with MMX (p5_is_mmx_cpu()). */
#include "listing.h"
#include "events.h"
#include "regs.h"

int p5_list_events(const struct pmu_listing *out, const struct cpu_sig *sig,
		   const char **why)
{
	int mmx = p5_is_mmx_cpu(sig);

	(void)why;
	out->events_begin();
	for (unsigned i = 0; i < p5_n_events; i++) {
		const struct p5_event *e = &p5_events[i];

		if (e->mmx && !mmx)
			continue;
		out->event_begin(e->name);
		out->num("event", e->code);
		out->null("umask");
		out->counters("counters", e->counters);
		out->flag("precise", 0);
		out->flag("duration", e->duration);
		out->flag("mmx", e->mmx);
		pmu_listing_model(out, e->sem, e->why_not);
		out->event_end();
	}
	out->events_end();
	return 0;
}
