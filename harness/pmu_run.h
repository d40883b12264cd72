/* pmu_run: the generation-independent steps of a PMU test - program the
 * counters through the driver's ops table, run a benchmark at a CPL, read
 * the counters, and compare each with what the oracle says, within a
 * stated tolerance.  Tests of a generation add only that generation's
 * facts (which config counts what, which bound hardware allows).
 *
 * Under the model backend the benchmark runs single-stepped and the model
 * counts from the same trace as the oracle, so counts are exact.  On
 * hardware the oracle traces the benchmark first, then the counters are
 * programmed and the benchmark runs at full speed (bench_exec() decides). */
#ifndef HARNESS_PMU_RUN_H
#define HARNESS_PMU_RUN_H

#include <stdint.h>
#include "test.h"
#include "../bench/oracle.h"
#include "../pmu/driver.h"

#define PMU_RUN_SEEN 2

struct pmu_run {
	const char *label;		/* YAML key prefix; NULL: "cpl<N>" */
	const char *bench;
	uint64_t n;
	int cpl;
	unsigned n_ctrs;		/* counters 0..n_ctrs-1 take part */
	uint32_t idle;			/* ... except these (bit n: counter n
					 * is neither programmed nor read) */
	struct pmu_config cfg[PMU_MAX_COUNTERS];
	uint64_t preset[PMU_MAX_COUNTERS];
	/* optional: called once the counters count, before the benchmark
	 * (a generation checks its control registers here).  It logs
	 * nothing: on hardware the logging code would count too (a value
	 * costs ~800 instructions at CPL 0, measured under
	 * backend=emulated); what it read goes in seen[], which pmu_run()
	 * logs once the counters stopped. */
	int (*started)(struct tcase *t, struct pmu_run *r);
	struct pmu_seen {
		const char *name;	/* "<run>_<name>": a string literal */
		uint64_t v;		/* logged as 0x%llx */
	} seen[PMU_RUN_SEEN];
	unsigned n_seen;
	uint64_t got[PMU_MAX_COUNTERS];	/* read after the run */
	uint64_t tsc_span;		/* TSC ticks from the first start to
					 * the last stop: all the clocks the
					 * counters could have seen */
	struct oracle_counts oc;	/* the oracle's counts of the run */
	/* backend=hw and emulated: the reference model's count of each
	 * counter for the same register writes and the benchmark's trace
	 * alone (issue 30 section 2), logged beside the counted value as
	 * ctrN_model and ctrN_model_delta; or why there is none */
	uint64_t model[PMU_MAX_COUNTERS];
	int predicted;
	char model_why[112];
	/* backend=emulated: the window's segments (pmu/window.h) in which
	 * each counter counted: from the one its driver's start() opened
	 * with its last write to the one its stop() closed with its
	 * first (pmu/driver.h) */
	unsigned seg_from[PMU_MAX_COUNTERS], seg_to[PMU_MAX_COUNTERS];
	unsigned window_run;	/* window_begin()'s number; 0: none */
	/* PMIs taken from the first start to the last stop (arch/x86/pmi.h
	 * pmi_count): maskable interrupts are off in every run, so these
	 * are the interrupts silicon may count as retired instructions
	 * (pmu/noise.h) */
	uint64_t interrupts;
};

/* The driver of this CPU's PMU when it is of kind k and a backend can
 * drive it, else SKIPs the test (with the reason) and returns NULL. */
const struct pmu_driver *pmu_ready(struct tcase *t, enum pmu_kind k);
/* Is the live backend the reference model (exact counts)? */
int pmu_on_model(void);

/* Programs, presets, starts, runs, stops and reads; logs the run and the
 * configs.  On backend=hw and emulated it then asks the reference model
 * what the same run counts (pmu/backend.h backend_predict_begin): the
 * setup's register writes, replayed into the reset model, and the
 * benchmark single-stepped into it, nothing else (r->model).  Returns 1
 * when all went through (failures are checks). */
int pmu_run(struct tcase *t, struct pmu_run *r);
/* For tests that drive the counters themselves, at CPL 3.  Before any
 * counter counts: on hardware, traces the oracle's counts into *oc (the
 * model gets them from the run itself).  Then pmu_exec() runs the
 * benchmark with whatever the counters are programmed to: under the model
 * single-stepped with the model fed and *oc counted from that trace; on
 * hardware at full speed, *oc left as pmu_oracle_first() made it. */
int pmu_oracle_first(struct tcase *t, const char *bench, uint64_t n,
		     struct oracle_counts *oc);
int pmu_exec(struct tcase *t, const char *bench, uint64_t n,
	     struct oracle_counts *oc);

/* What a counter should read, as a range of the increment over its
 * preset (modulo the counter width): lo == hi is exact. */
struct pmu_expect {
	uint64_t lo, hi;
	const char *tolerance;		/* why a range; NULL when exact */
	/* backend=emulated (pmu_expect_counter): lo == hi is the oracle's
	 * count plus `driver`, what the window traced for this counter
	 * besides the benchmark; or window_why says why that is unknown
	 * (a failed check: the emulated path is held exactly) */
	int traced;
	uint64_t driver;
	const char *window_why;
};

/*
 * The rule for an event count n_oracle (an event of at most one per
 * instruction: instructions, branches) on this backend: exact on the
 * model.  On hardware and backend=emulated a counter counts from the
 * write that enables it to the write that disables it (docs/emulators.md
 * "Tolerances"), so besides the benchmark:
 *   - with CPL 0 in cpls (the CPL set the counter counts at,
 *     pmu/driver.h): the driver's and the harness's CPL 0 code between
 *     the first enabling and the last disabling WRMSR, at most
 *     PMU_DRIVER_PER_COUNTER per counter of the run, plus the disabling
 *     WRMSR itself (which the model leaves out and silicon may count;
 *     WRMSR is serializing, SDM Vol. 3A §8.3 "Serializing
 *     Instructions", order no. 253668, so no other instruction retires
 *     across either write: no skid);
 *   - with CPL 1-3: the ring-3 trampoline's CALL into the routine and
 *     INT back out (arch/x86/<mode>/ring3_entry.S, hand-counted: 2), one
 *     instruction and one branch each, at CPL 3.
 * The bound per counter is measured, not guessed: the counting window of
 * backend=emulated traces that code (the "<run>_window" value: counters,
 * CPL 0 before and after the benchmark) and checks it against the bound
 * on every run.  Each generation's descriptor states its own, the largest
 * per counter over its suite in either build rounded up to a multiple of
 * 64 (`per_counter`, pmu/<gen>/generation.c; docs/emulators.md), and
 * pmu_per_counter() gives the live PMU's; PMU_DRIVER_PER_COUNTER is the
 * bound of a generation that states none.
 */
#define PMU_DRIVER_PER_COUNTER 896
#define PMU_RING3_EDGES 2
/* The per-counter bound of this CPU's PMU kind. */
unsigned pmu_per_counter(void);
/* The whole CPL 0 allowance for a run of `counters` counters. */
#define PMU_HW_CPL0(counters) ((uint64_t)(counters) * pmu_per_counter() + 1)
/*
 * What the ring-3 trampoline (arch/x86/<mode>/ring3_entry.S: CALL into
 * the routine, INT 0xF9 back out, both at CPL 3) adds at most to a CPL 3
 * count of the semantics in sem_mask (pmu/sem.h SEM_BIT()s), hand-counted:
 * 2 instructions; 2 branches and taken transfers (a near CALL, and INT as
 * hardware branch events count far transfers); 1 near CALL; 1 far
 * transfer; 2 segment loads (INT loads CS and SS); no data load; 6 data
 * stores: CALL's return address and the 5 INT pushes on a change to
 * CPL 0 (SS, ESP, EFLAGS, CS, EIP: SDM Vol. 3A §6.12.1, Figure 6-4
 * "Stack Usage on Transfers to Interrupt and Exception-Handling
 * Routines"; 64-bit mode pushes the same five, Figure 6-9).  Exact for
 * instructions, loads and stores under the assumption docs/emulators.md
 * states (INT counts at the CPL it starts at).  0 on the model. */
uint64_t pmu_ring3_sem_edges(uint32_t sem_mask);
/* Does the PMI come exactly at the boundary after the overflowing event?
 * On the model, and under backend=emulated without emulated_noise=1
 * (pmu/noise.h adds silicon's skid); never on hardware. */
int pmu_pmi_exact(void);
/* What the ring-3 trampoline counts before the benchmark's first
 * instruction, of semantic count s: its CALL, 1 instruction, 1 near
 * branch, taken, a call, 1 store (the return address); 0 otherwise and on
 * the model.  A CPL 3 counter preset to overflow at its K-th event
 * overflows at the benchmark's (K - lead)-th under backend=emulated and
 * on hardware, where the counter counts from its enabling write. */
uint64_t pmu_ring3_lead(enum sem s);
/* pmu_expect_window() for an event counting the semantics in sem_mask:
 * the ring-3 allowance is pmu_ring3_sem_edges(sem_mask). */
struct pmu_expect pmu_expect_sem(uint64_t n_oracle, uint32_t sem_mask,
				 unsigned cpls, unsigned counters);
/* The rule above for instructions and branches, in a run of `counters`
 * counters (pmu_run's n_ctrs less the idle ones). */
struct pmu_expect pmu_expect_window(uint64_t n_oracle, unsigned cpls,
				    unsigned counters);
/*
 * The rule for counter ctr of run r (run by pmu_run()) counting the
 * semantic counts in sem_mask at the CPLs of cpls, n being the oracle's
 * count of the benchmark where the counter counts at the run's CPL (0
 * where it does not): exact on the model; on hardware the range of
 * pmu_expect_sem(); under backend=emulated exact again, n plus what the
 * counting window traced of everything else at those CPLs from the
 * counter's enabling write to its disabling one, classified step by step
 * by the oracle's decoder (pmu/window.h), never by the model (issue 39:
 * a pass on the emulated path must mean the PMU counted right).
 */
struct pmu_expect pmu_expect_counter(const struct pmu_run *r, unsigned ctr,
				     uint64_t n, uint32_t sem_mask,
				     unsigned cpls);

/* What a USR counter of instructions or branches counts in a CPL 3 run
 * besides the benchmark: PMU_RING3_EDGES on hardware and under
 * backend=emulated, 0 on the model (which counts the benchmark alone). */
uint64_t pmu_ring3_edges(void);
/* The counters taking part in r. */
unsigned pmu_run_counters(const struct pmu_run *r);
/* Checks counter ctr against x and logs read value and expectation, and
 * on hw and emulated the model's count and the difference (counted minus
 * model, modulo the counter's width, signed). */
void pmu_check_counter(struct tcase *t, const struct pmu_driver *d,
		       const struct pmu_run *r, unsigned ctr,
		       const struct pmu_expect *x);
/* What pmu_check_counter() logs and checks of an expectation made by
 * pmu_expect_counter(), beside the count logged as `counted` (e.g.
 * "cpl0_ctr1"): under backend=emulated <counted>_window_driver, what the
 * window traced for the counter besides the benchmark, or a failed check
 * when that is unknown.  Returns the check's result. */
int pmu_check_window(struct tcase *t, const char *counted, unsigned ctr,
		     const struct pmu_expect *x);
/* What pmu_check_counter() logs of the model's count (for tests that
 * check a run's counter themselves): ctrN_model, the model's count of
 * the run, and ctrN_model_delta, counted minus model modulo the
 * counter's width, signed ("+12", "-3", "0"); or ctrN_model "none
 * (why)".  Nothing on backend=model, whose counts are the model's. */
void pmu_log_model(struct tcase *t, const struct pmu_run *r, unsigned ctr);
/* The same beside a counted value a test logged under its own key
 * (counted, e.g. "ctr12"): <counted>_model and <counted>_model_delta. */
void pmu_log_model_as(struct tcase *t, const struct pmu_run *r, unsigned ctr,
		      const char *counted);

#endif
