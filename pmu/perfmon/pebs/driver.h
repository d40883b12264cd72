/* pmu/perfmon/pebs/driver.h: the PEBS part of the architectural-perfmon
 * driver (pebs/driver.c), on a DS save area that pmu/perfmon/ds/driver.h
 * installs: the PEBS buffer's rules for that install, then PEBS enabled
 * on chosen counters.  Every MSR goes through pmu/backend.h; nothing is
 * written when a request is refused, and the error says which rule. */
#ifndef PMU_PERFMON_PEBS_DRIVER_H
#define PMU_PERFMON_PEBS_DRIVER_H

#include <stdint.h>
#include "../../driver.h"
#include "../ds/driver.h"

/* The PEBS record bytes of this PMU (fmt 4-5: for cfg and adaptive; the
 * 32-bit DS format: 40 whatever the format); 0 without capabilities. */
unsigned perfmon_pebs_record_size(uint64_t cfg, int adaptive);

/* Fills s's PEBS buffer rules for perfmon_ds_install(): the record
 * granule its index moves by (the format's fixed record; 8 bytes for the
 * adaptive formats 4-5, whose records vary; 40 in the 32-bit DS format)
 * and the buffer's limit (4 KiB on format 0, else none).  -1 without
 * capabilities. */
int perfmon_pebs_buffer(struct perfmon_ds *s, struct pmu_err *e);

/* PEBS on the counters in mask (GLOBAL_CTRL numbering: bit n GP n, bit
 * 32 + i fixed i), with MSR_PEBS_DATA_CFG = cfg on formats 4-5 (cfg must
 * be 0 before).  Refused: PEBS unavailable, no DS area with a PEBS buffer
 * installed, a counter that does not take PEBS on this format, a GP
 * counter whose event is not a precise event of this generation
 * (pmu/perfmon/pebs/events.c) or has AnyThread, Edge, Invert or CMask set
 * (SDM Vol. 3B §18.8.1.1 note), a fixed counter whose field counts
 * nothing, cfg bits that do not exist.  Writes PEBS_DATA_CFG, then
 * IA32_PEBS_ENABLE.  perfmon_ds_remove() turns PEBS off. */
int perfmon_pebs_enable(uint64_t mask, uint64_t cfg, struct pmu_err *e);

#endif
