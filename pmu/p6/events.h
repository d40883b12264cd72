/* pmu/p6/events.h: the P6 family event table and its lookups
 * (pmu/p6/events.c; SDM Vol. 3B §19.17 Table 19-37, Pentium M §19.16
 * Tables 19-35 and 19-36). */
#ifndef PMU_P6_EVENTS_H
#define PMU_P6_EVENTS_H

#include <stdint.h>

/* INST_RETIRED (0xC0) on P6, architectural "instructions retired". */
#define P6_EVENT_INST_RETIRED 0xc0
#define P6_EVENT_CPU_CLK_UNHALTED 0x79

struct p6_event {
	uint8_t code;
	uint8_t counters;	/* bit n: valid on PerfCtrn */
	uint8_t gens;		/* P6_* generations that have it */
	uint8_t umask_bits;	/* the unit-mask bits it defines (MESI
				 * states, bus agent, type); 0: its unit
				 * mask is 00H */
	const char *name;
	uint32_t sem;		/* what it counts: SEM_BIT()s of pmu/sem.h;
				 * 0: not modelled (the trace cannot see it) */
	const char *why_not;	/* for sem 0: what the trace lacks */
};

#define P6_CTR0_ONLY 1u
#define P6_CTR1_ONLY 2u
#define P6_BOTH 3u

extern const struct p6_event p6_events[];
extern const unsigned p6_n_events;
/* The event a code selects on a counter of a generation, or NULL (not in
 * the SDM's tables for that generation, or the other counter's). */
const struct p6_event *p6_event_for(unsigned code, unsigned ctr,
				    unsigned gen);
/* Is umask one the event defines (no bit outside umask_bits)? */
int p6_umask_ok(const struct p6_event *ev, unsigned umask);

#endif
