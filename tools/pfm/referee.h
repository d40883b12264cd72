/* tools/pfm/referee.h: libpfm4 as the referee of the product's event
 * tables (docs/testing.md "libpfm4, the referee of the event tables").
 *
 * What libpfm4 (Debian's libpfm4 4.13) says of an event, through its
 * public interface only: pfm_find_event(), pfm_get_event_info(),
 * pfm_get_event_attr_info() and pfm_get_event_encoding() on PMUs the host
 * lacks (LIBPFM_ENCODE_INACTIVE=1, libpfm(3)), and the tally of the rows,
 * as the ops each generation's referee (pmu/<gen>/referee.c) is handed
 * (pmu/referee.h). */
#ifndef TOOLS_PFM_REFEREE_H
#define TOOLS_PFM_REFEREE_H

#include "pmu/referee.h"

/* libpfm4's encoder, then ESCR/CCCR or PerfEvtSel values. */
int ref_init(void);

/* libpfm4's answers and the tally. */
extern const struct pmu_referee pfm_referee;

#endif
