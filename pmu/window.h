/* window: what the counting window of backend=emulated traced besides the
 * benchmark, cut at every WRMSR, so a test knows exactly what a counter
 * counted of the driver's and the harness's own code (issue 39 item 1).
 *
 * On silicon a counter counts from the WRMSR that enables it to the one
 * that disables it (docs/emulators.md "Tolerances").  Under
 * backend=emulated that whole span is single-stepped (arch/x86/trace.h,
 * the counting window); this module sorts each traced step outside the
 * benchmark into the segment since the last WRMSR, by CPL and by the
 * semantic counts of pmu/sem.h, the oracle's classification of the step
 * (arch/x86/decode.h), never the model's.  A counter's share is then the
 * sum of the segments from its enabling write to its disabling one: the
 * harness marks them around the driver's start() and stop() (pmu/driver.h
 * says which write of each enables and disables).
 *
 * The benchmark's own steps are not here: the oracle counts them.  The
 * WRMSR, RDMSR and RDPMC the model stands for are steps like any other
 * (trace_window_emit), in the segment their own write opens (an enabling
 * WRMSR counts, a disabling one does not, SDM Vol. 3B §18.2.1.1 "counting
 * begins ... following the execution of a WRMSR"). */
#ifndef PMU_WINDOW_H
#define PMU_WINDOW_H

#include <stdint.h>
#include "sem.h"

/* The most segments a run keeps; a run that writes more is "unknown". */
#define WINDOW_SEGMENTS 96
/* The most CPL changes a run keeps (a CPL 3 run has two: ring3_run's
 * IRET into the trampoline, its INT back out). */
#define WINDOW_CROSSINGS 8

/* A new run of the benchmark [start, end): no segment yet (index 0).
 * Returns the run's number, which window_sum() asks for: one run's
 * segments are kept at a time. */
unsigned window_begin(uint64_t start, uint64_t end);
/* A WRMSR of register msr is about to take effect: the steps after it
 * (its own first) are the next segment's. */
void window_wrmsr(uint32_t msr);
/* The register the write that opened segment seg (1..) of run `run`
 * wrote: 0, or -1 when there is no such segment. */
int window_write(unsigned run, unsigned seg, uint32_t *msr);
/* The current segment's index. */
unsigned window_segment(void);
/* The trace sink of backend=emulated: sorts the step, then feeds the
 * model (model_feed). */
void window_feed(const struct insn_event *e, void *ctx);

/* The trace sink of a rehearsal (backend=hw, harness/pmu_run.h): the
 * run traced once before it runs untraced on silicon, through the same
 * accessors, so each step is the code the real run executes.  A WRMSR
 * step (the instruction itself, traced) opens the next segment as
 * window_wrmsr() does; the step is sorted as window_feed() sorts it, and
 * nothing is fed to a model (there is none). */
void window_rehearse_feed(const struct insn_event *e, void *ctx);

/* A second sink that sees every step the window traces, after the model
 * (NULL: none): a test's own reading of the SDM (the PEBS tests' tap,
 * tests/pebs/pebs_run.c) applied to the whole window, so what the model
 * wrote can be held exactly against it.  The caller removes it. */
void window_tap(trace_sink sink, void *ctx);

/* The steps of run `run`'s segments first..last (inclusive) at the CPLs
 * of cpls (pmu/driver.h's PMU_CPL() set), summed over the semantic counts
 * in sem_mask, into *n.  Returns 0, or -1 with why said (a later run
 * began, too many writes, no such segments). */
int window_sum(unsigned run, unsigned first, unsigned last, unsigned cpls,
	       uint32_t sem_mask, uint64_t *n, const char **why);

/* The same of what emulated_noise=1 added (pmu/noise.h: one retired
 * instruction per interrupt taken while counting), kept apart from the
 * traced code: what a test allows above the exact count. */
int window_noise_sum(unsigned run, unsigned first, unsigned last,
		     unsigned cpls, uint32_t sem_mask, uint64_t *n,
		     const char **why);

/* Of run `run`'s segments first..last, the steps after which the CPL
 * changed (ring3_run's IRET into CPL 3, the trampoline's INT out of it),
 * which the window sorts at the CPL they started at: summed over
 * sem_mask, those that left the CPLs of cpls into others (*leaving) and
 * those that entered them from others (*entering).  At which CPL silicon
 * counts such a step the SDM does not say (docs/emulators.md), so on
 * backend=hw each may count on either side.  Returns 0, or -1 with why. */
int window_crossings(unsigned run, unsigned first, unsigned last,
		     unsigned cpls, uint32_t sem_mask, uint64_t *leaving,
		     uint64_t *entering, const char **why);

#endif
