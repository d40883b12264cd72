/* perfmon_ds: the DS save area part of the architectural-perfmon driver
 * (pmu/perfmon/ds/regs.h, pmu/perfmon/pebs/regs.h): install a DS area, then enable BTS or PEBS on
 * it.  Every MSR goes through pmu/backend.h; the DS area and the buffers
 * are memory the caller owns and the processor (or the model) writes.
 *
 * Nothing is enabled on a DS area that fails ds_check() (every rule is
 * listed there), and nothing is written at all when a request is refused:
 * the error says which rule and which values.
 *
 * Availability: IA32_MISC_ENABLE bit 11 "BTS unavailable" and bit 12
 * "PEBS unavailable" (SDM Vol. 4 Table 2-2; read-only), read through the
 * backend.  The layout is the one SDM Vol. 3B §17.4.9.1 gives
 * (pmu/perfmon/ds/regs.h ds_format64()): the 64-bit one in the x86-64 build (IA-32e
 * mode) and, in the i386 build, where CPUID.01H:ECX.DTES64 is set; else
 * the 32-bit one, whose PEBS record is the 40-byte one (pmu/perfmon/pebs/regs.h) and
 * whose single counter-reset slot serves PMC0: PEBS on PMC0 only, no
 * adaptive records. */
#ifndef PMU_PERFMON_DS_H
#define PMU_PERFMON_DS_H

#include <stdint.h>
#include "../../driver.h"
#include "regs.h"
#include "../pebs/regs.h"
#include "../perfmon.h"

struct perfmon_ds {
	void *area;			/* the DS save area (layout size) */
	int use_bts, use_pebs;
	struct ds_buffer bts, pebs;	/* linear addresses */
	uint64_t gp_reset[PERFMON_MAX_GP];	/* PEBS counter-reset values */
	uint64_t fixed_reset[PERFMON_MAX_FIXED];
};

/* 1: this CPU in this build's mode uses the 64-bit DS format, 0: the
 * 32-bit one (ds_format64() of DS_BUILD_IA32E and CPUID.01H:ECX.DTES64).
 * The model uses the same answer. */
int perfmon_ds64(void);
/* The DS layout of this PMU (its PEBS format; perfmon_ds64()).  -1 when
 * the PMU has neither BTS nor PEBS. */
int perfmon_ds_layout(struct ds_layout *l, struct pmu_err *e);
/* MISC_ENABLE says BTS / PEBS available (0 also when it cannot be read). */
int perfmon_bts_available(void);
int perfmon_pebs_available(void);
/* The PEBS record bytes of this PMU (fmt 4-5: for cfg and adaptive; the
 * 32-bit DS format: 40 whatever the format). */
unsigned perfmon_pebs_record_size(uint64_t cfg, int adaptive);

/* Checks s (ds_check against the live page tables, PEBS buffer limits of
 * the format), then writes the fields and reset values into s->area and
 * its address into IA32_DS_AREA. */
int perfmon_ds_install(const struct perfmon_ds *s, struct pmu_err *e);

/* PEBS on the counters in mask (GLOBAL_CTRL numbering: bit n GP n, bit
 * 32 + i fixed i), with MSR_PEBS_DATA_CFG = cfg on formats 4-5 (cfg must
 * be 0 before).  Refused: PEBS unavailable, no DS area with a PEBS buffer
 * installed, a counter that does not take PEBS on this format, a GP
 * counter whose event is not a precise event of this generation
 * (pmu/perfmon/pebs/regs.h) or has AnyThread, Edge, Invert or CMask set (SDM Vol. 3B
 * §18.8.1.1 note), a fixed counter whose field counts nothing, cfg bits
 * that do not exist.  Writes PEBS_DATA_CFG, then IA32_PEBS_ENABLE. */
int perfmon_pebs_enable(uint64_t mask, uint64_t cfg, struct pmu_err *e);
int perfmon_pebs_disable(struct pmu_err *e);

/* BTS into the installed DS area's BTS buffer: IA32_DEBUGCTL gets TR,
 * BTS and the subset of DEBUGCTL_BTINT | DEBUGCTL_BTS_OFF_OS |
 * DEBUGCTL_BTS_OFF_USR in flags (other DEBUGCTL bits kept).  Refused: BTS
 * unavailable, no DS area with a BTS buffer installed, other flag bits. */
int perfmon_bts_enable(uint64_t flags, struct pmu_err *e);
int perfmon_bts_disable(struct pmu_err *e);
/* The DS set-up the last successful perfmon_ds_install() wrote, or NULL
 * (none, or removed). */
const struct perfmon_ds *perfmon_ds_installed(void);
/* Forget the DS area (PEBS and BTS off, IA32_DS_AREA 0). */
int perfmon_ds_remove(struct pmu_err *e);

#endif
