/* backend: the one narrow interface through which PMU drivers reach
 * performance-monitoring MSRs and RDPMC.  Two implementations stand behind
 * it: "hw", the *_safe instructions on the real registers, and "model",
 * a software register file with the reference model of the detected PMU
 * generation (pmu/model.h), fed by the single-step oracle's events.
 *
 * Every access returns 0 or the exception vector the access raised (or, in
 * the model, would raise on that hardware), like arch/x86/safe.h. */
#ifndef PMU_BACKEND_H
#define PMU_BACKEND_H

#include <stdint.h>
#include "../arch/x86/trace.h"
#include "../boot/options.h"
#include "detect.h"

enum backend_id { BE_NONE, BE_HW, BE_MODEL };

struct backend {
	enum backend_id id;
	const char *name;		/* "none", "hw", "model" */
	int (*rdmsr)(uint32_t msr, uint64_t *v);
	int (*wrmsr)(uint32_t msr, uint64_t v);
	int (*rdpmc)(uint32_t idx, uint64_t *v);
	/* Where the model's events come from: benchmarks must run under the
	 * tracer with this sink (NULL for hw: counters count by themselves). */
	trace_sink sink;
};

/* Chooses the backend for backend=auto|hw|model: auto takes hw only when
 * the write/read-back probe proved counters exist, else the model when
 * one exists for the PMU kind.  reason says which and why. */
const struct backend *backend_select(enum opt_backend want,
				     const struct cpu_info *ci,
				     char *reason, unsigned size);
const struct backend *backend_current(void);

int be_rdmsr(uint32_t msr, uint64_t *v);
int be_wrmsr(uint32_t msr, uint64_t v);
int be_rdpmc(uint32_t idx, uint64_t *v);

#endif
