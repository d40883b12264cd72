/* pmu_run: the generation-independent steps of a PMU test - program the
 * counters through the driver's ops table, run a benchmark at a CPL, read
 * the counters, and compare each with what the oracle says, within a
 * stated tolerance.  Tests of a generation add only that generation's
 * facts (which config counts what, which bound hardware allows).
 *
 * Under the model backend the benchmark runs single-stepped and the model
 * counts from the same trace as the oracle, so counts are exact.  On
 * hardware the oracle traces the benchmark first, then the counters are
 * programmed and the benchmark runs at full speed (bench_exec() decides).
 *
 * What a counter counts besides the benchmark on silicon, and under
 * backend=emulated, is the code from its enabling WRMSR to its disabling
 * one: the driver's, the harness's, the ring-3 trampoline's.  The
 * counting window (pmu/window.h) traces it.  Under backend=emulated the
 * window is the run itself.  On backend=hw the run is rehearsed: run
 * once under the window, through the same driver calls, accessors and
 * benchmark, the presets 0 (no overflow, no PMI), then the driver's
 * init() again and the run for real, untraced; the rehearsal's segments
 * (cut at each traced WRMSR, checked against the setup's logged writes)
 * give each counter's share of the code the real run executes. */
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
	unsigned setup_segs;	/* the window's segment after the setup */
	/* backend=hw: why the run has no rehearsal (window_run 0), and
	 * the PMIs its rehearsal took */
	const char *rehearsal_why;
	uint64_t rehearsal_pmis;
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
	/* backend=emulated and hw (pmu_expect_counter): the oracle's count
	 * plus `driver`, what the window (hw: the rehearsal's) traced for
	 * this counter besides the benchmark; or window_why says why that
	 * is unknown (a failed check) */
	int traced;
	uint64_t driver;
	const char *window_why;
};

/* The ring-3 trampoline's instructions (pmu_ring3_sem_edges below). */
#define PMU_RING3_EDGES 2
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
/*
 * The rule for counter ctr of run r (run by pmu_run()) counting the
 * semantic counts in sem_mask at the CPLs of cpls, n being the oracle's
 * count of the benchmark where the counter counts at the run's CPL (0
 * where it does not), plus the counter's share of the window (the steps
 * from its enabling write to its disabling one, at those CPLs,
 * classified by the oracle's decoder, never by the model; issue 39):
 *   - on the model: n, exactly (the model counts the benchmark alone);
 *   - backend=emulated: n + share, exactly (with emulated_noise=1, up to
 *     what the noise added: one instruction per interrupt taken);
 *   - backend=hw: n + the rehearsal's share, widened only where silicon
 *     is documented to leave it open or the SDM is silent, each named in
 *     the tolerance (docs/emulators.md "Tolerances on hardware"):
 *     whether the enabling and the disabling WRMSR count themselves
 *     (-1 +1 with CPL 0 and instructions; WRMSR is serializing, SDM Vol.
 *     3A §8.3, order no. 253668, so nothing else retires across either:
 *     no skid at the edges); at which CPL a step that changes CPL (the
 *     trampoline's INT, ring3_run's IRET) counts (window_crossings);
 *     one retired instruction per interrupt taken while counting (Weaver,
 *     Terpstra and Moore, ISPASS 2013).
 * An unknown share (no rehearsal, a later run took the window) is an
 * expectation with window_why set, which pmu_check_window() fails.
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
 * "cpl0_ctr1"): on backend=emulated and hw <counted>_window_driver, what
 * the window (hw: the rehearsal's) traced for the counter besides the
 * benchmark, or a failed check when that is unknown.  Returns the check's result. */
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
