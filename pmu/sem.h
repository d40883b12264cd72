/* sem: the semantic event sources - what a traced step contributes to
 * each count that benchmarks state formulas for and PMU events count.
 *
 * One vocabulary for every layer: benchmark formulas (bench/bench.h), the
 * oracle's counts (bench/oracle.h), each generation's event table (an
 * event counts a sum of these, e.g. P5 0x28 DATA_READ_OR_WRITE is loads +
 * stores) and the reference models.  sem_step() is the only place that
 * turns a step into counts, so the model and the tests cannot disagree on
 * what an event means.
 *
 * Counting convention (what a count counts):
 *   - SEM_INSTRUCTIONS: retired instructions; a REP string instruction
 *     retires once, however many iterations;
 *   - SEM_BRANCHES: near branches of every kind (Jcc, JMP, CALL, RET,
 *     indirect JMP/CALL); SEM_TAKEN: those that transferred control;
 *     SEM_COND: Jcc (and LOOP/JRCXZ); SEM_CALLS: near CALL; SEM_RETURNS:
 *     near RET; SEM_FAR: far transfers (INT n, IRET, far CALL/JMP/RET);
 *   - SEM_LOADS / SEM_STORES: data memory accesses the encoding implies,
 *     stack included (PUSH/CALL store, POP/RET load), one per iteration
 *     for REP string instructions;
 *   - SEM_SEGLOADS: instructions that load a segment register (MOV Sreg,
 *     POP Sreg, far transfers that load CS);
 *   - SEM_CLOCKS: the model clock, one cycle per traced step (each REP
 *     iteration is a step).  Not architectural: benchmark formulas do not
 *     state it, and on hardware clocks are the machine's own.
 *   - SEM_REF_CLOCKS: the model's reference clock (the clock the TSC and
 *     the "reference cycles" events count on hardware).  The model's core
 *     runs at 1/SEM_REF_PER_CLOCK of its reference frequency, as a core
 *     clocked below its nominal frequency does: each model cycle lasts
 *     SEM_REF_PER_CLOCK reference clocks.  A ratio other than 1 lets a
 *     test tell core clocks from reference clocks.
 */
#ifndef PMU_SEM_H
#define PMU_SEM_H

#include <stdint.h>
#include "../arch/x86/trace.h"

enum sem {
	SEM_INSTRUCTIONS,
	SEM_BRANCHES,
	SEM_TAKEN,
	SEM_COND,
	SEM_CALLS,
	SEM_RETURNS,
	SEM_FAR,
	SEM_LOADS,
	SEM_STORES,
	SEM_SEGLOADS,
	SEM_ARCH_NR,		/* the counts benchmark formulas state */
	SEM_CLOCKS = SEM_ARCH_NR,
	SEM_REF_CLOCKS,
	SEM_NR
};

#define SEM_BIT(s) (1u << (s))
#define SEM_REF_PER_CLOCK 2

/* What one step adds to count s (for an aggregated step, e->more further
 * identical steps are added too). */
uint64_t sem_step(enum sem s, const struct insn_event *e);
/* What one single step adds to count s, however many steps e stands
 * for (the per-cycle count that CMASK compares, pmu/evtsel.h). */
uint64_t sem_once(enum sem s, const struct insn_event *e);
/* The steps (1, or 1 + e->more) in which count s happened, 0 if not: a
 * duration in model clocks. */
uint64_t sem_steps_with(enum sem s, const struct insn_event *e);
/* sem_once() / sem_step() summed over the counts in mask: what an event
 * that is that sum of counts adds in one cycle / over the step. */
uint64_t sem_once_mask(uint32_t mask, const struct insn_event *e);
uint64_t sem_step_mask(uint32_t mask, const struct insn_event *e);
/* Sum over the counts in mask, from counts[] indexed by enum sem. */
uint64_t sem_sum(uint32_t mask, const uint64_t *counts);
/* "instructions", "loads" ...: the name of count s. */
const char *sem_name(enum sem s);

#endif
