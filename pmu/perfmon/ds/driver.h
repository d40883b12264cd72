/* pmu/perfmon/ds/driver.h: the DS save area part of the
 * architectural-perfmon driver (ds/regs.h): install a DS area, then
 * enable PEBS (pmu/perfmon/pebs/driver.h) or BTS
 * (pmu/perfmon/bts/driver.h) on it; both sit on top of this part.  Every MSR goes through
 * pmu/backend.h; the DS area and the buffers are memory the caller owns
 * and the processor (or the model) writes.
 *
 * Nothing is enabled on a DS area that fails ds_check() (every rule is
 * listed there), and nothing is written at all when a request is refused:
 * the error says which rule and which values.
 *
 * Availability: IA32_MISC_ENABLE bit 11 "BTS unavailable" and bit 12
 * "PEBS unavailable" (SDM Vol. 4 Table 2-2; read-only), read through the
 * backend.  The layout is the one SDM Vol. 3B §17.4.9.1 gives
 * (perfmon_ds64(), ds/format.h): the 64-bit one in the x86-64
 * build (IA-32e mode) and, in the i386 build, where CPUID.01H:ECX.DTES64
 * is set; else the 32-bit one, whose PEBS record is the 40-byte one
 * (pmu/perfmon/pebs/regs.h) and whose single counter-reset slot serves
 * PMC0: PEBS on PMC0 only, no adaptive records. */
#ifndef PMU_PERFMON_DS_DRIVER_H
#define PMU_PERFMON_DS_DRIVER_H

#include <stdint.h>
#include "../../driver.h"
#include "../regs.h"
#include "regs.h"

struct perfmon_ds {
	void *area;			/* the DS save area (layout size) */
	int use_bts, use_pebs;
	struct ds_buffer bts, pebs;	/* linear addresses */
	uint64_t gp_reset[PERFMON_MAX_GP];	/* PEBS counter-reset values */
	uint64_t fixed_reset[PERFMON_MAX_FIXED];
	/* The PEBS buffer's rules, from the PEBS layer
	 * (perfmon_pebs_buffer(), pmu/perfmon/pebs/driver.h): the record
	 * granule (a PEBS buffer in use without one is refused) and the
	 * buffer's limit (0: none). */
	unsigned pebs_record;
	uint64_t pebs_max_bytes;
};

/* The DS layout of this PMU (its PEBS format; perfmon_ds64()).  -1 when
 * the PMU has neither BTS nor PEBS. */
int perfmon_ds_layout(struct ds_layout *l, struct pmu_err *e);
/* MISC_ENABLE says BTS / PEBS available (0 also when it cannot be read). */
int perfmon_bts_available(void);
int perfmon_pebs_available(void);
/* The capabilities in force, or NULL with *e saying why (e may be NULL):
 * what the DS, PEBS and BTS drivers work with (pmu/perfmon/caps.h). */
const struct perfmon_caps *perfmon_ds_caps(struct pmu_err *e);
/* The PEBS record format this PMU writes: 0 where PEBS is unavailable. */
unsigned perfmon_pebs_format_in_use(const struct perfmon_caps *c);

/* Checks s (ds_check against the live page tables, PEBS buffer limits of
 * the format), then writes the fields and reset values into s->area and
 * its address into IA32_DS_AREA. */
int perfmon_ds_install(const struct perfmon_ds *s, struct pmu_err *e);

/* Read-modify-write of IA32_DEBUGCTL: the bits of clear cleared, then
 * those of set set, the others kept (BTS, pmu/perfmon/bts/driver.c, and
 * perfmon_ds_remove()). */
int perfmon_ds_debugctl(uint64_t clear, uint64_t set, struct pmu_err *e);
/* The DS set-up the last successful perfmon_ds_install() wrote, or NULL
 * (none, or removed). */
const struct perfmon_ds *perfmon_ds_installed(void);
/* Forget the DS area (PEBS and BTS off, IA32_DS_AREA 0). */
int perfmon_ds_remove(struct pmu_err *e);

/* What the driver holds of the installed area (perfmon_ds_installed()),
 * kept aside while the driver drives the reference model for a
 * prediction beside the run (pmu/backend.h backend_predict_begin: the
 * prediction installs and removes an area of its own there) and given
 * back after; the registers themselves are the backend's. */
struct perfmon_ds_memo {
	struct perfmon_ds ds;
	int have;
};
void perfmon_ds_memo_save(struct perfmon_ds_memo *m);
void perfmon_ds_memo_restore(const struct perfmon_ds_memo *m);

#endif
