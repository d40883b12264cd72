/* pmu/netburst/events.h: the NetBurst event table (pmu/netburst/events.c) -
 * per event its ESCR event select, the CCCR ESCR select, the ESCR pair and
 * the counters it feeds, and per event-mask bit how the model counts it.
 *
 * Citations: Intel SDM Vol. 3B, order no. 253669-060US, the Chapter 19
 * tables "Performance Monitoring Events For Intel NetBurst
 * Microarchitecture for Non-Retirement Counting" and "... for
 * At-Retirement Counting" (cited by title: their numbers change between
 * editions); events.c gives the sources row by row. */
#ifndef PMU_NETBURST_EVENTS_H
#define PMU_NETBURST_EVENTS_H

#include <stdint.h>
#include "../../arch/x86/trace.h"

/* How the model counts one event-mask bit. */
enum nb_model_how {
	NB_NOT_MODELLED,	/* the trace cannot see it: counts nothing */
	NB_SEM,			/* sum of sem[] minus sum of sem_minus[] */
	NB_ZERO,		/* the model's core never has it (no wrong-path
				 * execution, no tagged uops, a perfect branch
				 * predictor): exactly 0 */
};

struct nb_emask_bit {
	const char *name;	/* "NBOGUSNTAG" */
	uint8_t bit;		/* event-mask bit: ESCR bit 9 + bit */
	uint8_t how;		/* enum nb_model_how */
	uint32_t sem, sem_minus;	/* SEM_BIT()s of pmu/sem.h */
};

#define NB_MAX_EMASK 16

struct nb_event {
	const char *name;	/* "instr_retired" */
	uint8_t select;		/* ESCR event select */
	uint8_t escr_sel;	/* CCCR ESCR select */
	uint32_t escr[2];	/* the ESCR MSR for thread 0 / thread 1 (the
				 * ESCR0 / ESCR1 of the pair; one may be 0
				 * where only one exists) */
	uint32_t ctrs[2];	/* legal counters for thread 0 / 1 (bit n) */
	uint8_t at_retirement;	/* in the at-retirement table */
	/* Thread-independent (TI, SDM Vol. 3B §18.16.4): the event "cannot
	 * be qualified as being associated with a specific logical
	 * processor", so the T0/T1 flags select when it counts, not whose
	 * events (the SDM's table of flag combinations for TI events);
	 * thread-specific (TS) events count per the flags of the logical
	 * processor they occur on.  Which events are TI: events.c. */
	uint8_t thread_independent;
	uint8_t models_min;	/* the first model that has it (0) */
	uint8_t n_bits;
	struct nb_emask_bit bits[NB_MAX_EMASK];
	const char *why_not;	/* for bits not modelled: what the trace
				 * lacks */
};

extern const struct nb_event nb_events[];
extern const unsigned nb_n_events;

/* The event an ESCR at msr selects with event select code, or NULL. */
const struct nb_event *nb_event_for(uint32_t escr_msr, unsigned select);
const struct nb_event *nb_event_by_name(const char *name);
/* The legal event-mask bits of an event. */
uint32_t nb_emask_legal(const struct nb_event *ev);
/* Is every set bit of emask modelled (NB_SEM or NB_ZERO), the event
 * thread-specific? */
int nb_emask_modelled(const struct nb_event *ev, unsigned emask);
/* What the event with emask adds in one traced step (one clock): the sum
 * over the set bits (NB_ZERO bits add 0).  Only for modelled masks. */
uint64_t nb_event_step(const struct nb_event *ev, unsigned emask,
		       const struct insn_event *e);

#endif
