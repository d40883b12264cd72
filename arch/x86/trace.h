/* trace: the single-step tracer behind the oracle.  It runs a routine with
 * EFLAGS.TF set (at CPL 0, or at CPL 3 through ring3_run) and, at each #DB
 * single-step trap, classifies the instruction that just executed
 * (decode.h) and hands one event to a sink: the oracle's counters, and the
 * model backend's PMU models.  Only instructions inside [start, end) become
 * events, so the harness's own entry/exit code never counts.
 *
 * A REP string instruction traps after each iteration (SDM Vol. 3B
 * §17.3.1.4) with RIP unchanged until the last: each trap is one event with
 * the iterations done (RCX before minus RCX after) and retired=1 only on
 * the last. */
#ifndef ARCH_X86_TRACE_H
#define ARCH_X86_TRACE_H

#include <stdint.h>
#include "decode.h"
#include "trap.h"

struct insn_event {
	uint64_t rip;		/* the instruction that executed */
	uint64_t next_rip;
	uint8_t cpl;		/* CPL it executed at */
	uint8_t retired;	/* 0 for a REP iteration that is not the last */
	uint16_t flags;		/* DEC_* from decode.h, plus EV_TAKEN */
	uint32_t iterations;	/* REP iterations done by this step */
	uint32_t loads, stores;	/* data accesses done by this step */
	uint32_t more;		/* aggregated: the same step happened this
				 * many further times (0: once) */
};

#define EV_TAKEN (1u << 15)	/* a branch that transferred control */

typedef void (*trace_sink)(const struct insn_event *e, void *ctx);

struct trace_range {
	const void *start, *end;
};

/* Runs fn(n, data) single-stepped at CPL 0 or 3, sending an event per step
 * inside range to sink.  Returns 0, 1 with *f when a fault ended the
 * routine, or -1 (f->vector = 1) when a DR7 breakpoint is armed and steps
 * could not be told from breakpoints. */
int trace_run(void (*fn)(uint64_t, void *), uint64_t n, void *data, int cpl,
	      struct trace_range range, trace_sink sink, void *ctx,
	      struct fault *f);

/* As trace_run, but identical steps (same RIP, CPL and outcome, no REP)
 * are summed in a table and delivered at the end with e->more set: far
 * fewer sink calls per trap.  For consumers that only count (the oracle);
 * a model needs every step in order and uses trace_run. */
int trace_run_aggregated(void (*fn)(uint64_t, void *), uint64_t n,
			 void *data, int cpl, struct trace_range range,
			 trace_sink sink, void *ctx, struct fault *f);

/* Runs fn with TF set and a #DB handler that only counts traps: the bare
 * single-step rate the oracle is measured against (make bench). */
uint64_t trace_bare(void (*fn)(uint64_t, void *), uint64_t n, void *data);

/* Steps seen by the last trace_run outside the range (entry/exit code). */
uint64_t trace_outside_steps(void);

/* While a trace runs, the RIP at which the traced code resumes: during
 * a step's #DB hook (its sink included) that #DB frame's RIP, else the
 * next instruction to be traced; 0 when no trace runs.  An interrupt
 * taken inside the tracer's own handling belongs there (arch/x86/pmi.h). */
uint64_t trace_resume_rip(void);

#endif
