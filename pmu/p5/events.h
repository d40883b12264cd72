/* pmu/p5/events.h: the Pentium event table and its lookups
 * (pmu/p5/events.c; SDM Vol. 3B Table 19-38). */
#ifndef PMU_P5_EVENTS_H
#define PMU_P5_EVENTS_H

#include <stdint.h>
#include "../sem.h"

struct p5_event {
	uint8_t code;
	uint8_t counters;	/* bit n: valid on CTRn */
	uint8_t mmx;		/* added by the Pentium with MMX technology */
	uint8_t duration;	/* counts clocks while a condition holds */
	const char *name;
	uint32_t sem;		/* what it counts, as SEM_BIT()s of pmu/sem.h;
				 * 0: not modelled (the trace cannot see it) */
	const char *why_not;	/* for sem 0: what the trace lacks */
};

#define P5_CTR0_ONLY 1u
#define P5_CTR1_ONLY 2u
#define P5_BOTH 3u

extern const struct p5_event p5_events[];
extern const unsigned p5_n_events;
/* The event a code selects on a counter of this CPU, or NULL (reserved,
 * wrong counter, or an MMX event on a Pentium without MMX). */
const struct p5_event *p5_event_for(unsigned code, unsigned ctr, int mmx_cpu);
/* Counter control 1xx counts the clocks during which the event's
 * condition holds (its duration).  The model, one clock per traced step,
 * can tell that only for an event that is one count of pmu/sem.h (a step
 * either has it or not); for sums of counts and unmodelled events it
 * cannot.  Duration events proper (bus cycles, stalls) are not in the
 * trace at all. */
int p5_duration_modelled(const struct p5_event *ev);
/* The one count whose duration it is (for a modelled duration). */
enum sem p5_duration_sem(const struct p5_event *ev);

#endif
