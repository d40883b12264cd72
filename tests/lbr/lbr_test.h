/* lbr_test: what the lbr/ tests share - this CPU's Last Branch Records as
 * the SDM describes them (restated here, not taken from the drivers'
 * layout tables: lbr_sdm.c), a benchmark run with the LBRs on under a
 * filter and the branches the trace saw beside it (lbr_run.c), and the
 * stack the SDM asks for, checked against the registers (lbr_check.c).
 *
 * Under the model backend the benchmark runs single-stepped into
 * lbr_sink(): the model first, then the test's own reading of the same
 * step, so the stack must hold the trace's last branches one for one.
 * Under backend=emulated the sink is the counting window's tap: every
 * branch from the write that enables the LBRs to the one that disables
 * them, the driver's included.  On hardware the trace runs first with
 * the LBRs off, and the harness's own branches after the benchmark
 * (the ring-3 exit, the driver's disable) are newer than the
 * benchmark's: there the benchmark's records must be the trace's, in
 * order, as far as the stack still holds them. */
#ifndef TESTS_LBR_LBR_TEST_H
#define TESTS_LBR_LBR_TEST_H

#include "../../harness/test.h"
#include "../../harness/need.h"
#include "../../harness/pmu_run.h"
#include "../../pmu/backend.h"
#include "../../pmu/driver.h"
#include "../../pmu/generation.h"
#include "../../pmu/lbr.h"
#include "../../bench/bench.h"
#include "../../bench/oracle.h"
#include "../../arch/x86/decode.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

/* ---- the SDM's LBRs (lbr_sdm.c), with their citations there */

enum sdm_lbr_style { SDM_LBR_P6, SDM_LBR_STACK, SDM_LBR_ARCH };

struct sdm_lbr {
	const char *family;		/* "Pentium 4 model 3+", ... */
	enum sdm_lbr_style style;
	unsigned depth;
	uint32_t tos, from, to, info;	/* to 0: from and to in one MSR */
	uint32_t select;		/* MSR_LBR_SELECT, 0: none */
	int callstack;			/* LBR_SELECT.EN_CALLSTACK (bit 9) */
	unsigned format;		/* LBR_FMT (-> sdm_lbr_decode) */
	/* architectural: CPUID.1CH EAX, EBX, ECX */
	uint32_t a_eax, a_ebx, a_ecx;
};

/* The LBRs of this CPU as the SDM lists them for its signature (and
 * IA32_PERF_CAPABILITIES[5:0], CPUID.1CH, read through the backend):
 * 1, or 0 with *why for a CPU the SDM gives none (the Pentium) or this
 * table does not know. */
int sdm_lbr_of(struct sdm_lbr *s, const char **why);

/* A branch as the trace shows it, and its class (enum lbr_branch's
 * order: COND, NEAR_REL_JMP, NEAR_IND_JMP, NEAR_REL_CALL, NEAR_IND_CALL,
 * NEAR_RET, OTHER), or -1: not a branch an LBR records. */
int sdm_lbr_class(const struct insn_event *e);

/* The stack at the SDM's addresses, newest first (the TOS ring: TOS,
 * TOS-1, ...; architectural: entry 0 up to IA32_LBR_DEPTH; the P6: its
 * LastBranch pair), at most max records into out; -1 with the vector
 * of a read that faulted.  *tos: the TOS (0 without one). */
struct sdm_rec;
int sdm_lbr_read(const struct sdm_lbr *s, struct sdm_rec *out, unsigned max,
		 unsigned *n, uint64_t *tos);

/* One record's from and to as the SDM's format says the registers hold
 * them (sdm_lbr_decode), with the format's flags. */
struct sdm_rec {
	uint64_t from, to, info;
	int mispred;			/* -1: no such bit */
	int cycles;			/* -1: none */
	int br_type;			/* -1: none */
};
void sdm_lbr_decode(const struct sdm_lbr *s, uint64_t from, uint64_t to,
		    uint64_t info, struct sdm_rec *r);

/* ---- a run (lbr_run.c) */

#define LBR_MAX_BRANCHES 256u
#define LBR_MAX_DEPTH 64u

struct lbr_br {
	uint64_t from, to;
	int cls;
	uint8_t cpl;
	uint64_t steps;		/* the trace's steps up to and with it */
	unsigned wrmsrs;	/* WRMSR steps before it */
};

struct lbr_trace {
	trace_sink model;		/* the backend's sink, fed first */
	struct lbr_br b[LBR_MAX_BRANCHES];
	unsigned n;
	uint64_t lost, steps;
	/* WRMSR steps so far (0F 30: a traced WRMSR, or the one the
	 * emulated backend's access retires as, pmu/backend.h) */
	unsigned wrmsrs;
};

struct lbr_env {
	struct tcase *t;
	const struct pmu_driver *d;
	struct lbr_layout l;		/* the driver's (pmu_lbr_layout()) */
	struct sdm_lbr s;		/* the SDM's */
	unsigned runs;
	const struct bench *b;		/* the last run's */
	uint64_t tos_before;		/* MSR_LASTBRANCH_TOS before it */
	struct lbr_trace tr;
	/* the stack after a run, newest first, read at the SDM's
	 * addresses */
	struct sdm_rec rec[LBR_MAX_DEPTH + 1];
	unsigned nrec;
};

/* The driver, this CPU's layout and the SDM's, the two agreeing on
 * where the stack is; else SKIP (no LBRs) or FAIL, and 0. */
int lbr_begin(struct tcase *t, struct lbr_env *v);
/* Runs bench n at cpl with the LBRs on under f (NULL: left off), the
 * trace beside it, and reads the stack (v->rec).  Returns 1 when it
 * ran. */
int lbr_run(struct lbr_env *v, const char *bench, uint64_t n, int cpl,
	    const struct lbr_filter *f);
/* The trace step sink of a run (ctx: struct lbr_trace). */
void lbr_sink(const struct insn_event *e, void *ctx);
void lbr_end(struct lbr_env *v);
/* "run<N>_<name>" */
const char *lbr_key(const struct lbr_env *v, const char *name);

/* ---- the stack the SDM asks for (lbr_check.c) */

/* The trace's branches f keeps, newest first, at most max: the stack's
 * records. */
unsigned lbr_expected(const struct lbr_trace *tr, const struct lbr_filter *f,
		      struct lbr_br *out, unsigned max);
/* The records v->rec against want (newest first): one for one under
 * the model; on hardware, the benchmark's records are want's, in its
 * order. */
void lbr_check_stack(struct lbr_env *v, const char *what,
		     const struct lbr_br *want, unsigned nwant);
/* LBR_INFO.BR_TYPE of a class (architectural LBRs, lbr_sdm.c). */
unsigned sdm_lbr_br_type(int cls);
/* The LBR_INFO value of a record of class cls, cycles core clocks after
 * the previous record: formats 5 and 7 the cycles (saturating at
 * FFFFH), architectural LBRs CYC_CNT_VALID with them and BR_TYPE where
 * CPUID.1CH:ECX says so, MISPRED 0 (a predicted branch); 0 where the
 * format has no LBR_INFO.  What the adaptive PEBS record's LBR group
 * copies (tests/pebs). */
uint64_t sdm_lbr_info(const struct sdm_lbr *s, int cls, uint64_t cycles);

/* Every record of the benchmark's code has a class f keeps (hardware:
 * what the filter test can hold whatever the harness's code adds). */
void lbr_check_classes(struct lbr_env *v, const char *what,
		       const struct bench *b, const struct lbr_filter *f);

#endif
