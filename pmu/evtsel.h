/* evtsel: the PerfEvtSel register that the P6 family and architectural
 * performance monitoring share (Intel SDM Vol. 3B, order no. 253669-060US:
 * Figure 18-1 "Layout of IA32_PERFEVTSELx MSRs", §18.2.1.1, and §18.22
 * "Performance Monitoring (P6 Family Processor)", Figure 18-60), and the
 * rule by which its counter mask, invert and edge fields turn a cycle's
 * event count into a counter increment.  Pure logic: host-tested, used by
 * the drivers (encode/decode) and the reference models (the per-cycle
 * rule), never by the tests, which write the SDM's rule out themselves.
 *
 * Fields (both generations unless noted):
 *   7:0 event select    15:8 unit mask    16 USR (count at CPL 3)
 *   17 OS (CPL 0)       18 E (edge detect)  19 PC (pin control)
 *   20 INT (APIC interrupt on overflow)  21 ANY (AnyThread, arch perfmon
 *   v3+; reserved on P6 and v1/v2)  22 EN (enable; on P6 only
 *   PerfEvtSel0's EN exists and it enables both counters)
 *   23 INV (invert the CMASK comparison)  31:24 CMASK (counter mask)
 *   63:32 reserved (later processors define some of them: TSX qualifiers
 *   and adaptive PEBS, not modelled here).
 */
#ifndef PMU_EVTSEL_H
#define PMU_EVTSEL_H

#include <stdint.h>

#define EVTSEL_EVENT_MASK 0xffull
#define EVTSEL_UMASK_SHIFT 8
#define EVTSEL_UMASK_MASK (0xffull << EVTSEL_UMASK_SHIFT)
#define EVTSEL_USR (1ull << 16)
#define EVTSEL_OS (1ull << 17)
#define EVTSEL_EDGE (1ull << 18)
#define EVTSEL_PC (1ull << 19)
#define EVTSEL_INT (1ull << 20)
#define EVTSEL_ANY (1ull << 21)
#define EVTSEL_EN (1ull << 22)
#define EVTSEL_INV (1ull << 23)
#define EVTSEL_CMASK_SHIFT 24
#define EVTSEL_CMASK_MASK (0xffull << EVTSEL_CMASK_SHIFT)
/* The bits a 32-bit PerfEvtSel defines, AnyThread included. */
#define EVTSEL_DEFINED 0xffffffffull

struct evtsel {
	uint8_t event, umask, cmask;
	uint8_t usr, os, edge, pc, intr, any, en, inv;	/* 0 or 1 */
};

uint64_t evtsel_encode(const struct evtsel *s);
struct evtsel evtsel_decode(uint64_t v);
/* "ev=0xc0 um=0x00 usr os en cmask=0" and the like, for logs. */
void evtsel_name(uint64_t v, char *buf, unsigned size);

/*
 * The per-cycle rule (SDM Vol. 3B §18.2.1.1, the CMASK, INV and E flags):
 *   - CMASK 0: the counter adds the cycle's event count n; INV has no
 *     effect without a counter mask;
 *   - CMASK c > 0: the condition of a cycle is n >= c (INV set: n < c), and
 *     the counter adds 1 for each cycle in which it holds;
 *   - E: the counter adds 1 for each deasserted-to-asserted transition of
 *     the condition (with CMASK 0 the condition is n > 0), so back-to-back
 *     assertions count once.
 * A cycle here is a model cycle (pmu/model.h).  The edge state belongs to
 * the counter: a new PerfEvtSel value starts deasserted.
 */
struct evtsel_edge {
	uint8_t asserted;	/* the condition in the previous cycle */
};

/* What `cycles` consecutive cycles, each with event count n, add to a
 * counter programmed with s (USR/OS/EN are the caller's). */
uint64_t evtsel_cycles(const struct evtsel *s, struct evtsel_edge *edge,
		       uint64_t n, uint64_t cycles);
/* A counted cycle the counter does not see (another CPL, disabled): its
 * condition is deasserted. */
void evtsel_idle(struct evtsel_edge *edge);

#endif
