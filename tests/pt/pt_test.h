/* pt_test: what the pt/ tests share - a single-range output region, a
 * benchmark run with Intel PT on while the trace records the same steps
 * (pt_run.c), the check every test makes of a stream's packets
 * (pt_packets.c), and the bits of CPUID leaf 14H, IA32_RTIT_CTL and
 * IA32_RTIT_STATUS the tests use, written out here from Intel SDM Vol.
 * 3C, order no. 326019-060US, chapter 36, rather than taken from the
 * driver, the model or its generator (pmu/pt*.c), so that a wrong rule
 * there cannot make an expectation wrong too.  The packets the SDM says a
 * run's steps make, and the comparison of a stream with them, are
 * stream.c's, the one test file that needs them.
 *
 * Under the model backend the benchmark runs single-stepped into
 * pt_sink(): the model (the backend's sink) first, then the record of the
 * same step, so the stream must hold exactly the trace's branches, one for
 * one, with their times.
 *
 * On the hardware path (pmu_on_model() false: backend=hw, and
 * backend=emulated, whose model traces every instruction from the
 * enabling WRMSR to the disabling one as silicon does) the trace runs
 * first with PT off, then the benchmark at full speed with PT on.  The
 * stream then also holds the driver's and the harness's code around the
 * benchmark, at the CPLs the config traces (§36.2.4.1 filters by CPL, not
 * by routine).  The benchmark's part is found by its IP: it is entered
 * through a pointer (an indirect CALL: a TIP to its entry, §36.2.1.2) with
 * maskable interrupts off (bench/oracle.c full_speed, ring3_run), so after
 * the first TIP to its entry come its branches, one for one, and then the
 * harness's.  A RET there may be a taken TNT bit or a TIP to its target
 * whatever the trace's stack says (unless DisRETC: a TIP): the hardware's
 * CALL/RET stack also holds the harness's CALLs and restarts at every PSB
 * (§36.3.7), neither of which the trace sees.  What holds only on the
 * model (times against the model clock, the TIP.PGE's IP, ...) is not
 * checked there, and the log says so (stream.c's pt_model_only()). */
#ifndef TESTS_PT_PT_TEST_H
#define TESTS_PT_PT_TEST_H

#include "../../harness/pmu_run.h"
#include "../../harness/need.h"
#include "../../pmu/backend.h"
#include "../../pmu/model.h"
#include "../../pmu/pt/regs.h"
#include "../../pmu/pt/caps.h"
#include "../../pmu/pt/driver.h"
#include "../../bench/oracle.h"
#include "../../arch/x86/decode.h"
#include "../../lib/pt/packet.h"
#include "../../lib/pt/timing.h"
#include "../../arch/x86/trap.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

/* ---- CPUID leaf 14H as §36.3.1 (Table 36-11 of this revision) defines
 * it: sub-leaf 0 EBX/ECX feature bits, sub-leaf 1 the encodings. */
#define SDM_PT_EBX_CR3FILTER (1u << 0)
#define SDM_PT_EBX_PSB_CYC (1u << 1)	/* PSBFreq, CYCEn, CycThresh */
#define SDM_PT_EBX_MTC (1u << 3)
#define SDM_PT_EBX_PTWRITE (1u << 4)
#define SDM_PT_EBX_POWER (1u << 5)
#define SDM_PT_ECX_TOPA (1u << 0)
#define SDM_PT_ECX_SINGLE (1u << 2)
#define SDM_PT_ECX_TRANSPORT (1u << 3)
/* sub-leaf 1: EAX[2:0] address ranges, EAX[31:16] MTC period (MTCFreq)
 * bitmap, EBX[15:0] CycThresh bitmap, EBX[31:16] PSBFreq bitmap */
#define SDM_PT_RANGES(c) ((c)->eax1 & 7u)
#define SDM_PT_MTC_BITMAP(c) ((c)->eax1 >> 16)
#define SDM_PT_CYC_BITMAP(c) ((c)->ebx1 & 0xffffu)
#define SDM_PT_PSB_BITMAP(c) ((c)->ebx1 >> 16)

/* IA32_RTIT_CTL (Table 36-6): the fields this file writes itself. */
#define SDM_CTL_TRACEEN (1ull << 0)
#define SDM_CTL_CYCEN (1ull << 1)
#define SDM_CTL_DISRETC (1ull << 11)
#define SDM_CTL_MTCEN (1ull << 9)
#define SDM_CTL_CYCTHRESH_SHIFT 19	/* bits 22:19 */
#define SDM_CTL_PSBFREQ_SHIFT 24	/* bits 27:24 */
#define SDM_CTL_MTCFREQ_SHIFT 14	/* bits 17:14 */
/* IA32_RTIT_STATUS (Table 36-7) */
#define SDM_STATUS_CONTEXTEN (1ull << 1)
#define SDM_STATUS_TRIGGEREN (1ull << 2)
#define SDM_STATUS_ERROR (1ull << 4)
#define SDM_STATUS_STOPPED (1ull << 5)

/* The output region: a power of two, aligned to its size (§36.2.7.7: the
 * base of a single range is aligned with its size). */
#define PT_OUT_BYTES (64u * 1024)
#define PT_GUARD_BYTE 0xa5
#define PT_MAX_STEPS 2048u		/* branch steps one run keeps */
#define PT_MAX_BRANCHES 2048u		/* decoded branches one run keeps */

/* One branch step of the trace (any near branch or far transfer). */
struct pt_step {
	uint64_t rip, next_rip;
	uint64_t ret_addr;		/* CALL: its next IP (rip + length) */
	uint64_t clock;			/* model clock after the step */
	uint16_t flags;			/* DEC_* | EV_* */
	uint8_t cpl;
};

/* The trace of one run. */
struct pt_trace {
	trace_sink model;		/* the backend's sink, fed first */
	uint64_t t0;			/* model clock when TraceEn was set */
	uint64_t steps;			/* every step of the run */
	uint64_t first_rip[4];		/* per CPL: the first step's RIP */
	uint64_t steps_at[4];		/* per CPL: steps */
	uint64_t last_clock;		/* model clock after the last step */
	struct pt_step s[PT_MAX_STEPS];
	unsigned n;
	uint64_t lost;
};

/* What the SDM says one traced branch step makes. */
enum { PT_W_TNT, PT_W_TIP };
struct pt_want {
	uint8_t kind;			/* PT_W_TNT or PT_W_TIP */
	uint8_t taken;			/* TNT: the outcome */
	uint8_t ret;			/* a near RET */
	uint64_t ip;			/* TIP: the target */
	uint64_t rip;			/* the branch, for messages */
	uint64_t time;			/* its cycle time (the model) */
};

/* One memory block for the whole group (pt_run.c). */
struct pt_mem {
	uint8_t out[PT_OUT_BYTES];	/* the output region: first, so that
					 * it has the block's alignment */
	struct pt_branch br[PT_MAX_BRANCHES];
	struct pt_branch br2[PT_MAX_BRANCHES];	/* a second decode */
	struct pt_want want[PT_MAX_STEPS];
	struct pt_trace tr;
};
/* The group's one memory block, kept for the run: the pt/ tests ask the
 * firmware once. */
struct pt_mem *pt_test_mem(struct tcase *t);

struct pt_env {
	struct tcase *t;
	const struct pt_caps *c;
	struct pt_mem *m;
	uint64_t base;			/* of the output region */
	uint64_t len;			/* bytes written by the last run */
	unsigned runs;			/* pt_run()s so far: YAML keys */
	int steps_only;			/* pt_run: the trace need not keep
					 * every branch step (the stream is
					 * not compared with it) */
	unsigned errata;		/* PT_ERRATUM_* of this CPU: the
					 * decoder's workarounds */
	const struct bench *bench;	/* of the last pt_run() */
	unsigned model_only;		/* PT_MO_* already logged */
	struct pt_timing_result res;
};

/* ---- running (pt_run.c) */

/* A backend, this CPU's PT with single-range output, and the group's
 * memory; else SKIP (the CPU has no PT) or FAIL, and 0. */
int pt_begin(struct tcase *t, struct pt_env *v);
/* Tracing off, whatever a test left. */
void pt_end(struct pt_env *v);
/* A config that traces cpl with BranchEn + CYCEn, CycThresh thresh. */
struct pt_config pt_config_for(const struct pt_env *v, int cpl,
			       unsigned thresh);
/* Set up the output region (filled with the guard byte), start PT with c,
 * run bench n at cpl into tr, stop; v->len the bytes written.  Hardware:
 * the trace first with PT off.  Returns 1 when it ran. */
int pt_run(struct pt_env *v, const struct bench *b, uint64_t n, int cpl,
	   const struct pt_config *c);

/* ---- the packets (pt_packets.c) */

/* Every packet of the stream: no error; the first a PSB at 0; *psbs and
 * *cycs counted; each CYC at least min_cyc (0: no minimum). */
int pt_check_packets(struct pt_env *v, const char *what, uint64_t min_cyc,
		     unsigned *psbs, unsigned *cycs);

#endif
