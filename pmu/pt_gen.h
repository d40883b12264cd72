/* pt_gen: the packet generator of the PT model - the stream the SDM
 * prescribes for BranchEn (+ CYCEn with CycThresh 0..15, MTCEn, TSCEn,
 * DisRETC) from a trace, one step at a time, with the model clock as
 * the cycle counter (Intel SDM Vol. 3C, order no. 326019-060US, chapter
 * 36: §36.3.6 cycle-accurate mode, §36.4.1 packet relationships and
 * ordering, §36.4.2 packet definitions; docs/pt.md "The model's
 * stream").
 *
 * Pure: it knows no MSR and no memory.  The PT model (pmu/pt_model.c)
 * feeds it and stores its bytes in the output region; the host builds it
 * too (model streams of the benchmarks for the libipt referee).
 *
 * What it writes:
 *   - at start (TraceEn 0 -> 1): PSB+ = PSB, [TSC], [TMA], CBR, PSBEND;
 *     the cycle counter starts at the enable's clock;
 *   - at the first step at a CPL the config traces: MODE.Exec and
 *     TIP.PGE to the step's RIP (PacketEn 0 -> 1), in the enable's cycle;
 *   - per step: a conditional branch is one TNT bit (1 = taken); a RET
 *     whose target is the return address of the CALL on top of the
 *     generator's call stack (DisRETC clear) is one TNT bit, taken;
 *     an indirect JMP or CALL, any other RET and a far transfer a TIP to
 *     the step's next RIP (IP compression against the last IP);
 *     direct JMP and CALL nothing (CALL pushes its return address);
 *   - with CYCEn, before the first CYC-eligible packet of a cycle: a CYC
 *     with the clocks since the last CYC, when CycThresh is 0 or at least
 *     2^(CycThresh-1) clocks have passed; the pending TNT is written
 *     before that CYC, so a CYC always times the first bit of the TNT
 *     that follows it;
 *   - with MTCEn: an MTC each time bit MTCFreq of the clock changes;
 *   - a PSB+ again after every 2^(PSBFreq + 11) bytes of output;
 *   - at stop (TraceEn 1 -> 0): the pending TNT (see pt_gen.c for the
 *     disable's packets). */
#ifndef PMU_PT_GEN_H
#define PMU_PT_GEN_H

#include <stddef.h>
#include <stdint.h>
#include "../arch/x86/trace.h"

#define PT_GEN_CALL_DEPTH 64

/* Where the bytes go: the model's output region, or a host buffer. */
typedef void (*pt_gen_write)(void *ctx, const uint8_t *p, unsigned n);

struct pt_gen {
	uint64_t ctl;			/* IA32_RTIT_CTL as started */
	pt_gen_write write;
	void *ctx;
	uint64_t bytes;			/* written since start */
	uint64_t next_psb;		/* bytes at which PSB+ is due */
	uint64_t cyc_clock;		/* clock of the last CYC / enable */
	uint64_t cyc_cycle;		/* clock of the cycle that has its CYC */
	uint64_t last_ip;		/* IP compression state */
	uint64_t mtc_clock;		/* clock of the last MTC check */
	uint64_t tnt_bits;		/* pending TNT, oldest bit highest */
	unsigned tnt_count;
	int packet_en;			/* PacketEn */
	unsigned depth;			/* call stack for RET compression */
	uint64_t calls[PT_GEN_CALL_DEPTH];
	unsigned csl, csd;		/* the mode MODE.Exec last said */
	unsigned cbr;			/* the core:bus ratio CBR reports */
};

/* TraceEn 0 -> 1 with ctl at clock: resets g, writes PSB+. */
void pt_gen_start(struct pt_gen *g, uint64_t ctl, uint64_t clock,
		  unsigned cbr, pt_gen_write write, void *ctx);
/* One traced step at clock (already advanced for it). */
void pt_gen_step(struct pt_gen *g, const struct insn_event *e,
		 uint64_t clock);
/* TraceEn 1 -> 0 at clock: flushes. */
void pt_gen_stop(struct pt_gen *g, uint64_t clock);

#endif
