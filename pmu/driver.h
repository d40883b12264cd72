/* driver: one ops table per PMU generation, the seam every generation
 * plugs into (the design of Linux's struct x86_pmu; capabilities and
 * accessors as kvm-unit-tests' lib/x86/pmu.h offers its tests).
 *
 * A driver reaches its registers only through pmu/backend.h, so the same
 * driver runs on hardware and on the reference model.  Counters are
 * numbered 0..shape.counters-1 in the generation's own order; a counter
 * is programmed with a generation-specific pmu_config (its layout is in
 * the generation's regs.h: pmu/p5/regs.h for the P5), then started,
 * stopped, read and reset.  program() follows the SDM's order for changing an event:
 * the counter is stopped and cleared before its event changes, and it is
 * left stopped; start() enables what program() set up.
 *
 * When counting begins and ends, which tests under backend=emulated hold
 * exactly (harness/pmu_run.h pmu_expect_counter, pmu/window.h): start(c)
 * makes counter c count with its last register write and no earlier one,
 * and stop(c) stops it with its first (a read-modify-write of a shared
 * register, P5's CESR or P6's PerfEvtSel0.EN, is one write).  A counter
 * another counter's start() or stop() starts or stops breaks this; the
 * drivers keep a counter's CPL bits clear until its own start() for that
 * (pmu/p6/driver.c). */
#ifndef PMU_DRIVER_H
#define PMU_DRIVER_H

#include <stdint.h>
#include "cpu_model.h"
#include "detect.h"
#include "sem.h"

#define PMU_MAX_COUNTERS 18	/* NetBurst has the most: 18 */

struct pmu_err {
	char msg[160];
	int vector;		/* the backend's vector when an access faulted */
};

/* Fills e and returns -1: the drivers' one way to fail. */
int pmu_fail(struct pmu_err *e, int vector, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* be_wrmsr / be_rdmsr (pmu/backend.h), or pmu_fail() naming the register
 * (what), its address, the value and the vector. */
int pmu_wrmsr(uint32_t msr, uint64_t v, const char *what, struct pmu_err *e);
int pmu_rdmsr(uint32_t msr, uint64_t *v, const char *what, struct pmu_err *e);

/* A counter's programming, in the generation's encoding (sel: P5 CESR
 * half, P6/arch PERFEVTSEL, NetBurst ESCR; aux: NetBurst CCCR). */
struct pmu_config {
	uint64_t sel, aux;
};

struct pmu_shape {
	unsigned counters;	/* all of them, fixed-function included */
	unsigned width;		/* counter bits */
	uint32_t fixed;		/* bit n: counter n is fixed-function */
};

/*
 * CPL sets, bit n for CPL n: what event_config is asked to count and what
 * config_counts says a config counts.  Hardware picks CPLs in two classes
 * per counter, and the classes differ by generation (Intel SDM Vol. 3B,
 * order no. 253669-060US):
 *   - P5 CESR CC: bit 0 counts at CPL 0, 1 and 2, bit 1 at CPL 3
 *     (section 18.23.1);
 *   - P6 PerfEvtSel, the architectural PERFEVTSELx and FIXED_CTR_CTRL
 *     fields, the NetBurst ESCR: OS counts at CPL 0, USR at CPL 1, 2 and 3
 *     (18.22.1; 18.2.1.1 and 18.2.2; 18.15.1 and 18.16.1).
 *
 * event_config's cpls names the CPLs the caller needs counted (the
 * harness runs benchmark code at CPL 0 and 3 only).  The driver enables
 * every class that holds a CPL of cpls and no other, so its config counts
 * all of cpls; where a class is wider than the request (CC=001 for a P5
 * request of CPL 0, USR for a P6 request of CPL 3) the config counts that
 * superset, the hardware having nothing narrower.  A request that is empty
 * or names a CPL above 3 gets -1.
 *
 * config_counts reports the exact set the config counts per the SDM,
 * superset included: P5 CC=001 {0, 1, 2}, CC=010 {3}; OS alone {0} and USR
 * alone {1, 2, 3} on the P6, the architectural perfmon and NetBurst.
 * Callers test a CPL with cpls & PMU_CPL(cpl).
 */
#define PMU_CPL(n) (1u << (n))
#define PMU_CPL0 PMU_CPL(0)
#define PMU_CPL3 PMU_CPL(3)
#define PMU_CPLS_ALL (PMU_CPL(0) | PMU_CPL(1) | PMU_CPL(2) | PMU_CPL(3))
#define PMU_CPLS_0_2 (PMU_CPL(0) | PMU_CPL(1) | PMU_CPL(2))	/* P5 CC bit 0 */
#define PMU_CPLS_1_3 (PMU_CPL(1) | PMU_CPL(2) | PMU_CPL(3))	/* USR flags */

/* A set event_config can serve: not empty, CPLs 0-3 only. */
static inline int pmu_cpls_valid(unsigned cpls)
{
	return cpls && !(cpls & ~PMU_CPLS_ALL);
}

/* The OS/USR generations (P6, architectural perfmon, NetBurst): which
 * flags a request needs, and what a pair of flags counts. */
static inline int pmu_cpls_want_os(unsigned cpls)
{
	return !!(cpls & PMU_CPL0);
}

static inline int pmu_cpls_want_usr(unsigned cpls)
{
	return !!(cpls & PMU_CPLS_1_3);
}

static inline unsigned pmu_os_usr_cpls(int os, int usr)
{
	return (os ? PMU_CPL0 : 0) | (usr ? PMU_CPLS_1_3 : 0);
}

struct pmu_driver {
	enum pmu_kind kind;
	const char *name;
	void (*shape)(const struct cpu_info *ci, struct pmu_shape *s);
	/* The generation's fields of the "# pmu:" line, after kind=. */
	void (*describe)(const struct cpu_info *ci, char *buf, unsigned size);
	int (*init)(struct pmu_err *e);
	int (*program)(unsigned ctr, const struct pmu_config *c,
		       struct pmu_err *e);
	int (*start)(unsigned ctr, struct pmu_err *e);
	int (*stop)(unsigned ctr, struct pmu_err *e);
	int (*read)(unsigned ctr, uint64_t *v, struct pmu_err *e);
	/* Writes the counter (0 clears, anything else presets). */
	int (*reset)(unsigned ctr, uint64_t v, struct pmu_err *e);
	/* The config with which ctr counts semantic count s at cpls, for
	 * measure()'s counter source: 0, or -1 when ctr cannot count it. */
	int (*event_config)(enum sem s, unsigned ctr, unsigned cpls,
			    struct pmu_config *c);
	/* What a config counts, as the semantic counts of pmu/sem.h
	 * (SEM_BIT mask; 0: nothing the trace can see) and at which CPLs:
	 * the one mapping the model and the tests share.  Returns 0, or -1
	 * when the config selects no event. */
	int (*config_counts)(const struct pmu_config *c, unsigned ctr,
			     uint32_t *sem_mask, unsigned *cpls);
	/* "ES=0x16 CC=010 PC=0" and the like, for logs. */
	void (*config_name)(const struct pmu_config *c, char *buf,
			    unsigned size);
};

/* The "# pmu:" line's text after "pmu: ": kind=, the generation's fields
 * (its driver's describe hook, else the shape CPUID or the generation
 * fixes), then present= and the probe. */
void pmu_describe(const struct cpu_info *ci, char *buf, unsigned size);

#endif
