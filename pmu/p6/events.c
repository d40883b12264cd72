/* pmu/p6/events.c: the P6 family event table and its lookups (events.h).
 *
 * Codes, names, unit masks and counter restrictions: SDM Vol. 3B (order
 * no. 253669-060US) §19.17 Table 19-37 ("Events That Can Be Counted with
 * the P6 Family Performance-Monitoring Counters"; Table A-18 in older
 * editions) and, for the Pentium M, §19.16 Tables 19-35 (its added events)
 * and 19-36 (the P6 events it redefines), cross-checked against perfctr's
 * P6 event sets.  "All performance event encodings not listed in Table
 * 19-37 are reserved and their use will result in undefined counter
 * results": the driver refuses them and the model counts nothing.
 *
 * Which generation has what (the table's notes): the MMX events and the
 * segment-register renaming events came with the Pentium II (MMX_INSTR_EXEC
 * 0xB0 and MMX_INSTR_RET 0xCE with the Pentium II only), the Streaming SIMD
 * events (0x07, 0x4B, 0xD8, 0xD9) with the Pentium III.  The Pentium M
 * keeps the P6 events (§19.16) with the Pentium II/III additions, redefines
 * the unit masks of 0x24, 0x26, 0x27 and 0x29 (bits 5:4 select hardware-
 * prefetched lines) and 0xD8/0xD9 (SSE and SSE2), reuses 0xCE, and adds
 * Table 19-35's events.  In Table 19-36 the MESI and prefetch cell (Mask
 * bits 3:0 and 5:4) spans the rows of 0x29 L2_LD and the 0x24, 0x26 and
 * 0x27 rows below it: all four take unit mask 3FH (perfctr's, likwid's and
 * libpfm4's rows agree; perfctr's default is 0FH).
 *
 * Unit masks: the MESI events (note 1) take any of bits 3:0, the external
 * bus events (note 2) bit 5 (00H self-generated, 20H any agent); an event
 * the table lists with unit mask 00H takes only 00H.
 *
 * What the trace can see (the sem column, pmu/sem.h):
 *   0xC0 INST_RETIRED       instructions (a REP string instruction once);
 *   0xC4 BR_INST_RETIRED    near branches and far transfers: the SDM counts
 *                           "branch instructions", and far CALL/JMP/RET,
 *                           INT n and IRET are control-transfer (branch)
 *                           instructions too, as the P5 slice counts them
 *                           for its 0x12; no benchmark makes a far transfer
 *                           in its traced range, so the choice is stated,
 *                           not measured;
 *   0xC9 BR_TAKEN_RETIRED   taken near branches and far transfers (always
 *                           taken), for the same reason;
 *   0x43 DATA_MEM_REFS      loads + stores (split accesses, which count
 *                           twice on hardware, do not occur in the
 *                           benchmarks: their accesses are aligned);
 *   0x06 SEGMENT_REG_LOADS  segment-register loads;
 *   0x79 CPU_CLK_UNHALTED   the model clock, one cycle per traced step.
 * Everything else - caches, TLBs, the bus, prediction, speculation
 * (decoded or executed but not retired), micro-ops, stalls, x87/MMX/SSE,
 * interrupts, power states - is not in the trace: sem 0, with the reason.
 */
#include "events.h"
#include "regs.h"
#include "../sem.h"

/* E(code, counters, generations, unit-mask bits, name, sem, why-not) */
#define E(code, ctrs, gens, um, name, ...) \
	{ code, ctrs, gens, um, name, __VA_ARGS__ }
#define NOT_SEEN(why) 0, why
#define SEEN(mask) mask, 0
#define PRE_PM (P6_PPRO | P6_PII | P6_PIII)
#define PII_ON (P6_PII | P6_PIII | P6_PM)
#define PIII_ON (P6_PIII | P6_PM)
#define MESI 0x0f
#define ANY_AGENT 0x20
#define CACHE "cache and TLB behaviour is not in the trace"
#define BUS "external bus activity is not in the trace"
#define FETCH "instruction fetch is not in the trace"
#define STALL "stalls are not in the trace"
#define SPEC "speculative (decoded or executed, not retired) work is " \
	"not in the trace"
#define UOPS "micro-ops are not in the trace"
#define PRED "branch prediction is not in the trace"
#define FP "the classifier does not decode x87 instructions"
#define MMX "the classifier does not decode MMX instructions"
#define SSE "the classifier does not decode SSE instructions"
#define INTR "interrupts are not in the trace (traced runs keep IF=0)"
#define POWER "power and thermal states are not in the trace"
#define RENAME "segment-register renaming is not in the trace"

const struct p6_event p6_events[] = {
	/* Data cache unit (DCU) */
	E(0x43, P6_BOTH, P6_ALL, 0, "DATA_MEM_REFS",
	  SEEN(SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES))),
	E(0x45, P6_BOTH, P6_ALL, 0, "DCU_LINES_IN", NOT_SEEN(CACHE)),
	E(0x46, P6_BOTH, P6_ALL, 0, "DCU_M_LINES_IN", NOT_SEEN(CACHE)),
	E(0x47, P6_BOTH, P6_ALL, 0, "DCU_M_LINES_OUT", NOT_SEEN(CACHE)),
	E(0x48, P6_BOTH, P6_ALL, 0, "DCU_MISS_OUTSTANDING", NOT_SEEN(CACHE)),
	/* Instruction fetch unit (IFU) */
	E(0x80, P6_BOTH, P6_ALL, 0, "IFU_IFETCH", NOT_SEEN(FETCH)),
	E(0x81, P6_BOTH, P6_ALL, 0, "IFU_IFETCH_MISS", NOT_SEEN(CACHE)),
	E(0x85, P6_BOTH, P6_ALL, 0, "ITLB_MISS", NOT_SEEN(CACHE)),
	E(0x86, P6_BOTH, P6_ALL, 0, "IFU_MEM_STALL", NOT_SEEN(STALL)),
	E(0x87, P6_BOTH, P6_ALL, 0, "ILD_STALL", NOT_SEEN(STALL)),
	/* L2 cache (note 1: MESI unit mask) */
	E(0x28, P6_BOTH, P6_ALL, MESI, "L2_IFETCH", NOT_SEEN(CACHE)),
	E(0x29, P6_BOTH, PRE_PM, MESI, "L2_LD", NOT_SEEN(CACHE)),
	E(0x29, P6_BOTH, P6_PM, 0x3f, "L2_LD", NOT_SEEN(CACHE)),
	E(0x2a, P6_BOTH, P6_ALL, MESI, "L2_ST", NOT_SEEN(CACHE)),
	E(0x24, P6_BOTH, PRE_PM, 0, "L2_LINES_IN", NOT_SEEN(CACHE)),
	E(0x24, P6_BOTH, P6_PM, 0x3f, "L2_LINES_IN", NOT_SEEN(CACHE)),
	E(0x26, P6_BOTH, PRE_PM, 0, "L2_LINES_OUT", NOT_SEEN(CACHE)),
	E(0x26, P6_BOTH, P6_PM, 0x3f, "L2_LINES_OUT", NOT_SEEN(CACHE)),
	E(0x25, P6_BOTH, P6_ALL, 0, "L2_M_LINES_INM", NOT_SEEN(CACHE)),
	E(0x27, P6_BOTH, PRE_PM, 0, "L2_M_LINES_OUTM", NOT_SEEN(CACHE)),
	E(0x27, P6_BOTH, P6_PM, 0x3f, "L2_M_LINES_OUT", NOT_SEEN(CACHE)),
	E(0x2e, P6_BOTH, P6_ALL, MESI, "L2_RQSTS", NOT_SEEN(CACHE)),
	E(0x21, P6_BOTH, P6_ALL, 0, "L2_ADS", NOT_SEEN(CACHE)),
	E(0x22, P6_BOTH, P6_ALL, 0, "L2_DBUS_BUSY", NOT_SEEN(CACHE)),
	E(0x23, P6_BOTH, P6_ALL, 0, "L2_DBUS_BUSY_RD", NOT_SEEN(CACHE)),
	/* External bus logic (EBL; note 2: bit 5 = any agent) */
	E(0x62, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_DRDY_CLOCKS", NOT_SEEN(BUS)),
	E(0x63, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_LOCK_CLOCKS", NOT_SEEN(BUS)),
	E(0x60, P6_BOTH, P6_ALL, 0, "BUS_REQ_OUTSTANDING", NOT_SEEN(BUS)),
	E(0x65, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRAN_BRD", NOT_SEEN(BUS)),
	E(0x66, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRAN_RFO", NOT_SEEN(BUS)),
	E(0x67, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRANS_WB", NOT_SEEN(BUS)),
	E(0x68, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRAN_IFETCH", NOT_SEEN(BUS)),
	E(0x69, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRAN_INVAL", NOT_SEEN(BUS)),
	E(0x6a, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRAN_PWR", NOT_SEEN(BUS)),
	E(0x6b, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRANS_P", NOT_SEEN(BUS)),
	E(0x6c, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRANS_IO", NOT_SEEN(BUS)),
	E(0x6d, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRAN_DEF", NOT_SEEN(BUS)),
	E(0x6e, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRAN_BURST", NOT_SEEN(BUS)),
	E(0x70, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRAN_ANY", NOT_SEEN(BUS)),
	E(0x6f, P6_BOTH, P6_ALL, ANY_AGENT, "BUS_TRAN_MEM", NOT_SEEN(BUS)),
	E(0x64, P6_BOTH, P6_ALL, 0, "BUS_DATA_RCV", NOT_SEEN(BUS)),
	E(0x61, P6_BOTH, P6_ALL, 0, "BUS_BNR_DRV", NOT_SEEN(BUS)),
	E(0x7a, P6_BOTH, P6_ALL, 0, "BUS_HIT_DRV", NOT_SEEN(BUS)),
	E(0x7b, P6_BOTH, P6_ALL, 0, "BUS_HITM_DRV", NOT_SEEN(BUS)),
	E(0x7e, P6_BOTH, P6_ALL, 0, "BUS_SNOOP_STALL", NOT_SEEN(BUS)),
	/* Floating-point unit: some on one counter only */
	E(0xc1, P6_CTR0_ONLY, P6_ALL, 0, "FLOPS", NOT_SEEN(FP)),
	E(0x10, P6_CTR0_ONLY, P6_ALL, 0, "FP_COMP_OPS_EXE", NOT_SEEN(SPEC)),
	E(0x11, P6_CTR1_ONLY, P6_ALL, 0, "FP_ASSIST",
	  NOT_SEEN("microcode assists are not in the trace")),
	E(0x12, P6_CTR1_ONLY, P6_ALL, 0, "MUL", NOT_SEEN(SPEC)),
	E(0x13, P6_CTR1_ONLY, P6_ALL, 0, "DIV", NOT_SEEN(SPEC)),
	E(0x14, P6_CTR0_ONLY, P6_ALL, 0, "CYCLES_DIV_BUSY", NOT_SEEN(STALL)),
	/* Memory ordering */
	E(0x03, P6_BOTH, P6_ALL, 0, "LD_BLOCKS", NOT_SEEN(STALL)),
	E(0x04, P6_BOTH, P6_ALL, 0, "SB_DRAINS", NOT_SEEN(STALL)),
	E(0x05, P6_BOTH, P6_ALL, 0, "MISALIGN_MEM_REF",
	  NOT_SEEN("dispatched misaligned micro-ops are not in the trace")),
	E(0x07, P6_BOTH, PIII_ON, 0x03, "EMON_KNI_PREF_DISPATCHED",
	  NOT_SEEN(SSE)),
	E(0x4b, P6_BOTH, PIII_ON, 0x03, "EMON_KNI_PREF_MISS", NOT_SEEN(CACHE)),
	/* Instruction decoding and retirement */
	E(0xc0, P6_BOTH, P6_ALL, 0, "INST_RETIRED",
	  SEEN(SEM_BIT(SEM_INSTRUCTIONS))),
	E(0xc2, P6_BOTH, P6_ALL, 0, "UOPS_RETIRED", NOT_SEEN(UOPS)),
	E(0xd0, P6_BOTH, P6_ALL, 0, "INST_DECODED", NOT_SEEN(SPEC)),
	E(0xd8, P6_BOTH, P6_PIII, 0x01, "EMON_KNI_INST_RETIRED",
	  NOT_SEEN(SSE)),
	E(0xd9, P6_BOTH, P6_PIII, 0x01, "EMON_KNI_COMP_INST_RET",
	  NOT_SEEN(SSE)),
	/* Interrupts */
	E(0xc8, P6_BOTH, P6_ALL, 0, "HW_INT_RX", NOT_SEEN(INTR)),
	E(0xc6, P6_BOTH, P6_ALL, 0, "CYCLES_INT_MASKED",
	  NOT_SEEN("IF is the tracer's during a trace, not the program's")),
	E(0xc7, P6_BOTH, P6_ALL, 0, "CYCLES_INT_PENDING_AND_MASKED",
	  NOT_SEEN(INTR)),
	/* Branches */
	E(0xc4, P6_BOTH, P6_ALL, 0, "BR_INST_RETIRED",
	  SEEN(SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR))),
	E(0xc5, P6_BOTH, P6_ALL, 0, "BR_MISS_PRED_RETIRED", NOT_SEEN(PRED)),
	E(0xc9, P6_BOTH, P6_ALL, 0, "BR_TAKEN_RETIRED",
	  SEEN(SEM_BIT(SEM_TAKEN) | SEM_BIT(SEM_FAR))),
	E(0xca, P6_BOTH, P6_ALL, 0, "BR_MISS_PRED_TAKEN_RET", NOT_SEEN(PRED)),
	E(0xe0, P6_BOTH, P6_ALL, 0, "BR_INST_DECODED", NOT_SEEN(SPEC)),
	E(0xe2, P6_BOTH, P6_ALL, 0, "BTB_MISSES", NOT_SEEN(PRED)),
	E(0xe4, P6_BOTH, P6_ALL, 0, "BR_BOGUS", NOT_SEEN(PRED)),
	E(0xe6, P6_BOTH, P6_ALL, 0, "BACLEARS", NOT_SEEN(PRED)),
	/* Stalls */
	E(0xa2, P6_BOTH, P6_ALL, 0, "RESOURCE_STALLS", NOT_SEEN(STALL)),
	E(0xd2, P6_BOTH, P6_ALL, 0, "PARTIAL_RAT_STALLS", NOT_SEEN(STALL)),
	/* Segment register loads */
	E(0x06, P6_BOTH, P6_ALL, 0, "SEGMENT_REG_LOADS",
	  SEEN(SEM_BIT(SEM_SEGLOADS))),
	/* Clocks (Pentium M: "and not in a thermal trip", Table 19-36) */
	E(0x79, P6_BOTH, P6_ALL, 0, "CPU_CLK_UNHALTED",
	  SEEN(SEM_BIT(SEM_CLOCKS))),
	/* MMX unit: Pentium II and later (0xB0, 0xCE Pentium II only) */
	E(0xb0, P6_BOTH, P6_PII, 0, "MMX_INSTR_EXEC", NOT_SEEN(MMX)),
	E(0xb1, P6_BOTH, PII_ON, 0, "MMX_SAT_INSTR_EXEC", NOT_SEEN(MMX)),
	E(0xb2, P6_BOTH, PII_ON, 0x0f, "MMX_UOPS_EXEC", NOT_SEEN(UOPS)),
	E(0xb3, P6_BOTH, PII_ON, 0x3f, "MMX_INSTR_TYPE_EXEC", NOT_SEEN(MMX)),
	E(0xcc, P6_BOTH, PII_ON, 0x01, "FP_MMX_TRANS", NOT_SEEN(MMX)),
	E(0xcd, P6_BOTH, PII_ON, 0, "MMX_ASSIST", NOT_SEEN(MMX)),
	E(0xce, P6_BOTH, P6_PII, 0, "MMX_INSTR_RET", NOT_SEEN(MMX)),
	/* Segment register renaming: Pentium II and later */
	E(0xd4, P6_BOTH, PII_ON, 0x0f, "SEG_RENAME_STALLS", NOT_SEEN(RENAME)),
	E(0xd5, P6_BOTH, PII_ON, 0x0f, "SEG_REG_RENAMES", NOT_SEEN(RENAME)),
	E(0xd6, P6_BOTH, PII_ON, 0, "RET_SEG_RENAMES", NOT_SEEN(RENAME)),
	/* Pentium M (Tables 19-35 and 19-36) */
	E(0x58, P6_BOTH, P6_PM, 0x02, "EMON_EST_TRANS", NOT_SEEN(POWER)),
	E(0x59, P6_BOTH, P6_PM, 0, "EMON_THERMAL_TRIP", NOT_SEEN(POWER)),
	E(0x88, P6_BOTH, P6_PM, 0, "BR_INST_EXEC", NOT_SEEN(SPEC)),
	E(0x89, P6_BOTH, P6_PM, 0, "BR_MISSP_EXEC", NOT_SEEN(PRED)),
	E(0x8a, P6_BOTH, P6_PM, 0, "BR_BAC_MISSP_EXEC", NOT_SEEN(PRED)),
	E(0x8b, P6_BOTH, P6_PM, 0, "BR_CND_EXEC", NOT_SEEN(SPEC)),
	E(0x8c, P6_BOTH, P6_PM, 0, "BR_CND_MISSP_EXEC", NOT_SEEN(PRED)),
	E(0x8d, P6_BOTH, P6_PM, 0, "BR_IND_EXEC", NOT_SEEN(SPEC)),
	E(0x8e, P6_BOTH, P6_PM, 0, "BR_IND_MISSP_EXEC", NOT_SEEN(PRED)),
	E(0x8f, P6_BOTH, P6_PM, 0, "BR_RET_EXEC", NOT_SEEN(SPEC)),
	E(0x90, P6_BOTH, P6_PM, 0, "BR_RET_MISSP_EXEC", NOT_SEEN(PRED)),
	E(0x91, P6_BOTH, P6_PM, 0, "BR_RET_BAC_MISSP_EXEC", NOT_SEEN(PRED)),
	E(0x92, P6_BOTH, P6_PM, 0, "BR_CALL_EXEC", NOT_SEEN(SPEC)),
	E(0x93, P6_BOTH, P6_PM, 0, "BR_CALL_MISSP_EXEC", NOT_SEEN(PRED)),
	E(0x94, P6_BOTH, P6_PM, 0, "BR_IND_CALL_EXEC", NOT_SEEN(SPEC)),
	E(0xce, P6_BOTH, P6_PM, 0, "EMON_SIMD_INSTR_RETIRED", NOT_SEEN(MMX)),
	E(0xd3, P6_BOTH, P6_PM, 0, "EMON_SYNCH_UOPS", NOT_SEEN(UOPS)),
	E(0xd7, P6_BOTH, P6_PM, 0, "EMON_ESP_UOPS", NOT_SEEN(UOPS)),
	E(0xd8, P6_BOTH, P6_PM, 0x03, "EMON_SSE_SSE2_INST_RETIRED",
	  NOT_SEEN(SSE)),
	E(0xd9, P6_BOTH, P6_PM, 0x03, "EMON_SSE_SSE2_COMP_INST_RETIRED",
	  NOT_SEEN(SSE)),
	E(0xda, P6_BOTH, P6_PM, 0x03, "EMON_FUSED_UOPS_RET", NOT_SEEN(UOPS)),
	E(0xdb, P6_BOTH, P6_PM, 0, "EMON_UNFUSION", NOT_SEEN(UOPS)),
	E(0xf0, P6_BOTH, P6_PM, 0, "EMON_PREF_RQSTS_UP", NOT_SEEN(CACHE)),
	E(0xf8, P6_BOTH, P6_PM, 0, "EMON_PREF_RQSTS_DN", NOT_SEEN(CACHE)),
};

const unsigned p6_n_events = sizeof(p6_events) / sizeof(p6_events[0]);

const struct p6_event *p6_event_for(unsigned code, unsigned ctr,
				    unsigned gen)
{
	if (ctr >= P6_COUNTERS)
		return 0;
	for (unsigned i = 0; i < p6_n_events; i++) {
		const struct p6_event *e = &p6_events[i];

		if (e->code == code && (e->counters & (1u << ctr)) &&
		    (e->gens & gen))
			return e;
	}
	return 0;
}

int p6_umask_ok(const struct p6_event *ev, unsigned umask)
{
	return umask <= 0xff && !(umask & ~(unsigned)ev->umask_bits);
}
