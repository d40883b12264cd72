/* pmu/perfmon/lbr/events.h: the model-specific event that counts LBR
 * records, per microarchitecture (events.c): the model counts it, the
 * `events` tool lists it, and pfm-check referees it against libpfm4. */
#ifndef PMU_PERFMON_LBR_EVENTS_H
#define PMU_PERFMON_LBR_EVENTS_H

#include <stdint.h>
#include "../regs.h"

struct perfmon_lbr_event {
	enum perfmon_uarch uarch_lo, uarch_hi;
	uint8_t event, umask;
	const char *name;		/* the SDM's */
	int counts_pops;		/* a call-stack RET's removal counts */
	const char *libpfm;		/* libpfm4's event:umask */
	const char *pmus;		/* libpfm4's PMUs of the range */
	const char *cite;
};

/* The LBR-records event of microarchitecture u, or NULL where it has
 * none (or the table does not say). */
const struct perfmon_lbr_event *perfmon_lbr_event_for(enum perfmon_uarch u);
/* The table, *n rows (the referee walks it). */
const struct perfmon_lbr_event *perfmon_lbr_events(unsigned *n);

#endif
