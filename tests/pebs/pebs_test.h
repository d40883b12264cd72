/* pebs_test: the PEBS facts the pebs/ tests check against, written out
 * from the SDM (Vol. 3B, order no. 253669-060US: Table 18-23 "PEBS
 * Record Format for Intel Core i7 Processor Family" and the Core 2
 * record before it, Table 18-44 (Haswell), Table 18-55 (Skylake); the
 * adaptive PEBS record groups of later editions) rather than taken from
 * pmu/perfmon/pebs/regs.c, so a wrong offset there fails here; and the steps
 * every record test shares: build a run, check every field of every
 * record against the trace.  The layouts and events that take code are
 * pebs_sdm.c's. */
#ifndef TESTS_PEBS_PEBS_TEST_H
#define TESTS_PEBS_PEBS_TEST_H

#include "pebs_run.h"
#include "../../harness/pmu_run.h"
#include "../../pmu/backend.h"
#include "../../pmu/perfmon/caps.h"
#include "../../pmu/perfmon/driver.h"
#include "../../pmu/perfmon/regs.h"
#include "../../pmu/perfmon/ds/driver.h"
#include "../../pmu/perfmon/pebs/driver.h"
#include "../../pmu/perfmon/ds/regs.h"
#include "../../pmu/perfmon/pebs/events.h"
#include "../../pmu/perfmon/pebs/regs.h"
#include "../../pmu/sem.h"
#include "../../pmu/detect.h"

/* Formats 0-3, byte offsets (-1: absent) by field. */
enum sdm_pebs { S_FLAGS, S_IP, S_AX, S_BX, S_CX, S_DX, S_SI, S_DI, S_BP,
		S_SP, S_R8, S_STATUS = S_R8 + 8, S_DLA, S_DSE, S_LAT, S_EIP,
		S_TSX, S_TSC, S_NR };
/* Field f's byte offset in a record of format fmt (0-3), -1 when the
 * format has none. */
int sdm_pebs_offset(unsigned fmt, unsigned f);
/* Bytes of a record of format fmt (0-3), 0 for another format. */
unsigned sdm_pebs_size(unsigned fmt);

/* The 32-bit DS format's record (SDM Vol. 3B §17.4.9, the 40-byte PEBS
 * record figure): EFLAGS, linear IP, EAX, EBX, ECX, EDX, ESI, EDI, EBP,
 * ESP, 4 bytes each - the order of S_FLAGS .. S_SP.  An i386 run on a
 * CPU without DTES64 writes it whatever the record format (pmu/perfmon/ds/regs.h
 * ds_format64()), PEBS on PMC0 only (one counter-reset slot). */
#define SDM_PEBS32_SIZE 40u
static inline int sdm_pebs32_offset(unsigned f)
{
	return f < S_R8 ? (int)f * 4 : -1;
}

/* IA32_PERF_CAPABILITIES.PEBS_REC_FMT, bits 11:8 (SDM Vol. 3B §18.6.2.4
 * / §18.8.1.1, the IA32_PERF_CAPABILITIES figure). */
static inline unsigned sdm_pebs_format(uint64_t perf_caps)
{
	return (unsigned)(perf_caps >> 8) & 0xfu;
}

/* The run uses the 32-bit DS format: outside IA-32e mode on a CPU
 * without CPUID.01H:ECX.DTES64 (bit 2) (SDM Vol. 3B §17.4.9.1). */
static inline int pebs_ds32(void)
{
	return sizeof(void *) == 4 && !(cpu_info()->f1_ecx & (1u << 2));
}

/* Adaptive groups, in record order, and their sizes. */
#define SDM_BASIC 32u
#define SDM_MEMINFO 32u
#define SDM_GPRS 144u
#define SDM_XMMS 256u
#define SDM_LBR 24u

/* Bytes of a record with no adaptive group (MSR_PEBS_DATA_CFG 0): the
 * 32-bit DS format's 40, formats 0-3 by their table, 4-5 the basic
 * group alone. */
static inline unsigned sdm_pebs_plain_size(unsigned fmt)
{
	return pebs_ds32() ? SDM_PEBS32_SIZE :
	       fmt >= 4 ? SDM_BASIC : sdm_pebs_size(fmt);
}

/* The adaptive record's size and layout for r (the SDM's group order):
 * the groups DATA_CFG selects when a counter's Adaptive_Record bit is
 * set, the basic group alone otherwise. */
struct sdm_adaptive {
	unsigned meminfo, gprs, xmms, lbrs, n_lbr, size;
	uint64_t cfg;
};
struct sdm_adaptive sdm_adaptive_of(const struct pebs_run *r);

/* The events the tests sample, per record format (and for format 1 per
 * microarchitecture): the precise events of each one's table in the SDM
 * (pmu/perfmon/pebs/events.c cites them too). */
struct sdm_event {
	uint8_t event, umask;
	uint32_t sem;
	int data;		/* 0 none, 1 load, 2 store address */
};

/* The precise instruction event of format fmt; 1. */
int sdm_inst_event(unsigned fmt, struct sdm_event *ev);
/* The precise all-branches event of format fmt; 0 when it has none
 * (format 0). */
int sdm_branch_event(unsigned fmt, struct sdm_event *ev);
/* The precise load (store) event of format fmt, with the data address
 * its record holds; 0 when it has none (format 0). */
int sdm_mem_event(unsigned fmt, int store, struct sdm_event *ev);
/* Sandy Bridge or Ivy Bridge by the CPUID signature: format 1 like
 * Nehalem, but precise events of their own. */
int sdm_sandy_bridge(void);
/* Does C0H/01H mean INST_RETIRED.PREC_DIST, precise distribution, with
 * format fmt on this CPU (PMC1 only; the record for the overflowing
 * instruction)? */
int sdm_pdir_row(unsigned fmt);
/* Is this CPU a Tremont (06_86H, 06_96H, 06_9CH)? */
int sdm_tremont(void);
/* Is PEBS on IA32_PMC0 PDist or reduced-skid on this CPU, its record for
 * the instruction that made the counter overflow, whatever the precise
 * event (Sapphire Rapids, Emerald Rapids, Tremont: pebs_sdm.c says where
 * from)? */
int sdm_pdist_pmc0(void);
/* Is PEBS on IA32_FIXED_CTR0 precise distribution (or reduced skid) on
 * this CPU (Ice Lake, Sapphire Rapids, Emerald Rapids, Tremont:
 * pebs_sdm.c)? */
int sdm_pdir_fixed0(void);

/* What sdm_inst_ctr() put on the counter. */
enum sdm_inst_kind { SDM_INST_PMC0, SDM_INST_PDIR, SDM_INST_BRANCHES };

/* The instruction event on the counter it may use: PMC1 with the PDIR
 * rule on sdm_pdir_row(), else PMC0.  The 32-bit DS format has PEBS on
 * PMC0 only (one counter-reset slot, §17.4.9), where PREC_DIST may not
 * go: there a PDIR row samples all branches on PMC0 instead. */
enum sdm_inst_kind sdm_inst_ctr(unsigned fmt, struct pebs_ctr *c,
				uint64_t period, int usr, int os);

static inline uint64_t sdm_gp_sel(const struct sdm_event *ev, int usr,
				  int os)
{
	return ev->event | (uint64_t)ev->umask << 8 |
	       (usr ? 1ull << 16 : 0) | (os ? 1ull << 17 : 0);
}

/* The PMU, format and trap bit; NULL (SKIP) without PEBS.  pebs_ready
 * logs the format and trap bit (pebs_log_caps); a test that stands in
 * for the PMU (perfmon_caps_stand_in) calls pebs_ready_quiet and then
 * pebs_log_caps after the stand-in, so that the log holds the values the
 * run used, not the CPU's. */
const struct perfmon_caps *pebs_ready(struct tcase *t, unsigned *fmt,
				      int *trap);
const struct perfmon_caps *pebs_ready_quiet(struct tcase *t, unsigned *fmt,
					    int *trap);
/* pebs_format, pebs_trap and pebs_caps (where they come from: "cpuid",
 * "model:<row>" or a stand-in's "model:<what>") of the capabilities in
 * force now. */
void pebs_log_caps(struct tcase *t);

/* What a check of records needs to know beyond the run. */
struct pebs_want {
	unsigned fmt;
	int trap;
	int data;		/* 0 none, 1 load, 2 store: the sampled
				 * event's data address */
	uint64_t status_extra;	/* bits GLOBAL_STATUS also holds */
};

/* PEBS's hardware tolerance (docs/pebs.md "On hardware"), for
 * backend=hw only: the records in r's buffer of `size` bytes each number
 * at least `expected` less expected/8 + 2 and at most the capacity (a
 * CPL 0 run's driver code may add records), and each
 * eventing IP (formats 2 on, 64-bit DS format) lies in the benchmark, in
 * a CPL 3 run also the ring-3 trampoline, in a CPL 0 run the harness's
 * code (pebs_tolerance.c). */
void pebs_check_hw(struct tcase *t, const struct pebs_run *r, unsigned fmt,
		   unsigned size, unsigned expected);
/* Checks the number of records and the index, then every field of every
 * record against the trace (the model and backend=emulated: exactly;
 * hardware: pebs_check_hw()). */
void pebs_check_records(struct tcase *t, const struct pebs_run *r,
			const struct pebs_want *w);

#endif
