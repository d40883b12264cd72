/* pmu/pt/gen.h: the packet generator of the PT model (pmu/pt/gen.c) - the
 * stream the SDM prescribes for BranchEn (+ CYCEn with CycThresh 0..15,
 * MTCEn, TSCEn, DisRETC) from a trace, one step at a time, with the model
 * clock as the cycle counter (Intel SDM Vol. 3C, order no. 326019-060US,
 * chapter 36: §36.3.6 cycle-accurate mode, §36.4.1 packet relationships
 * and ordering, §36.4.2 packet definitions, §36.7 Table 36-50 the packets
 * of each operation; docs/pt.md "The model's stream").
 *
 * Pure: it knows no MSR and no memory.  The PT model (pmu/pt/model.c)
 * feeds it and stores its bytes in the output region; the host builds it
 * too (model streams of the benchmarks for the libipt referee).  The one
 * thing it reads is the bytes of a near CALL (its length gives the return
 * address) and of a far transfer (is it INT n?), through a code source
 * (the code and code_ctx of struct pt_gen, set after pt_gen_start(); by
 * default the code at the RIP in this address space, where the tracer
 * itself decoded it).
 *
 * What it writes (gen.c gives the SDM sections):
 *   - at start (TraceEn 0 -> 1): PSB+ = PSB, [TSC], [TMA], CBR, PSBEND;
 *     the cycle counter starts at the enable's clock;
 *   - at the first step at a CPL the config traces: MODE.Exec and
 *     TIP.PGE to the step's RIP (PacketEn 0 -> 1), in the cycle of the
 *     step before it (the enable's cycle for the first step); with
 *     CycThresh 0 a CYC (0 at the enable) precedes them;
 *   - per step: a conditional branch is one TNT bit (1 = taken); a RET
 *     whose target is the return address of the CALL on top of the
 *     generator's call stack (DisRETC clear) is one TNT bit, taken (every
 *     near RET pops the top); an indirect JMP or CALL, any other RET and
 *     a far transfer
 *     a TIP to the step's next RIP (IP compression against the last IP),
 *     after a FUP to the step's RIP for INT n / INT3 / INTO / INT1;
 *     direct JMP and CALL nothing (a CALL, direct or not, pushes its
 *     return address unless it is a zero-length CALL);
 *   - a step at a CPL the config does not trace while PacketEn is 1:
 *     TIP.PGD with the IP suppressed (ContextEn 1 -> 0);
 *   - with CYCEn, before the first CYC-eligible packet of a cycle: a CYC
 *     with the clocks since the last CYC, when CycThresh is 0 or at least
 *     2^(CycThresh-1) clocks have passed; a TNT is CYC-eligible in the
 *     cycle of its first branch only (later branches join it with no
 *     CYC: multi-branch TNTs, as hardware writes them); the pending TNT
 *     is written before that CYC, so a CYC always times the first bit of
 *     the TNT that follows it;
 *   - with MTCEn: an MTC each time bit MTCFreq of the clock (the model's
 *     crystal clock) toggles, one per toggle with that moment's payload:
 *     the toggles before a step's cycle before its packets, the one in
 *     its cycle after them;
 *   - a PSB+ again after every 2^(PSBFreq + 11) bytes of output, checked
 *     at the end of a step (after the step's own packets); while
 *     PacketEn is 1 it holds MODE.Exec and a FUP to the next RIP; a PSB
 *     resets the last IP and the RET-compression call stack;
 *   - any packet but a TNT bit first writes the pending TNT (a TNT-8
 *     holds at most 6 bits);
 *   - at stop (TraceEn 1 -> 0): the MTCs of the toggles up to it, the
 *     pending TNT and, while PacketEn is 1,
 *     FUP to the next RIP of the last step and TIP.PGD with the IP
 *     suppressed. */
#ifndef PMU_PT_GEN_H
#define PMU_PT_GEN_H

#include <stddef.h>
#include <stdint.h>
#include "../../arch/x86/trace.h"

#define PT_GEN_CALL_DEPTH 64

/* Where the bytes go: the model's output region, or a host buffer. */
typedef void (*pt_gen_write)(void *ctx, const uint8_t *p, unsigned n);
/* The bytes of the instruction at rip (15 readable), or NULL when they
 * cannot be had: a CALL then pushes nothing (its RET will be a TIP) and a
 * far transfer gets no FUP. */
typedef const uint8_t *(*pt_gen_code)(void *ctx, uint64_t rip);

struct pt_gen {
	uint64_t ctl;			/* IA32_RTIT_CTL as started */
	pt_gen_write write;		/* NULL: not started, or stopped */
	void *ctx;
	pt_gen_code code;		/* NULL: the code at rip; set after
					 * pt_gen_start() for another source */
	void *code_ctx;			/* code's ctx */
	uint64_t bytes;			/* written since start */
	uint64_t next_psb;		/* bytes at which PSB+ is due */
	uint64_t cyc_clock;		/* clock of the last CYC / enable */
	uint64_t cyc_cycle;		/* clock of the cycle that has its CYC
					 * (~0: none yet) */
	uint64_t last_ip;		/* IP compression state */
	uint64_t mtc_clock;		/* clock of the last MTC check */
	uint64_t last_clock;		/* clock of the last step (or start) */
	uint64_t next_ip;		/* next RIP of the last step */
	uint64_t tnt_bits;		/* pending TNT, oldest bit highest */
	int tnt_reversed;		/* an emulator's fault: oldest bit
					 * lowest (pmu/emufault.h) */
	unsigned tnt_count;
	unsigned tnt_last;		/* its newest bit */
	uint64_t tnt_clock;		/* the clock of its newest bit */
	int packet_en;			/* PacketEn */
	int mode_sent;			/* MODE.Exec since the last PSB */
	unsigned depth;			/* call stack for RET compression */
	unsigned top;			/* calls[top] is the newest entry */
	uint64_t calls[PT_GEN_CALL_DEPTH];
	unsigned csl, csd;		/* the build's mode, what MODE.Exec
					 * says */
	unsigned cbr;			/* the core:bus ratio CBR reports */
};

/* TraceEn 0 -> 1 with ctl at clock: resets g (the code source to the
 * default), writes PSB+. */
void pt_gen_start(struct pt_gen *g, uint64_t ctl, uint64_t clock,
		  unsigned cbr, pt_gen_write write, void *ctx);
/* One traced step at clock (already advanced for it). */
void pt_gen_step(struct pt_gen *g, const struct insn_event *e,
		 uint64_t clock);
/* TraceEn 1 -> 0 at clock: flushes. */
void pt_gen_stop(struct pt_gen *g, uint64_t clock);

#endif
