/* pmu/perfmon/pebs/events.h: the precise events the harness samples with
 * PEBS, per record format (= per generation), with what the single-step
 * trace sees of each (pebs/events.c cites the tables). */
#ifndef PMU_PERFMON_PEBS_EVENTS_H
#define PMU_PERFMON_PEBS_EVENTS_H

#include <stdint.h>
#include "regs.h"

struct pebs_event {
	uint8_t event, umask;
	uint8_t fmt_lo, fmt_hi;	/* the formats (generations) it is precise
				 * on */
	const char *name;	/* the SDM's name */
	uint32_t sem;		/* pmu/sem.h counts it is the sum of */
	enum pebs_data data;
	const char *cite;
};
/* The precise event with this event select / unit mask in format fmt,
 * or NULL. */
const struct pebs_event *pebs_event_for(unsigned fmt, unsigned event,
					unsigned umask);
/* The n-th precise event of format fmt (n from 0), or NULL past the last:
 * every event the harness samples on a CPU of that format. */
const struct pebs_event *pebs_event_nth(unsigned fmt, unsigned n);

#endif
