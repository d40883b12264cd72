/* pmu/p5/events.c: the Pentium event table and its lookups (events.h).
 *
 * Codes, names and counter restrictions: SDM Vol. 3B Table 19-38
 * ("Events That Can Be Counted with Pentium Processor Performance-
 * Monitoring Counters", order no. 253669-060US; Table A-19 in older
 * editions), cross-checked against perfctr's Pentium event list.  Codes 0x00-0x29 exist on every Pentium (0x10,
 * 0x11, 0x20, 0x21 reserved); 0x2A-0x3B were added by the Pentium with
 * MMX technology, where one code selects different events on CTR0 and
 * CTR1, and 0x39 is reserved on CTR1.  The codes are hexadecimal numbers
 * of the 6-bit ES field (some public tables misread them as binary).
 */
#include "events.h"

/* E(code, counters, mmx, duration, name, source, why-not-modelled) */
#define E(code, ctrs, mmx, dur, name, ...) \
	{ code, ctrs, mmx, dur, name, __VA_ARGS__ }
#define NOT_SEEN(why) 0, why
#define CACHE "cache, TLB and bus behaviour are not in the trace"
#define PIPE "pipe pairing and stalls are not in the trace"
#define DUR "a duration of a microarchitectural condition"

const struct p5_event p5_events[] = {
	E(0x00, P5_BOTH, 0, 0, "DATA_READ", SEM_BIT(SEM_LOADS), 0),
	E(0x01, P5_BOTH, 0, 0, "DATA_WRITE", SEM_BIT(SEM_STORES), 0),
	E(0x02, P5_BOTH, 0, 0, "DATA_TLB_MISS", NOT_SEEN(CACHE)),
	E(0x03, P5_BOTH, 0, 0, "DATA_READ_MISS", NOT_SEEN(CACHE)),
	E(0x04, P5_BOTH, 0, 0, "DATA_WRITE_MISS", NOT_SEEN(CACHE)),
	E(0x05, P5_BOTH, 0, 0, "WRITE_HIT_TO_M_OR_E_STATE_LINES",
	  NOT_SEEN(CACHE)),
	E(0x06, P5_BOTH, 0, 0, "DATA_CACHE_LINES_WRITTEN_BACK",
	  NOT_SEEN(CACHE)),
	E(0x07, P5_BOTH, 0, 0, "EXTERNAL_SNOOPS", NOT_SEEN(CACHE)),
	E(0x08, P5_BOTH, 0, 0, "EXTERNAL_DATA_CACHE_SNOOP_HITS",
	  NOT_SEEN(CACHE)),
	E(0x09, P5_BOTH, 0, 0, "MEMORY_ACCESSES_IN_BOTH_PIPES",
	  NOT_SEEN(PIPE)),
	E(0x0a, P5_BOTH, 0, 0, "BANK_CONFLICTS", NOT_SEEN(CACHE)),
	E(0x0b, P5_BOTH, 0, 0, "MISALIGNED_DATA_MEMORY_OR_IO_REFERENCES",
	  NOT_SEEN("access addresses are not in the trace")),
	E(0x0c, P5_BOTH, 0, 0, "CODE_READ",
	  NOT_SEEN("instruction fetches are not in the trace")),
	E(0x0d, P5_BOTH, 0, 0, "CODE_TLB_MISS", NOT_SEEN(CACHE)),
	E(0x0e, P5_BOTH, 0, 0, "CODE_CACHE_MISS", NOT_SEEN(CACHE)),
	E(0x0f, P5_BOTH, 0, 0, "ANY_SEGMENT_REGISTER_LOADED",
	  SEM_BIT(SEM_SEGLOADS), 0),
	E(0x12, P5_BOTH, 0, 0, "BRANCHES", SEM_BIT(SEM_BRANCHES) | SEM_BIT(SEM_FAR), 0),
	E(0x13, P5_BOTH, 0, 0, "BTB_HITS",
	  NOT_SEEN("branch prediction is not in the trace")),
	E(0x14, P5_BOTH, 0, 0, "TAKEN_BRANCH_OR_BTB_HIT",
	  NOT_SEEN("BTB hits are not in the trace")),
	E(0x15, P5_BOTH, 0, 0, "PIPELINE_FLUSHES", NOT_SEEN(PIPE)),
	E(0x16, P5_BOTH, 0, 0, "INSTRUCTIONS_EXECUTED",
	  SEM_BIT(SEM_INSTRUCTIONS), 0),
	E(0x17, P5_BOTH, 0, 0, "INSTRUCTIONS_EXECUTED_V_PIPE",
	  NOT_SEEN(PIPE)),
	E(0x18, P5_BOTH, 0, 1, "BUS_CYCLE_DURATION", NOT_SEEN(DUR)),
	E(0x19, P5_BOTH, 0, 1, "WRITE_BUFFER_FULL_STALL_DURATION",
	  NOT_SEEN(DUR)),
	E(0x1a, P5_BOTH, 0, 1, "WAITING_FOR_DATA_MEMORY_READ_STALL_DURATION",
	  NOT_SEEN(DUR)),
	E(0x1b, P5_BOTH, 0, 0, "STALL_ON_WRITE_TO_AN_E_OR_M_STATE_LINE",
	  NOT_SEEN(PIPE)),
	E(0x1c, P5_BOTH, 0, 0, "LOCKED_BUS_CYCLE", NOT_SEEN(CACHE)),
	E(0x1d, P5_BOTH, 0, 0, "IO_READ_OR_WRITE_CYCLE",
	  NOT_SEEN("I/O bus cycles are not in the trace")),
	E(0x1e, P5_BOTH, 0, 0, "NONCACHEABLE_MEMORY_READS", NOT_SEEN(CACHE)),
	E(0x1f, P5_BOTH, 0, 0, "PIPELINE_AGI_STALLS", NOT_SEEN(PIPE)),
	E(0x22, P5_BOTH, 0, 0, "FLOPS",
	  NOT_SEEN("the classifier does not decode x87 instructions")),
	E(0x23, P5_BOTH, 0, 0, "BREAKPOINT_MATCH_ON_DR0_REGISTER",
	  NOT_SEEN("debug-register matches are not in the trace")),
	E(0x24, P5_BOTH, 0, 0, "BREAKPOINT_MATCH_ON_DR1_REGISTER",
	  NOT_SEEN("debug-register matches are not in the trace")),
	E(0x25, P5_BOTH, 0, 0, "BREAKPOINT_MATCH_ON_DR2_REGISTER",
	  NOT_SEEN("debug-register matches are not in the trace")),
	E(0x26, P5_BOTH, 0, 0, "BREAKPOINT_MATCH_ON_DR3_REGISTER",
	  NOT_SEEN("debug-register matches are not in the trace")),
	E(0x27, P5_BOTH, 0, 0, "HARDWARE_INTERRUPTS",
	  NOT_SEEN("interrupts are not in the trace (traced runs keep IF=0)")),
	E(0x28, P5_BOTH, 0, 0, "DATA_READ_OR_WRITE", SEM_BIT(SEM_LOADS) | SEM_BIT(SEM_STORES), 0),
	E(0x29, P5_BOTH, 0, 0, "DATA_READ_MISS_OR_WRITE_MISS",
	  NOT_SEEN(CACHE)),
	/* Pentium with MMX technology */
	E(0x2a, P5_CTR0_ONLY, 1, 1, "BUS_OWNERSHIP_LATENCY", NOT_SEEN(DUR)),
	E(0x2a, P5_CTR1_ONLY, 1, 0, "BUS_OWNERSHIP_TRANSFERS",
	  NOT_SEEN(CACHE)),
	E(0x2b, P5_CTR0_ONLY, 1, 0, "MMX_INSTRUCTIONS_EXECUTED_U_PIPE",
	  NOT_SEEN("the classifier does not decode MMX instructions")),
	E(0x2b, P5_CTR1_ONLY, 1, 0, "MMX_INSTRUCTIONS_EXECUTED_V_PIPE",
	  NOT_SEEN(PIPE)),
	E(0x2c, P5_CTR0_ONLY, 1, 0, "CACHE_M_STATE_LINE_SHARING",
	  NOT_SEEN(CACHE)),
	E(0x2c, P5_CTR1_ONLY, 1, 0, "CACHE_LINE_SHARING", NOT_SEEN(CACHE)),
	E(0x2d, P5_CTR0_ONLY, 1, 0, "EMMS_INSTRUCTIONS_EXECUTED",
	  NOT_SEEN("the classifier does not decode MMX instructions")),
	E(0x2d, P5_CTR1_ONLY, 1, 0,
	  "TRANSITIONS_BETWEEN_MMX_AND_FP_INSTRUCTIONS",
	  NOT_SEEN("the classifier does not decode MMX or x87")),
	E(0x2e, P5_CTR0_ONLY, 1, 1,
	  "BUS_UTILIZATION_DUE_TO_PROCESSOR_ACTIVITY", NOT_SEEN(DUR)),
	E(0x2e, P5_CTR1_ONLY, 1, 0, "WRITES_TO_NONCACHEABLE_MEMORY",
	  NOT_SEEN(CACHE)),
	E(0x2f, P5_CTR0_ONLY, 1, 0, "SATURATING_MMX_INSTRUCTIONS_EXECUTED",
	  NOT_SEEN("the classifier does not decode MMX instructions")),
	E(0x2f, P5_CTR1_ONLY, 1, 0, "SATURATIONS_PERFORMED",
	  NOT_SEEN("MMX results are not in the trace")),
	E(0x30, P5_CTR0_ONLY, 1, 1, "NUMBER_OF_CYCLES_NOT_IN_HALT_STATE",
	  NOT_SEEN("the model clock is not the machine's clock")),
	E(0x30, P5_CTR1_ONLY, 1, 1, "DATA_CACHE_TLB_MISS_STALL_DURATION",
	  NOT_SEEN(DUR)),
	E(0x31, P5_CTR0_ONLY, 1, 0, "MMX_INSTRUCTION_DATA_READS",
	  NOT_SEEN("the classifier does not decode MMX instructions")),
	E(0x31, P5_CTR1_ONLY, 1, 0, "MMX_INSTRUCTION_DATA_READ_MISSES",
	  NOT_SEEN(CACHE)),
	E(0x32, P5_CTR0_ONLY, 1, 1, "FLOATING_POINT_STALLS_DURATION",
	  NOT_SEEN(DUR)),
	E(0x32, P5_CTR1_ONLY, 1, 0, "TAKEN_BRANCHES", SEM_BIT(SEM_TAKEN) | SEM_BIT(SEM_FAR), 0),
	E(0x33, P5_CTR0_ONLY, 1, 0, "D1_STARVATION_AND_FIFO_IS_EMPTY",
	  NOT_SEEN(PIPE)),
	E(0x33, P5_CTR1_ONLY, 1, 0,
	  "D1_STARVATION_AND_ONLY_ONE_INSTRUCTION_IN_FIFO", NOT_SEEN(PIPE)),
	E(0x34, P5_CTR0_ONLY, 1, 0, "MMX_INSTRUCTION_DATA_WRITES",
	  NOT_SEEN("the classifier does not decode MMX instructions")),
	E(0x34, P5_CTR1_ONLY, 1, 0, "MMX_INSTRUCTION_DATA_WRITE_MISSES",
	  NOT_SEEN(CACHE)),
	E(0x35, P5_CTR0_ONLY, 1, 0,
	  "PIPELINE_FLUSHES_DUE_TO_WRONG_BRANCH_PREDICTIONS",
	  NOT_SEEN("branch prediction is not in the trace")),
	E(0x35, P5_CTR1_ONLY, 1, 0,
	  "PIPELINE_FLUSHES_DUE_TO_WRONG_BRANCH_PREDICTIONS_RESOLVED_IN_WB_STAGE",
	  NOT_SEEN("branch prediction is not in the trace")),
	E(0x36, P5_CTR0_ONLY, 1, 0,
	  "MISALIGNED_DATA_MEMORY_REFERENCE_ON_MMX_INSTRUCTIONS",
	  NOT_SEEN("the classifier does not decode MMX instructions")),
	E(0x36, P5_CTR1_ONLY, 1, 1,
	  "PIPELINE_ISTALL_FOR_MMX_INSTRUCTION_DATA_MEMORY_READS",
	  NOT_SEEN(DUR)),
	E(0x37, P5_CTR0_ONLY, 1, 0, "MISPREDICTED_OR_UNPREDICTED_RETURNS",
	  NOT_SEEN("return prediction is not in the trace")),
	E(0x37, P5_CTR1_ONLY, 1, 0, "PREDICTED_RETURNS",
	  NOT_SEEN("return prediction is not in the trace")),
	E(0x38, P5_CTR0_ONLY, 1, 1, "MMX_MULTIPLY_UNIT_INTERLOCK",
	  NOT_SEEN(DUR)),
	E(0x38, P5_CTR1_ONLY, 1, 1,
	  "MOVD_MOVQ_STORE_STALL_DUE_TO_PREVIOUS_MMX_OPERATION",
	  NOT_SEEN(DUR)),
	E(0x39, P5_CTR0_ONLY, 1, 0, "RETURNS", SEM_BIT(SEM_RETURNS), 0),
	E(0x3a, P5_CTR0_ONLY, 1, 0, "BTB_FALSE_ENTRIES",
	  NOT_SEEN("branch prediction is not in the trace")),
	E(0x3a, P5_CTR1_ONLY, 1, 0, "BTB_MISS_PREDICTION_ON_NOT_TAKEN_BRANCH",
	  NOT_SEEN("branch prediction is not in the trace")),
	E(0x3b, P5_CTR0_ONLY, 1, 1,
	  "FULL_WRITE_BUFFER_STALL_DURATION_WHILE_EXECUTING_MMX_INSTRUCTIONS",
	  NOT_SEEN(DUR)),
	E(0x3b, P5_CTR1_ONLY, 1, 1,
	  "STALL_ON_MMX_INSTRUCTION_WRITE_TO_E_OR_M_STATE_LINE",
	  NOT_SEEN(DUR)),
};

const unsigned p5_n_events = sizeof(p5_events) / sizeof(p5_events[0]);

const struct p5_event *p5_event_for(unsigned code, unsigned ctr, int mmx_cpu)
{
	for (unsigned i = 0; i < p5_n_events; i++) {
		const struct p5_event *e = &p5_events[i];

		if (e->code == code && (e->counters & (1u << ctr)) &&
		    (!e->mmx || mmx_cpu))
			return e;
	}
	return 0;
}

int p5_duration_modelled(const struct p5_event *ev)
{
	return ev->sem && !(ev->sem & (ev->sem - 1));
}

enum sem p5_duration_sem(const struct p5_event *ev)
{
	unsigned s = 0;

	while (s < SEM_NR && !(ev->sem & SEM_BIT(s)))
		s++;
	return (enum sem)s;
}
