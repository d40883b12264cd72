/* listing: what a generation's event listing writes (pmu/<gen>/listing.c)
 * for the host's `events` tool (tools/lab/pmu_events.c, which prints it as
 * JSON; docs/lab.md#events): every event the generation knows for one
 * CPU, from the tables the harness itself uses on the target.  Host-only:
 * the image carries no listing (generation.h, PMU_GENERATION_LISTING).
 *
 * A writer of nested objects: the top-level object (the CPU, its PMU) is
 * open when a listing starts; a listing may add top-level fields (an
 * object of its capabilities), then writes its events between
 * events_begin() and events_end(), one object each. */
#ifndef PMU_LISTING_H
#define PMU_LISTING_H

#include <stdint.h>
#include "cpu_model.h"

struct pmu_listing {
	/* the fields of the open object, in order */
	void (*num)(const char *key, unsigned long long v);
	void (*str)(const char *key, const char *v);
	void (*null)(const char *key);
	void (*flag)(const char *key, int v);
	void (*counters)(const char *key, uint64_t mask);	/* [n, ...] */
	void (*counts)(const char *key, uint32_t sem);	/* [pmu/sem.h names] */
	/* a field that is an object, or a list of objects */
	void (*object_begin)(const char *key);
	void (*object_end)(void);
	void (*list_begin)(const char *key);
	void (*item_begin)(void);
	void (*item_end)(void);
	void (*list_end)(void);
	/* the events: each one object, its "name" first */
	void (*events_begin)(void);
	void (*event_begin)(const char *name);
	void (*event_end)(void);
	void (*events_end)(void);
};

/* A generation's listing for the CPU of signature sig: 0 when written,
 * else -1 with *why (nothing written: the tool says why instead). */
typedef int pmu_list_events_fn(const struct pmu_listing *out,
			       const struct cpu_sig *sig, const char **why);

/* What the model counts for an event: its counts, or "not_modelled": why
 * (why_not NULL: the trace cannot see it). */
static inline void pmu_listing_model(const struct pmu_listing *out,
				     uint32_t sem, const char *why_not)
{
	if (sem)
		out->counts("counts", sem);
	else
		out->str("not_modelled", why_not ? why_not :
			 "the trace cannot see it");
}

#endif
