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
 * the last.
 *
 * trace_run also gives each event the register state the step left
 * (e->after) and the linear addresses of its data accesses (e->access[]),
 * what a PEBS record, a PMI or a trace packet model needs;
 * trace_run_aggregated, for counting only, gives neither. */
#ifndef ARCH_X86_TRACE_H
#define ARCH_X86_TRACE_H

#include <stdint.h>
#include "cpu.h"
#include "decode.h"
#include "trap.h"

/*
 * The architectural state a step left: taken from the #DB trap frame, so
 * the values the instruction wrote, at the boundary after it (SDM Vol. 3B
 * §17.3.1.4, order no. 253669: single-step is a trap).  RSP is the one the
 * CPU pushed, which 64-bit mode does at every privilege level (SDM Vol. 3A
 * §6.14.2, order no. 253668).  rflags is the pushed image with TF and RF
 * cleared: TF is the tracer's, not the program's, and RF is pushed as 1 at
 * the trap after a REP iteration that is not the last (SDM Vol. 3B
 * §17.3.1.1) so the CPU can resume the instruction; a program never reads
 * either as set (PUSHF clears RF in its image, Vol. 2B PUSHF).  Both are
 * always 0 here, also where a traced PUSHF stored TF = 1.
 *
 * In the i386 build the values are the 32-bit registers (EAX ... EDI,
 * EIP, EFLAGS) and gpr[8..15] are 0.  A trap at the same CPL pushes no
 * ESP there (SDM Vol. 3A §6.12.1); the trap entry puts the ESP before
 * the trap in the frame (arch/x86/i386/frame.h), so gpr[4] is ESP at
 * every CPL.
 */
struct step_regs {
	uint64_t gpr[16];	/* in encoding order: RAX, RCX, RDX, RBX,
				 * RSP, RBP, RSI, RDI, R8..R15 */
	uint64_t rip, rflags;
};

/* A data access: its linear address, bytes and direction. */
struct mem_access {
	uint64_t addr;
	uint8_t size;
	uint8_t store;		/* 1: a store, 0: a load */
};

/* The most accesses of one step with known addresses (decode.h). */
#define EV_MAX_ACCESS DEC_MAX_MEM

struct insn_event {
	uint64_t rip;		/* the instruction that executed */
	uint64_t next_rip;
	uint8_t cpl;		/* CPL it executed at */
	uint8_t retired;	/* 0 for a REP iteration that is not the last */
	uint16_t flags;		/* DEC_* (decode.h), plus EV_* below */
	uint32_t iterations;	/* REP iterations done by this step */
	uint32_t loads, stores;	/* data accesses done by this step */
	uint32_t more;		/* aggregated: the same step happened this
				 * many further times (0: once) */
	/* trace_run only (aggregated: n_access 0, after NULL).  Unless
	 * EV_ACCESS_UNKNOWN, access[] holds exactly the step's loads +
	 * stores, in the order the instruction makes them, addresses formed
	 * from the registers before it. */
	uint8_t n_access;
	struct mem_access access[EV_MAX_ACCESS];
	const struct step_regs *after;	/* valid in the sink call only */
};

#define EV_TAKEN (1u << 15)	/* a branch that transferred control */
/* Some access of this step is not in access[]: the decoder does not
 * describe it (DEC_MEM_UNKNOWN, DEC_UNCLASSIFIED), the FS/GS base could
 * not be read, a REP step did more than one iteration (access[] then
 * holds the first), or the run is aggregated. */
#define EV_ACCESS_UNKNOWN (1u << 14)

typedef void (*trace_sink)(const struct insn_event *e, void *ctx);

/* A traced routine, called fn(n, data) with ROUTINE_ABI (arch/x86/cpu.h):
 * the benchmarks' type (bench.h). */
typedef ROUTINE_ABI void (*trace_fn)(uint64_t n, void *data);

struct trace_range {
	const void *start, *end;
};

/* Runs fn(n, data) single-stepped at CPL 0 or 3, sending an event per step
 * inside range to sink.  Returns 0, 1 with *f when a fault ended the
 * routine, or -1 (f->vector = 1) when a DR7 breakpoint is armed and steps
 * could not be told from breakpoints. */
int trace_run(trace_fn fn, uint64_t n, void *data, int cpl,
	      struct trace_range range, trace_sink sink, void *ctx,
	      struct fault *f);

/* As trace_run, but identical steps (same RIP, CPL and outcome, no REP)
 * are summed in a table and delivered at the end with e->more set: far
 * fewer sink calls per trap.  For consumers that only count (the oracle);
 * a model needs every step in order and uses trace_run. */
int trace_run_aggregated(trace_fn fn, uint64_t n, void *data, int cpl,
			 struct trace_range range, trace_sink sink, void *ctx,
			 struct fault *f);

/* Runs fn with TF set and a #DB handler that only counts traps: the bare
 * single-step rate the oracle is measured against (make bench). */
uint64_t trace_bare(trace_fn fn, uint64_t n, void *data);

/* Steps seen by the last trace_run outside the range (entry/exit code). */
uint64_t trace_outside_steps(void);

/* While a trace runs (trace_run's, or the counting window below), the
 * RIP at which the traced code resumes: during a step's #DB hook (its
 * sink included) that #DB frame's RIP, else the next instruction to be
 * traced; 0 when no trace runs.  An interrupt taken inside the tracer's
 * own handling belongs there (arch/x86/pmi.h). */
uint64_t trace_resume_rip(void);

/*
 * The counting window (backend=emulated, pmu/backend.h): from the write
 * that enables a counter to the write that disables it, everything the
 * CPU executes with TF set is traced, the harness's and the driver's
 * code included, not just one routine's range, and each step goes to
 * sink at the CPL it ran at.  Interrupt and exception handlers, the #DB
 * handler among them, run with TF clear (SDM Vol. 3A 6.12.1.2: the
 * processor clears TF on entry through an interrupt or trap gate), so
 * they are not traced; IRET restores TF.  While the window is open,
 * trace_run refuses (-1, vector 1): there is one #DB hook.
 *
 * trace_window_open() sets TF in the caller's flags (a POPF: the first
 * step is the instruction after it, SDM Vol. 3B 17.3.1.4).
 * trace_window_hold(1) makes the steps that follow
 * invisible until trace_window_hold(0) (the model's own code behind one
 * WRMSR, RDMSR or RDPMC, which trace_window_emit() then stands for).
 * Holds nest (one per access in progress).
 * trace_window_close() clears TF.  Returns -1 when a DR7 breakpoint is
 * armed or a trace runs.
 */
int trace_window_open(trace_sink sink, void *ctx);
void trace_window_close(void);
int trace_window_active(void);
void trace_window_hold(int hold);
/* One step the window did not trace, as if it had: insn holds the
 * instruction bytes it stands for (WRMSR 0F 30, RDMSR 0F 32, RDPMC
 * 0F 33), executed at CPL 0. */
void trace_window_emit(const uint8_t *insn);

/* What the window saw, retired instructions by CPL: inside range (the
 * benchmark: set with trace_window_range() before the run), and outside
 * it before the benchmark's first step and after its last; of those, the
 * near ones: from the last WRMSR before the benchmark (the last enabling
 * write), and up to the first WRMSR after it (the first disabling one),
 * which every counter of the run counts.  trace_window_wrmsr() marks a
 * WRMSR (the emulated backend's, before it takes effect). */
struct trace_window_counts {
	uint64_t before[4], inside[4], after[4];
	uint64_t near_before[4], near_after[4];
};
void trace_window_range(struct trace_range range);
void trace_window_counts(struct trace_window_counts *c);
void trace_window_wrmsr(void);

/* The tracer's per-mode parts (arch/x86/<mode>/trace_mode.c).  The
 * frame's registers in encoding order, gpr[8..15] 0 in i386; and the
 * base of the FS or GS segment an access names (mem_flags MEM_FS or
 * MEM_GS; 0 for neither): 0, or -1 when it cannot be had. */
void trace_regs_from_frame(struct step_regs *r, const struct trap_frame *tf);
int trace_seg_base(unsigned mem_flags, uint64_t *base);

#endif
