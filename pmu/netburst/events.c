/* pmu/netburst/events.c: the NetBurst (Pentium 4 / Xeon) event table
 * (events.h) and what the model counts for each event-mask bit.
 *
 * Sources (SDM Vol. 3B, order no. 253669-060US, Chapter 19; the tables are
 * cited by title because their numbers change between editions):
 *   [NR] "Performance Monitoring Events For Intel NetBurst
 *        Microarchitecture for Non-Retirement Counting";
 *   [AR] "Performance Monitoring Events For Intel NetBurst
 *        Microarchitecture for At-Retirement Counting";
 *   [MS] the NetBurst "Model-Specific Performance Monitoring Events (For
 *        Model Encoding 3, 4 or 6)" table (instr_completed);
 *   [L]  Linux perf_event_p4.h / p4.c (event select, CCCR ESCR select,
 *        ESCR pair and event-mask bit of each binding).
 * Every row below agrees with [L] on the event select, the CCCR ESCR
 * select and the ESCR MSRs, except where a row says otherwise.  The legal
 * counters of a row are those Table 18-63 gives the ESCR (nb_escr_for()),
 * not the narrower lists Linux uses (Linux avoids counter 1, erratum
 * "CCCR1 ENABLE", and uses one counter of each BPU-block ESCR).
 *
 * Row by row (event select / CCCR select / ESCRs; source):
 *   tc_deliver_mode          01H / 1 / TC_ESCR0/1          [NR][L]
 *       IB (bit 7) is in [NR]; Linux omits it.
 *   bpu_fetch_request        03H / 0 / BPU_ESCR0/1         [NR][L]
 *   itlb_reference           18H / 3 / ITLB_ESCR0/1        [NR][L]
 *       bit 2 is HIT_UC in [NR] ("HIT_UK" in Linux).
 *   memory_cancel            02H / 5 / DAC_ESCR0/1         [NR][L]
 *   memory_complete          08H / 2 / SAAT_ESCR0/1        [NR][L]
 *   load_port_replay         04H / 2 / SAAT_ESCR0/1        [NR][L]
 *   store_port_replay        05H / 2 / SAAT_ESCR0/1        [NR][L]
 *   mob_load_replay          03H / 2 / MOB_ESCR0/1         [NR][L]
 *   page_walk_type           01H / 4 / PMH_ESCR0/1         [NR][L]
 *   bsq_cache_reference      0CH / 7 / BSU_ESCR0/1         [NR][L]
 *   ioq_allocation           03H / 6 / FSB_ESCR0/1         [NR][L]
 *       bits 4:0 are one 5-bit bus-request-type field in [NR] (Linux
 *       names bit 0 DEFAULT and leaves out 4:1); named TYPE_BIT0-4 here.
 *   ioq_active_entries       1AH / 6 / FSB_ESCR1 only      [NR][L]
 *   fsb_data_activity        17H / 6 / FSB_ESCR0/1         [NR][L]
 *   bsq_allocation           05H / 7 / BSU_ESCR0 only      [NR][L]
 *   bsq_active_entries       06H / 7 / BSU_ESCR1 only      [NR][L]
 *       (Linux: "no ESCR name in docs, it's guessed")
 *   sse_input_assist         34H / 1 / FIRM_ESCR0/1        [NR][L]
 *   packed_sp_uop            08H / 1 / FIRM_ESCR0/1        [NR][L]
 *   packed_dp_uop            0CH / 1 / FIRM_ESCR0/1        [NR][L]
 *   scalar_sp_uop            0AH / 1 / FIRM_ESCR0/1        [NR][L]
 *   scalar_dp_uop            0EH / 1 / FIRM_ESCR0/1        [NR][L]
 *   64bit_mmx_uop            02H / 1 / FIRM_ESCR0/1        [NR][L]
 *   128bit_mmx_uop           1AH / 1 / FIRM_ESCR0/1        [NR][L]
 *   x87_fp_uop               04H / 1 / FIRM_ESCR0/1        [NR][L]
 *   x87_simd_moves_uop       2EH / 1 / FIRM_ESCR0/1        [NR] (not in
 *       Linux)
 *   tc_misc                  06H / 1 / TC_ESCR0/1          [NR][L]
 *   global_power_events      13H / 6 / FSB_ESCR0/1         [NR][L]
 *   tc_ms_xfer               05H / 0 / MS_ESCR0/1          [NR][L]
 *   uop_queue_writes         09H / 0 / MS_ESCR0/1          [NR][L]
 *   retired_mispred_branch_type 05H / 2 / TBPU_ESCR0/1     [NR][L]
 *       (Linux binds TBPU_ESCR0 for both threads; [NR] lists both)
 *   retired_branch_type      04H / 2 / TBPU_ESCR0/1        [NR][L]
 *   resource_stall           01H / 1 / ALF_ESCR0/1         [NR][L]
 *   wc_buffer                05H / 5 / DAC_ESCR0/1         [NR][L]
 *   front_end_event          08H / 5 / CRU_ESCR2/3         [AR][L]
 *   execution_event          0CH / 5 / CRU_ESCR2/3         [AR][L]
 *   replay_event             09H / 5 / CRU_ESCR2/3         [AR][L]
 *   instr_retired            02H / 4 / CRU_ESCR0/1         [AR][L]
 *   uops_retired             01H / 4 / CRU_ESCR0/1         [AR][L]
 *   uop_type                 02H / 2 / RAT_ESCR0/1         [AR][L]
 *   branch_retired           06H / 5 / CRU_ESCR2/3         [AR][L]
 *   mispred_branch_retired   03H / 4 / CRU_ESCR0/1         [AR][L]
 *   x87_assist               03H / 5 / CRU_ESCR2/3         [AR][L]
 *   machine_clear            02H / 5 / CRU_ESCR2/3         [AR][L]
 *       bits CLEAR 0, MOCLEAR 2, SMCLEAR 6 as [AR] lists them.  Public
 *       drivers disagree on the last two (Linux MOCLEAR 1, SMCLEAR 2;
 *       perfctr 2, 3; oprofile 6, 7): the bits are not modelled, so
 *       only the driver's legality check depends on them.
 *   instr_completed          07H / 4 / CRU_ESCR0/1         [MS][L],
 *       models 3, 4 and 6 only.
 * Thread-independent (TI) events (events.h): the SDM's per-event TS/TI
 * table (Vol. 3B chapter 19, Table 19-34 in order no. 253669-060US; Table
 * A-15 in editions up to 2008, "Table A-15 gives logical processor
 * specific information (TS or TI) for each of the events described in
 * Tables A-9 and A-10", §18.16.4) marks thirteen: the twelve [L] marks
 * `.shared` ("event is shared across threads", p4_event_bind_map):
 * tc_deliver_mode, page_walk_type, fsb_data_activity, wc_buffer,
 * sse_input_assist and the packed/scalar SP/DP, 64/128-bit MMX and
 * x87_fp_uop events; and x87_SIMD_moves_uop, which [L] has no row for.
 * Every other row is TS.  The model counts no TI
 * event (nb_emask_modelled()): their count depends on the other logical
 * processor's CPL, which the trace of one processor does not have.
 * Left out: b2b_cycles (16H), bnr (08H), snoop (06H) and response (04H).
 * [NR] gives them the FSB_ESCR0/1 with CCCR select 03H, but select 03H
 * names ITLB_ESCR0/1 in the BPU block (Table 18-63) and FSB is select 06H:
 * as documented they cannot be programmed, and their event-mask bits are
 * not documented by name.
 *
 * What the model counts (pmu/sem.h; "NB_ZERO" = the model's core never has
 * it, so exactly 0):
 *   instr_retired NBOGUSNTAG = retired instructions: nothing in the model
 *       tags uops, so every retired instruction is untagged; NBOGUSTAG = 0
 *       (no tagging); BOGUSNTAG, BOGUSTAG = 0 (the model executes no wrong
 *       path, so nothing bogus retires);
 *   uops_retired NBOGUS = retired instructions: the model's core decodes
 *       each instruction into exactly one uop (hardware counts at least as
 *       many uops as instructions: string, complex and microcoded
 *       instructions are several); BOGUS = 0;
 *   mispred_branch_retired NBOGUS = 0: the model's branch prediction is
 *       perfect;
 *   branch_retired MMNP = near branches minus taken ones (SEM_TAKEN counts
 *       only near branches, a subset of SEM_BRANCHES, so the difference is
 *       never negative), MMTP = taken near branches, MMNM = MMTM = 0
 *       (perfect prediction);
 *   retired_branch_type CONDITIONAL = Jcc (and LOOP/JRCXZ), CALL = near
 *       calls ([NR]: "direct or indirect calls"), RETURN = near returns;
 *       INDIRECT ("returns, indirect calls, or indirect jumps") is not
 *       modelled: the trace does not tell indirect from direct;
 *   retired_mispred_branch_type: 0 for the same three, INDIRECT not
 *       modelled;
 *   global_power_events RUNNING = the model clock (the model's processor
 *       is never stopped while it runs traced code).
 * Everything else - trace cache, TLBs, caches, the bus, replays, machine
 * clears, x87/MMX/SSE uops, uop tagging - is not in the trace: those bits
 * are NB_NOT_MODELLED and count nothing (events.h).
 */
#include "events.h"
#include "regs.h"
#include "../sem.h"
#include "../../lib/string.h"

/* Counters on the ESCR0 / ESCR1 side of each block (Table 18-63). */
#define BPU_LO ((1u << 0) | (1u << 1))
#define BPU_HI ((1u << 2) | (1u << 3))
#define MS_LO ((1u << 4) | (1u << 5))
#define MS_HI ((1u << 6) | (1u << 7))
#define FLAME_LO ((1u << 8) | (1u << 9))
#define FLAME_HI ((1u << 10) | (1u << 11))
#define IQ_LO ((1u << 12) | (1u << 13) | (1u << 16))
#define IQ_HI ((1u << 14) | (1u << 15) | (1u << 17))

/* ESCR pairs: the CCCR ESCR select, the two MSRs and their counters. */
#define PAIR(sel, e0, e1, c0, c1) \
	.escr_sel = sel, .escr = { e0, e1 }, .ctrs = { c0, c1 }
#define ON_BPU PAIR(0, 0x3b2, 0x3b3, BPU_LO, BPU_HI)
#define ON_MOB PAIR(2, 0x3aa, 0x3ab, BPU_LO, BPU_HI)
#define ON_ITLB PAIR(3, 0x3b6, 0x3b7, BPU_LO, BPU_HI)
#define ON_PMH PAIR(4, 0x3ac, 0x3ad, BPU_LO, BPU_HI)
#define ON_FSB PAIR(6, NB_MSR_FSB_ESCR0, NB_MSR_FSB_ESCR1, BPU_LO, BPU_HI)
#define ON_FSB1_ONLY PAIR(6, 0, NB_MSR_FSB_ESCR1, 0, BPU_HI)
#define ON_BSU PAIR(7, 0x3a0, 0x3a1, BPU_LO, BPU_HI)
#define ON_BSU0_ONLY PAIR(7, 0x3a0, 0, BPU_LO, 0)
#define ON_BSU1_ONLY PAIR(7, 0, 0x3a1, 0, BPU_HI)
#define ON_MS PAIR(0, 0x3c0, 0x3c1, MS_LO, MS_HI)
#define ON_TC PAIR(1, 0x3c4, 0x3c5, MS_LO, MS_HI)
#define ON_TBPU PAIR(2, NB_MSR_TBPU_ESCR0, NB_MSR_TBPU_ESCR1, MS_LO, MS_HI)
#define ON_FIRM PAIR(1, 0x3a4, 0x3a5, FLAME_LO, FLAME_HI)
#define ON_SAAT PAIR(2, 0x3ae, 0x3af, FLAME_LO, FLAME_HI)
#define ON_DAC PAIR(5, 0x3a8, 0x3a9, FLAME_LO, FLAME_HI)
#define ON_ALF PAIR(1, 0x3ca, 0x3cb, IQ_LO, IQ_HI)
#define ON_RAT PAIR(2, 0x3bc, 0x3bd, IQ_LO, IQ_HI)
#define ON_CRU01 PAIR(4, NB_MSR_CRU_ESCR0, NB_MSR_CRU_ESCR1, IQ_LO, IQ_HI)
#define ON_CRU23 PAIR(5, NB_MSR_CRU_ESCR2, NB_MSR_CRU_ESCR3, IQ_LO, IQ_HI)

/* Event-mask bits: not modelled, a sem count (minus another), zero. */
#define NM(nm, b) { .name = nm, .bit = b, .how = NB_NOT_MODELLED }
#define SEM(nm, b, s) \
	{ .name = nm, .bit = b, .how = NB_SEM, .sem = SEM_BIT(s) }
#define SEM_LESS(nm, b, s, m) \
	{ .name = nm, .bit = b, .how = NB_SEM, .sem = SEM_BIT(s), \
	  .sem_minus = SEM_BIT(m) }
#define ZERO(nm, b) { .name = nm, .bit = b, .how = NB_ZERO }
#define BITS(...) \
	.bits = { __VA_ARGS__ }, \
	.n_bits = sizeof((struct nb_emask_bit[]){ __VA_ARGS__ }) / \
		  sizeof(struct nb_emask_bit)

/* The SSE/MMX/x87 uop events' one bit (15, ALL). */
#define ALL_UOPS BITS(NM("ALL", 15))

/* A thread-independent event (events.h, the list above). */
#define TI .thread_independent = 1

/* Why a bit is not modelled. */
#define TC "the trace cache and the front end are not in the trace"
#define TLB "TLBs and page walks are not in the trace"
#define MEM "memory-pipeline replays, splits and cancels are not in the trace"
#define BUS "the bus and the caches are not in the trace"
#define FP "the classifier does not decode x87/MMX/SSE instructions"
#define TAG "uop tagging is not in the trace"
#define CLEAR "machine clears are not in the trace"
#define INDIRECT "the trace does not tell indirect branches from direct ones"
#define STALL "allocator stalls are not in the trace"

const struct nb_event nb_events[] = {
	/* ---- BPU block (counters 0-3) */
	{ .name = "bpu_fetch_request", .select = 0x03, ON_BPU,
	  BITS(NM("TCMISS", 0)), .why_not = TC },
	{ .name = "itlb_reference", .select = 0x18, ON_ITLB,
	  BITS(NM("HIT", 0), NM("MISS", 1), NM("HIT_UC", 2)), .why_not = TLB },
	{ .name = "mob_load_replay", .select = 0x03, ON_MOB,
	  BITS(NM("NO_STA", 1), NM("NO_STD", 3), NM("PARTIAL_DATA", 4),
	       NM("UNALGN_ADDR", 5)), .why_not = MEM },
	{ .name = "page_walk_type", .select = 0x01, ON_PMH,
	  BITS(NM("DTMISS", 0), NM("ITMISS", 1)), .why_not = TLB, TI },
	{ .name = "bsq_cache_reference", .select = 0x0c, ON_BSU,
	  BITS(NM("RD_2ndL_HITS", 0), NM("RD_2ndL_HITE", 1),
	       NM("RD_2ndL_HITM", 2), NM("RD_3rdL_HITS", 3),
	       NM("RD_3rdL_HITE", 4), NM("RD_3rdL_HITM", 5),
	       NM("RD_2ndL_MISS", 8), NM("RD_3rdL_MISS", 9),
	       NM("WR_2ndL_MISS", 10)), .why_not = BUS },
	{ .name = "ioq_allocation", .select = 0x03, ON_FSB,
	  BITS(NM("TYPE_BIT0", 0), NM("TYPE_BIT1", 1), NM("TYPE_BIT2", 2),
	       NM("TYPE_BIT3", 3), NM("TYPE_BIT4", 4), NM("ALL_READ", 5),
	       NM("ALL_WRITE", 6), NM("MEM_UC", 7), NM("MEM_WC", 8),
	       NM("MEM_WT", 9), NM("MEM_WP", 10), NM("MEM_WB", 11),
	       NM("OWN", 13), NM("OTHER", 14), NM("PREFETCH", 15)),
	  .why_not = BUS },
	{ .name = "ioq_active_entries", .select = 0x1a, ON_FSB1_ONLY,
	  BITS(NM("TYPE_BIT0", 0), NM("TYPE_BIT1", 1), NM("TYPE_BIT2", 2),
	       NM("TYPE_BIT3", 3), NM("TYPE_BIT4", 4), NM("ALL_READ", 5),
	       NM("ALL_WRITE", 6), NM("MEM_UC", 7), NM("MEM_WC", 8),
	       NM("MEM_WT", 9), NM("MEM_WP", 10), NM("MEM_WB", 11),
	       NM("OWN", 13), NM("OTHER", 14), NM("PREFETCH", 15)),
	  .why_not = BUS },
	{ .name = "fsb_data_activity", .select = 0x17, ON_FSB,
	  BITS(NM("DRDY_DRV", 0), NM("DRDY_OWN", 1), NM("DRDY_OTHER", 2),
	       NM("DBSY_DRV", 3), NM("DBSY_OWN", 4), NM("DBSY_OTHER", 5)),
	  .why_not = BUS, TI },
	{ .name = "bsq_allocation", .select = 0x05, ON_BSU0_ONLY,
	  BITS(NM("REQ_TYPE0", 0), NM("REQ_TYPE1", 1), NM("REQ_LEN0", 2),
	       NM("REQ_LEN1", 3), NM("REQ_IO_TYPE", 5),
	       NM("REQ_LOCK_TYPE", 6), NM("REQ_CACHE_TYPE", 7),
	       NM("REQ_SPLIT_TYPE", 8), NM("REQ_DEM_TYPE", 9),
	       NM("REQ_ORD_TYPE", 10), NM("MEM_TYPE0", 11),
	       NM("MEM_TYPE1", 12), NM("MEM_TYPE2", 13)), .why_not = BUS },
	{ .name = "bsq_active_entries", .select = 0x06, ON_BSU1_ONLY,
	  BITS(NM("REQ_TYPE0", 0), NM("REQ_TYPE1", 1), NM("REQ_LEN0", 2),
	       NM("REQ_LEN1", 3), NM("REQ_IO_TYPE", 5),
	       NM("REQ_LOCK_TYPE", 6), NM("REQ_CACHE_TYPE", 7),
	       NM("REQ_SPLIT_TYPE", 8), NM("REQ_DEM_TYPE", 9),
	       NM("REQ_ORD_TYPE", 10), NM("MEM_TYPE0", 11),
	       NM("MEM_TYPE1", 12), NM("MEM_TYPE2", 13)), .why_not = BUS },
	{ .name = "global_power_events", .select = 0x13, ON_FSB,
	  BITS(SEM("RUNNING", 0, SEM_CLOCKS)) },

	/* ---- MS block (counters 4-7) */
	{ .name = "tc_deliver_mode", .select = 0x01, ON_TC,
	  BITS(NM("DD", 0), NM("DB", 1), NM("DI", 2), NM("BD", 3),
	       NM("BB", 4), NM("BI", 5), NM("ID", 6), NM("IB", 7)),
	  .why_not = TC, TI },
	{ .name = "tc_misc", .select = 0x06, ON_TC,
	  BITS(NM("FLUSH", 4)), .why_not = TC },
	{ .name = "tc_ms_xfer", .select = 0x05, ON_MS,
	  BITS(NM("CISC", 0)), .why_not = TC },
	{ .name = "uop_queue_writes", .select = 0x09, ON_MS,
	  BITS(NM("FROM_TC_BUILD", 0), NM("FROM_TC_DELIVER", 1),
	       NM("FROM_ROM", 2)), .why_not = TC },
	{ .name = "retired_branch_type", .select = 0x04, ON_TBPU,
	  BITS(SEM("CONDITIONAL", 1, SEM_COND), SEM("CALL", 2, SEM_CALLS),
	       SEM("RETURN", 3, SEM_RETURNS), NM("INDIRECT", 4)),
	  .why_not = INDIRECT },
	{ .name = "retired_mispred_branch_type", .select = 0x05, ON_TBPU,
	  BITS(ZERO("CONDITIONAL", 1), ZERO("CALL", 2), ZERO("RETURN", 3),
	       NM("INDIRECT", 4)), .why_not = INDIRECT },

	/* ---- FLAME block (counters 8-11) */
	{ .name = "memory_cancel", .select = 0x02, ON_DAC,
	  BITS(NM("ST_RB_FULL", 2), NM("64K_CONF", 3)), .why_not = MEM },
	{ .name = "wc_buffer", .select = 0x05, ON_DAC,
	  BITS(NM("WCB_EVICTS", 0), NM("WCB_FULL_EVICT", 1)),
	  .why_not = BUS, TI },
	{ .name = "memory_complete", .select = 0x08, ON_SAAT,
	  BITS(NM("LSC", 0), NM("SSC", 1)), .why_not = MEM },
	{ .name = "load_port_replay", .select = 0x04, ON_SAAT,
	  BITS(NM("SPLIT_LD", 1)), .why_not = MEM },
	{ .name = "store_port_replay", .select = 0x05, ON_SAAT,
	  BITS(NM("SPLIT_ST", 1)), .why_not = MEM },
	{ .name = "sse_input_assist", .select = 0x34, ON_FIRM, ALL_UOPS,
	  .why_not = FP, TI },
	{ .name = "packed_sp_uop", .select = 0x08, ON_FIRM, ALL_UOPS,
	  .why_not = FP, TI },
	{ .name = "packed_dp_uop", .select = 0x0c, ON_FIRM, ALL_UOPS,
	  .why_not = FP, TI },
	{ .name = "scalar_sp_uop", .select = 0x0a, ON_FIRM, ALL_UOPS,
	  .why_not = FP, TI },
	{ .name = "scalar_dp_uop", .select = 0x0e, ON_FIRM, ALL_UOPS,
	  .why_not = FP, TI },
	{ .name = "64bit_mmx_uop", .select = 0x02, ON_FIRM, ALL_UOPS,
	  .why_not = FP, TI },
	{ .name = "128bit_mmx_uop", .select = 0x1a, ON_FIRM, ALL_UOPS,
	  .why_not = FP, TI },
	{ .name = "x87_fp_uop", .select = 0x04, ON_FIRM, ALL_UOPS,
	  .why_not = FP, TI },
	{ .name = "x87_simd_moves_uop", .select = 0x2e, ON_FIRM,
	  BITS(NM("ALLP0", 3), NM("ALLP2", 4)), .why_not = FP, TI },

	/* ---- IQ block (counters 12-17) */
	{ .name = "resource_stall", .select = 0x01, ON_ALF,
	  BITS(NM("SBFULL", 5)), .why_not = STALL },
	{ .name = "uop_type", .select = 0x02, ON_RAT, .at_retirement = 1,
	  BITS(NM("TAGLOADS", 1), NM("TAGSTORES", 2)), .why_not = TAG },
	{ .name = "instr_retired", .select = NB_EVENT_INSTR_RETIRED,
	  ON_CRU01, .at_retirement = 1,
	  BITS(SEM("NBOGUSNTAG", 0, SEM_INSTRUCTIONS), ZERO("NBOGUSTAG", 1),
	       ZERO("BOGUSNTAG", 2), ZERO("BOGUSTAG", 3)) },
	{ .name = "uops_retired", .select = 0x01, ON_CRU01,
	  .at_retirement = 1,
	  BITS(SEM("NBOGUS", 0, SEM_INSTRUCTIONS), ZERO("BOGUS", 1)) },
	{ .name = "mispred_branch_retired", .select = 0x03, ON_CRU01,
	  .at_retirement = 1, BITS(ZERO("NBOGUS", 0)) },
	{ .name = "instr_completed", .select = 0x07, ON_CRU01,
	  .models_min = 3,
	  BITS(NM("NBOGUS", 0), NM("BOGUS", 1)),
	  .why_not = "instruction completion is modelled only as retirement "
		     "(instr_retired)" },
	{ .name = "front_end_event", .select = 0x08, ON_CRU23,
	  .at_retirement = 1, BITS(NM("NBOGUS", 0), NM("BOGUS", 1)),
	  .why_not = TAG },
	{ .name = "execution_event", .select = 0x0c, ON_CRU23,
	  .at_retirement = 1,
	  BITS(NM("NBOGUS0", 0), NM("NBOGUS1", 1), NM("NBOGUS2", 2),
	       NM("NBOGUS3", 3), NM("BOGUS0", 4), NM("BOGUS1", 5),
	       NM("BOGUS2", 6), NM("BOGUS3", 7)), .why_not = TAG },
	{ .name = "replay_event", .select = 0x09, ON_CRU23,
	  .at_retirement = 1, BITS(NM("NBOGUS", 0), NM("BOGUS", 1)),
	  .why_not = TAG },
	{ .name = "branch_retired", .select = 0x06, ON_CRU23,
	  .at_retirement = 1,
	  BITS(SEM_LESS("MMNP", 0, SEM_BRANCHES, SEM_TAKEN), ZERO("MMNM", 1),
	       SEM("MMTP", 2, SEM_TAKEN), ZERO("MMTM", 3)) },
	{ .name = "x87_assist", .select = 0x03, ON_CRU23, .at_retirement = 1,
	  BITS(NM("FPSU", 0), NM("FPSO", 1), NM("POAO", 2), NM("POAU", 3),
	       NM("PREA", 4)), .why_not = FP },
	{ .name = "machine_clear", .select = 0x02, ON_CRU23,
	  .at_retirement = 1,
	  BITS(NM("CLEAR", 0), NM("MOCLEAR", 2), NM("SMCLEAR", 6)),
	  .why_not = CLEAR },
};

const unsigned nb_n_events = sizeof(nb_events) / sizeof(nb_events[0]);

const struct nb_event *nb_event_for(uint32_t escr_msr, unsigned select)
{
	if (!escr_msr)
		return 0;
	for (unsigned i = 0; i < nb_n_events; i++) {
		const struct nb_event *ev = &nb_events[i];

		if (ev->select == select &&
		    (ev->escr[0] == escr_msr || ev->escr[1] == escr_msr))
			return ev;
	}
	return 0;
}

const struct nb_event *nb_event_by_name(const char *name)
{
	for (unsigned i = 0; i < nb_n_events; i++)
		if (!str_cmp(nb_events[i].name, name))
			return &nb_events[i];
	return 0;
}

uint32_t nb_emask_legal(const struct nb_event *ev)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < ev->n_bits; i++)
		m |= 1u << ev->bits[i].bit;
	return m;
}

int nb_emask_modelled(const struct nb_event *ev, unsigned emask)
{
	if (!emask || (emask & ~nb_emask_legal(ev)) || ev->thread_independent)
		return 0;
	for (unsigned i = 0; i < ev->n_bits; i++)
		if ((emask & (1u << ev->bits[i].bit)) &&
		    ev->bits[i].how == NB_NOT_MODELLED)
			return 0;
	return 1;
}

/* What one modelled bit adds over the step; the subtrahend is a subset of
 * the minuend (branch_retired MMNP: taken near branches are near
 * branches), the clamp only guards a table mistake. */
static uint64_t bit_step(const struct nb_emask_bit *x,
			 const struct insn_event *e)
{
	uint64_t plus, minus;

	if (x->how != NB_SEM)
		return 0;
	plus = sem_step_mask(x->sem, e);
	minus = sem_step_mask(x->sem_minus, e);
	return plus > minus ? plus - minus : 0;
}

uint64_t nb_event_step(const struct nb_event *ev, unsigned emask,
		       const struct insn_event *e)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < ev->n_bits; i++)
		if (emask & (1u << ev->bits[i].bit))
			n += bit_step(&ev->bits[i], e);
	return n;
}
