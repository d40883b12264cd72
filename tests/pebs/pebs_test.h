/* pebs_test: the PEBS facts the pebs/ tests check against, written out
 * from the SDM (Vol. 3B, order no. 253669-060US: Table 18-23 "PEBS
 * Record Format for Intel Core i7 Processor Family" and the Core 2
 * record before it, Table 18-44 (Haswell), Table 18-55 (Skylake); the
 * adaptive PEBS record groups of later editions) rather than taken from
 * pmu/perfmon/pebs/regs.c, so a wrong offset there fails here; and the steps
 * every record test shares: build a run, check every field of every
 * record against the trace. */
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

static inline int sdm_pebs_offset(unsigned fmt, unsigned f)
{
	static const int first_fmt[S_NR] = {
		[S_STATUS] = 1, [S_DLA] = 1, [S_DSE] = 1, [S_LAT] = 1,
		[S_EIP] = 2, [S_TSX] = 2, [S_TSC] = 3,
	};

	if (fmt > 3 || (int)fmt < first_fmt[f])
		return -1;
	return (int)f * 8;	/* the fields follow each other in 8 bytes */
}

static inline unsigned sdm_pebs_size(unsigned fmt)
{
	static const unsigned size[4] = { 0x90, 0xb0, 0xc0, 0xc8 };

	return fmt < 4 ? size[fmt] : 0;
}

/* The encoding number of the register a formats 0-3 field holds:
 * RAX 0, RCX 1, RDX 2, RBX 3, RSP 4, RBP 5, RSI 6, RDI 7, R8-R15. */
static inline int sdm_pebs_reg(unsigned f)
{
	static const int reg[S_R8] = { -1, -1, 0, 3, 1, 2, 6, 7, 5, 4 };

	if (f < S_R8)
		return reg[f];
	return f < S_STATUS ? (int)(f - S_R8) + 8 : -1;
}

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

/* IA32_PERF_CAPABILITIES.PEBS_REC_FMT, bits 11:8, and PEBS_TRAP, bit 6
 * (SDM Vol. 3B §18.6.2.4 / §18.8.1.1, the IA32_PERF_CAPABILITIES
 * figure). */
static inline unsigned sdm_pebs_format(uint64_t perf_caps)
{
	return (unsigned)(perf_caps >> 8) & 0xfu;
}

static inline int sdm_pebs_trap(uint64_t perf_caps)
{
	return !!(perf_caps & (1ull << 6));
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

static inline struct sdm_adaptive sdm_adaptive_of(const struct pebs_run *r)
{
	struct sdm_adaptive a = { .size = SDM_BASIC };
	int adaptive = 0;

	for (unsigned k = 0; k < r->n_ctr; k++)
		adaptive |= r->ctr[k].adaptive;
	a.cfg = adaptive ? r->cfg : 0;
	if (a.cfg & 1) {
		a.meminfo = a.size;
		a.size += SDM_MEMINFO;
	}
	if (a.cfg & 2) {
		a.gprs = a.size;
		a.size += SDM_GPRS;
	}
	if (a.cfg & 4) {
		a.xmms = a.size;
		a.size += SDM_XMMS;
	}
	if (a.cfg & 8) {
		a.lbrs = a.size;
		a.n_lbr = (unsigned)(a.cfg >> 24 & 0xff) + 1;
		a.size += SDM_LBR * a.n_lbr;
	}
	return a;
}

/* The events the tests sample, per record format (and for format 1 per
 * microarchitecture): the precise events of each one's table in the SDM
 * (pmu/perfmon/pebs/events.c cites them too). */
struct sdm_event {
	uint8_t event, umask;
	uint32_t sem;
	int data;		/* 0 none, 1 load, 2 store address */
};

static inline int sdm_inst_event(unsigned fmt, struct sdm_event *ev)
{
	*ev = (struct sdm_event){ 0xc0, fmt >= 1 && fmt <= 3 ? 0x01 : 0x00,
				  SEM_BIT(SEM_INSTRUCTIONS), 0 };
	return 1;
}

static inline int sdm_branch_event(unsigned fmt, struct sdm_event *ev)
{
	if (fmt == 0)
		return 0;
	/* before format 4 the precise all-branches event is C4H/04H
	 * (BR_INST_RETIRED.ALL_BRANCHES(_PEBS)); far transfers are among
	 * the branches it counts */
	*ev = (struct sdm_event){ 0xc4, fmt <= 3 ? 0x04 : 0x00,
				  SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR),
				  0 };
	return 1;
}

/* Sandy Bridge or Ivy Bridge by the CPUID signature (SDM Vol. 4, order
 * no. 335592-060US, Table 2-1: 06_2AH, 06_2DH Sandy Bridge; 06_3AH,
 * 06_3EH Ivy Bridge): format 1 like Nehalem, but precise events of their
 * own (Vol. 3B §18.9.4.2). */
static inline int sdm_sandy_bridge(void)
{
	const struct cpu_info *ci = cpu_info();
	unsigned m = ci->sig.model;

	return ci->sig.family == 6 &&
	       (m == 0x2a || m == 0x2d || m == 0x3a || m == 0x3e);
}

/* Rows where C0H/01H is INST_RETIRED.PREC_DIST, precise distribution:
 * Sandy Bridge/Ivy Bridge (format 1, SDM Vol. 3B §18.9.4.4), Haswell/
 * Broadwell (format 2) and Skylake (format 3; the capability rows have
 * no Goldmont), whose PEBS sections keep PDIR.  PEBS for it must use
 * IA32_PMC1, and its record is for the overflowing instruction
 * (pebs_expect.h). */
static inline int sdm_pdir_row(unsigned fmt)
{
	return (fmt == 1 && sdm_sandy_bridge()) || fmt == 2 || fmt == 3;
}

/* What sdm_inst_ctr() put on the counter. */
enum sdm_inst_kind { SDM_INST_PMC0, SDM_INST_PDIR, SDM_INST_BRANCHES };

/* The instruction event on the counter it may use: PMC1 with the PDIR
 * rule on sdm_pdir_row(), else PMC0.  The 32-bit DS format has PEBS on
 * PMC0 only (one counter-reset slot, §17.4.9), where PREC_DIST may not
 * go: there a PDIR row samples all branches on PMC0 instead. */
static inline enum sdm_inst_kind sdm_inst_ctr(unsigned fmt,
					      struct pebs_ctr *c,
					      uint64_t period, int usr, int os)
{
	struct sdm_event ev;
	enum sdm_inst_kind k = !sdm_pdir_row(fmt) ? SDM_INST_PMC0 :
			       pebs_ds32() ? SDM_INST_BRANCHES : SDM_INST_PDIR;

	if (k == SDM_INST_BRANCHES)
		sdm_branch_event(fmt, &ev);
	else
		sdm_inst_event(fmt, &ev);
	*c = (struct pebs_ctr){ .bit = k == SDM_INST_PDIR ? 1 : 0,
		.sem = ev.sem,
		.sel = ev.event | (uint64_t)ev.umask << 8 |
		       (usr ? 1ull << 16 : 0) | (os ? 1ull << 17 : 0),
		.period = period, .reload = period,
		.pdir = k == SDM_INST_PDIR };
	return k;
}

/* A precise event every PEBS counter of formats 0-3 takes: instructions,
 * except on the PDIR rows (PMC1 only there): all branches. */
static inline void sdm_any_ctr_event(unsigned fmt, struct sdm_event *ev)
{
	if (!sdm_pdir_row(fmt) || !sdm_branch_event(fmt, ev))
		sdm_inst_event(fmt, ev);
}

static inline int sdm_mem_event(unsigned fmt, int store,
				struct sdm_event *ev)
{
	if (fmt == 0)
		return 0;
	/* Nehalem/Westmere MEM_INST_RETIRED.LOADS/STORES 0BH (§18.8.1.1);
	 * Sandy Bridge MEM_UOPS_RETIRED.ALL_LOADS/STORES D0H, whose data
	 * address is written for load latency and precise store only
	 * (§18.9.4.1) */
	if (fmt == 1 && sdm_sandy_bridge())
		*ev = (struct sdm_event){ 0xd0, store ? 0x82 : 0x81,
			SEM_BIT(store ? SEM_STORES : SEM_LOADS), 0 };
	else if (fmt == 1)
		*ev = (struct sdm_event){ 0x0b, store ? 0x02 : 0x01,
			SEM_BIT(store ? SEM_STORES : SEM_LOADS), 0 };
	else
		*ev = (struct sdm_event){ 0xd0, store ? 0x82 : 0x81,
			SEM_BIT(store ? SEM_STORES : SEM_LOADS),
			store ? 2 : 1 };
	return 1;
}

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

/* Checks the number of records and the index, then every field of every
 * record against the trace (the model: exactly; hardware: count and IP
 * range, the tolerances said in the log). */
void pebs_check_records(struct tcase *t, const struct pebs_run *r,
			const struct pebs_want *w);

#endif
