/* bts_test: what the bts/ tests share - a DS area with a BTS buffer, a
 * benchmark run with BTS on, and the taken branches the trace saw, written
 * out from the SDM (Vol. 3B, order no. 253669-060US, §17.4.5 "Branch
 * Trace Store (BTS)", §17.4.9 "BTS and DS Save Area", Figure 17-6 "64-bit
 * Branch Trace Record Format", §17.4.9.3 "Setting Up the BTS Buffer",
 * §17.4.9.4 "Setting Up CPL-Qualified BTS") rather than taken from the
 * driver or the model, so that a wrong rule there cannot make an
 * expectation wrong too.
 *
 * Under the model backend the benchmark runs single-stepped into
 * bts_sink(): the model (the backend's sink) first, then the expectation
 * from the same step, so the records must be the trace's taken branches
 * one for one.  On hardware the trace runs first with BTS off, then the
 * benchmark at full speed with BTS on: the buffer also holds records of
 * the harness's own code between enabling and disabling BTS (CPL 0, and
 * at CPL 3 the ring-3 entry and exit path), so the checks there are that
 * the benchmark's branches appear in order as a subsequence.  The code
 * is bts_run.c's (the run), bts_log.c's (its log) and bts_check.c's (the
 * records checked). */
#ifndef TESTS_BTS_BTS_TEST_H
#define TESTS_BTS_BTS_TEST_H

#include "../perfmon/perfmon_test.h"
#include "../../pmu/perfmon/ds/regs.h"
#include "../../arch/x86/cpu.h"
#include "../../harness/need.h"
#include "../../pmu/perfmon/bts/driver.h"
#include "../../pmu/perfmon/ds/driver.h"
#include "../../bench/oracle.h"
#include "../../lib/fmt.h"
#include "../../lib/string.h"

/* The facts the tests read the buffer and IA32_DEBUGCTL by, restated
 * from the SDM (not pmu/perfmon/ds/regs.h):
 *   - IA32_DEBUGCTL (§17.4.1, Figure 17-3): TR bit 6, BTS bit 7, BTINT
 *     bit 8, BTS_OFF_OS bit 9, BTS_OFF_USR bit 10, FREEZE_PERFMON_ON_PMI
 *     bit 12;
 *   - the DS format (§17.4.9.1): 64-bit fields in IA-32e mode or with
 *     CPUID.01H:ECX.DTES64 (bit 2), else 32-bit ones;
 *   - the DS save area (§17.4.9, Figures 17-7 and 17-8): BTS base,
 *     index, absolute maximum, threshold at field 0, 1, 2, 3 - the BTS
 *     index at 08H (64-bit) or 04H (32-bit). */
#define SDM_DEBUGCTL_TR (1ull << 6)
#define SDM_DEBUGCTL_BTS (1ull << 7)
#define SDM_DEBUGCTL_BTINT (1ull << 8)
#define SDM_DEBUGCTL_BTS_OFF_OS (1ull << 9)
#define SDM_DEBUGCTL_BTS_OFF_USR (1ull << 10)
#define SDM_DEBUGCTL_FREEZE_PERFMON (1ull << 12)

static inline int sdm_ds64(void)
{
	return sizeof(void *) == 8 || (cpu_info()->f1_ecx & (1u << 2));
}

static inline unsigned sdm_ds_field(void)
{
	return sdm_ds64() ? 8u : 4u;
}

/* Bytes of one BTS record in the DS format in use: 24 in the 64-bit
 * format {from 00H, to 08H, flags 10H} (§17.4.9.1), 12 in the 32-bit one
 * {from 0, to 4, flags 8} (§17.4.9), which the i386 build uses on a CPU
 * without DTES64. */
#define BTS_REC (3u * sdm_ds_field())
#define BTS_REC_MAX 24u
/* Every IA32_DEBUGCTL bit BTS gives meaning to (§17.4.1, Figure 17-3). */
#define BTS_SDM_BITS (SDM_DEBUGCTL_TR | SDM_DEBUGCTL_BTS |                  \
		      SDM_DEBUGCTL_BTINT | SDM_DEBUGCTL_BTS_OFF_OS |            \
		      SDM_DEBUGCTL_BTS_OFF_USR)
#define BTS_BUF_RECORDS 1024u
/* Records past every buffer's maximum, to see that none is written. */
#define BTS_GUARD_RECORDS 4u
#define BTS_GUARD_BYTE 0xa5
#define BTS_MAX_BRANCHES 512u
/* Records of the harness's own code at CPL 3 that hardware may add at
 * either end of a CPL 3 benchmark run (the ring-3 entry and exit). */
#define BTS_HW_EDGE 8u

struct bts_branch {
	uint64_t from, to;
	uint16_t flags;			/* the step's DEC_* | EV_* */
	uint8_t cpl;
};

/* The taken branches of one run, in order. */
struct bts_trace {
	trace_sink model;		/* the backend's sink, fed first */
	struct bts_branch b[BTS_MAX_BRANCHES];
	unsigned n;
	uint64_t lost;			/* taken branches past b[] */
};

struct bts_mem {
	uint8_t area[1024] __attribute__((aligned(64)));
	/* the BTS buffer the processor (or the model) writes */
	uint8_t buf[(BTS_BUF_RECORDS + BTS_GUARD_RECORDS) * BTS_REC_MAX]
		__attribute__((aligned(64)));
	/* its records decoded (bts_decode), whatever the format */
	struct bts_record rec[BTS_BUF_RECORDS + BTS_GUARD_RECORDS];
};

struct bts_env {
	struct tcase *t;
	const struct perfmon_caps *c;
	const struct pmu_driver *d;
	struct ds_layout l;
	struct bts_mem *m;
	uint64_t base;			/* of the BTS buffer */
	unsigned runs;			/* bts_run()s so far: YAML keys */
};

/* ---- running (bts_run.c) */

/* The driver, the DS layout of this CPU and mode (64-bit in IA-32e mode
 * or with DTES64, else 32-bit: SDM Vol. 3B §17.4.9.1), BTS available, no
 * DS area installed, and a clean buffer (the group's one memory block);
 * else SKIP or FAIL and 0. */
int bts_begin(struct tcase *t, struct bts_env *v);
/* Installs the DS area with a BTS buffer of k records, threshold at
 * record thresh (index at the base). */
int bts_install(struct bts_env *v, unsigned k, unsigned thresh);
/* The BTS index the DS area holds (field 1, §17.4.9), as the tests read
 * it: from memory. */
uint64_t bts_index(const struct bts_env *v);
/* A taken branch as the trace reports it: a near branch that transferred
 * control (the benchmarks make no far transfer).  ctx: the struct
 * bts_trace, whose model sink (if any) sees the step first. */
void bts_sink(const struct insn_event *e, void *ctx);
/* Runs bench n at cpl with BTS on (flags: BTINT, BTS_OFF_*), the taken
 * branches into *tr.  IA32_DEBUGCTL must read TR, BTS and the flags on
 * top of its other bits while on, and those bits alone after.  Returns 1
 * when it ran. */
int bts_run(struct bts_env *v, const char *bench, uint64_t n, int cpl,
	    uint64_t flags, struct bts_trace *tr);
/* BTS off, no DS area, the driver as init leaves it. */
void bts_end(struct bts_env *v);

/* backend=hw and emulated: the reference model's BTS records of bench n
 * at cpl with flags, the benchmark alone, logged beside the run's
 * (run<N>_model_bts_index, run<N>_model_record0_from/_to:
 * bts_predict.c); nothing on the model.  bts_run() calls it. */
void bts_predict(struct bts_env *v, const char *bench, uint64_t n, int cpl,
		 uint64_t flags);

/* ---- the log (bts_log.c) */

/* "run<N>_<name>": keys stay unique when a test runs several times. */
const char *bts_key(const struct bts_env *v, const char *name);
/* Records 0, 1 and the last one before the index after a run (docs/
 * pebs.md "Records in the log"); where the buffer wrapped, the last
 * ones since the wrap.  bts_run() calls it. */
void bts_log_records(const struct bts_env *v);

/* ---- the records the SDM asks for, and the checks (bts_check.c) */

/* The trace's branches that make records under flags, into out. */
unsigned bts_expected(const struct bts_trace *tr, uint64_t flags,
		      struct bts_branch *out);
/* Is record r the trace's branch b: the same source and target? */
int bts_same(const struct bts_record *r, const struct bts_branch *b);
/* Under the model: records [0, n) are exactly want[0, nwant), flags 0
 * (the model does not model prediction).  On hardware: want appears in
 * order as a subsequence of the records (the harness's own code adds
 * records around it), flags not checked. */
void bts_check_records(struct tcase *t, const char *what,
		       const struct bts_record *r, unsigned n,
		       const struct bts_branch *want, unsigned nwant);
/* Records [first, first + count) still hold the fill bts_begin gave
 * them: nothing was written there (past the maximum: the guard). */
void bts_check_untouched(struct tcase *t, const struct bts_env *v,
			 unsigned first, unsigned count);
/* Nothing written past a maximum of k records. */
void bts_check_guard(struct tcase *t, const struct bts_env *v, unsigned k);

#endif
