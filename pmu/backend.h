/* backend: the one narrow interface through which PMU drivers reach
 * performance-monitoring MSRs and RDPMC.  Three implementations stand
 * behind it: "hw", the *_safe instructions on the real registers; "model",
 * a software register file with the reference model of the detected PMU
 * generation (pmu/model.h), fed by the single-step oracle's events of the
 * benchmark alone (exact counts); and "emulated", the same model standing
 * in for a PMU that counts as silicon would: from the write that enables
 * a counter to the write that disables it, every instruction the CPU
 * retires is traced and fed (arch/x86/trace.h, the counting window), the
 * driver's and the harness's own code included, and tests apply their
 * hardware expectations (docs/emulators.md).  The model's own code behind
 * one access is not traced: it counts as the one WRMSR, RDMSR or RDPMC it
 * stands for, fed when the access did not fault, after it took effect (so
 * the enabling WRMSR counts, the disabling one does not).
 *
 * Every access returns 0 or the exception vector the access raised (or, in
 * the model, would raise on that hardware), like arch/x86/safe.h. */
#ifndef PMU_BACKEND_H
#define PMU_BACKEND_H

#include <stdint.h>
#include "../arch/x86/trace.h"
#include "detect.h"

enum backend_id { BE_NONE, BE_HW, BE_MODEL, BE_EMULATED };

/* What the model answers for a register it does not model: not an
 * exception vector (hardware may well have the register), but an honest
 * "unknown". */
#define BE_NOT_MODELLED 256
/* What the user asked for (the boot layer's backend= option). */
enum backend_want { BACKEND_AUTO, BACKEND_HW, BACKEND_MODEL,
		    BACKEND_EMULATED };

struct backend {
	enum backend_id id;
	const char *name;	/* "none", "hw", "model", "emulated" */
	int (*rdmsr)(uint32_t msr, uint64_t *v);
	int (*wrmsr)(uint32_t msr, uint64_t v);
	int (*rdpmc)(uint32_t idx, uint64_t *v);
	/* Where the model's events come from: benchmarks must run under the
	 * tracer with this sink (NULL for hw: counters count by themselves). */
	trace_sink sink;
};

/* Chooses the backend for backend=auto|hw|model|emulated: auto takes hw
 * only when the write/read-back probe proved counters exist, else the
 * model when one exists for the PMU kind; emulated only when the kind's
 * model can say when a counter counts (pmu_model.counting).  reason says
 * which and why. */
const struct backend *backend_select(enum backend_want want,
				     const struct cpu_info *ci,
				     char *reason, unsigned size);
const struct backend *backend_current(void);
/* The reference model answers the accesses (model or emulated): results
 * are model-backed and are labelled so. */
static inline int backend_model_backed(void)
{
	enum backend_id id = backend_current()->id;

	return id == BE_MODEL || id == BE_EMULATED;
}

/* A prediction beside the run (issue 30 section 2, pmu/model.h
 * model_predict_begin): from begin to end every be_*() access reaches the
 * reference model of this CPU's PMU kind, reset, with no fault injection,
 * no access log and no counting window, and its sink is the model's, so
 * the same register writes and the benchmark's trace give the model's
 * count.  end gives the backend (and a live model's state) back.  Returns
 * 0, or -1 with why said. */
int backend_predict_begin(char *why, unsigned size);
void backend_predict_end(void);

/* Code the sibling logical processor runs for a test (arch/x86/smp.h):
 * the sink it runs with (the model's under backend=model and
 * backend=emulated, NULL on hardware, which counts it by itself).  The
 * counting window of backend=emulated is this processor's: the sibling's
 * code reaches the model through a trace of its own, and there is one
 * #DB hook, so be_window_pause(1) closes this processor's window while
 * the sibling runs (its code meanwhile counts nothing, as under
 * backend=model) and be_window_pause(0) lets it follow the counters
 * again.  No effect on the other backends. */
trace_sink be_sibling_sink(void);
void be_window_pause(int pause);

/* Fault injection (pmu/inject.h, the inject= option): arms table t in
 * front of the model backend, so every access the drivers and tests make
 * through be_*() (and a real RDPMC the model answers) goes through it.
 * Refused (-1, why says so) unless the model answers: faults
 * are never injected on real hardware.  NULL disarms.  backend_select()
 * disarms too. */
struct inject_table;
int backend_inject(struct inject_table *t, char *why, unsigned size);
/* The armed table, or NULL. */
struct inject_table *backend_injected(void);

int be_rdmsr(uint32_t msr, uint64_t *v);
int be_wrmsr(uint32_t msr, uint64_t v);
int be_rdpmc(uint32_t idx, uint64_t *v);

/* An access log: while one is open, every backend access is recorded
 * (up to n; the rest only counted), so a test can check the order in
 * which a driver touches its registers, on hardware and model alike. */
enum be_op { BE_OP_RDMSR, BE_OP_WRMSR, BE_OP_RDPMC };
struct be_access {
	enum be_op op;
	uint32_t reg;		/* MSR number or RDPMC index */
	uint64_t value;		/* written, or read (0 when it faulted) */
	int vector;
};
struct be_log {
	struct be_access *a;
	unsigned n, used, lost;
};
void be_log_open(struct be_log *log, struct be_access *a, unsigned n);
void be_log_close(void);
/* The WRMSRs of a closed log, in order, into w (at most max). */
unsigned be_log_writes(const struct be_log *log, struct be_access *w,
		       unsigned max);

#endif
