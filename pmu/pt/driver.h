/* pmu/pt/driver.h: the Intel PT driver (pmu/pt/driver.c) - branch tracing
 * with CYC, MTC and TSC as asked, into a single-range output region,
 * every register access through the backend (pmu/backend.h); what the
 * capabilities (caps.h) do not offer is refused before any register is
 * touched.  Functions return 0 or -1 with a message. */
#ifndef PMU_PT_DRIVER_H
#define PMU_PT_DRIVER_H

#include <stdint.h>
#include "../driver.h"

/* What to trace: BranchEn with CYC, MTC and TSC as chosen. */
struct pt_config {
	unsigned os, user;		/* trace at CPL 0 / CPL > 0 */
	unsigned cyc, cyc_thresh;	/* CYCEn, CycThresh */
	unsigned mtc, mtc_freq;		/* MTCEn, MTCFreq */
	unsigned tsc;			/* TSCEn */
	unsigned disretc;		/* DisRETC: no RET compression */
	unsigned psb_freq;		/* PSBFreq */
};

/* TraceEn off, then the single-range output at base (size: a power of
 * two, at least 128 bytes), offset 0, IA32_RTIT_STATUS 0. */
int pt_setup_output(uint64_t base, uint64_t size, struct pmu_err *e);
/* Writes IA32_RTIT_CTL: tracing starts with c (TraceEn, BranchEn,
 * single-range output), or -1 with e when the CPU does not offer what c
 * asks. */
int pt_start(const struct pt_config *c, struct pmu_err *e);
/* Clears TraceEn (the processor flushes what it holds). */
int pt_stop(struct pmu_err *e);
/* The output offset (bytes written since base, modulo the size). */
int pt_output_offset(uint64_t *off, struct pmu_err *e);

#endif
