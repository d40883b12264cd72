/* pmu/p5/regs.h: the Pentium (P5) PMU's registers - CESR, CTR0 and CTR1
 * (Intel SDM Vol. 3B, order no. 253669-060US, §18.23.1 and Figure 18-61)
 * as masks and shifts, the CESR half of one counter, a counter's
 * pmu_config, and which Pentium a signature is (pmu/p5/regs.c).  The
 * lowest header of pmu/p5/: events, driver and model build on it.
 *
 * MSRs: CESR 0x11 (32 bits), CTR0 0x12, CTR1 0x13 (40 bits).  The CESR
 * holds both counters' controls: ES0 bits 5:0, CC0 8:6, PC0 9 for CTR0 and
 * ES1 21:16, CC1 24:22, PC1 25 for CTR1; every other bit is reserved.
 * There is no overflow interrupt; PC selects what the PM0/PM1 pin signals
 * (1: overflow, 0: increment).  RDPMC exists only on the Pentium with MMX
 * technology. */
#ifndef PMU_P5_REGS_H
#define PMU_P5_REGS_H

#include <stdint.h>
#include "../cpu_model.h"
#include "../driver.h"

#define P5_MSR_CESR 0x11
#define P5_MSR_CTR0 0x12
#define P5_MSR_CTR1 0x13
#define P5_COUNTERS 2
#define P5_CTR_BITS 40
#define P5_CTR_MASK ((1ull << P5_CTR_BITS) - 1)

/* CESR layout per counter half (SDM Vol. 3B Figure 18-61). */
#define P5_ES_BITS 6
#define P5_CC_SHIFT 6
#define P5_PC_SHIFT 9
#define P5_HALF_SHIFT 16		/* CTR1's half starts at bit 16 */
#define P5_CESR_DEFINED 0x03ff03ffull	/* ES, CC, PC of both halves */

/* Counter-control codes (SDM Vol. 3B §18.23.1): bit 2 clocks (duration)
 * instead of events,
 * bit 1 count at CPL 3, bit 0 count at CPL 0-2. */
enum p5_cc {
	P5_CC_NONE = 0,		/* 000 count nothing */
	P5_CC_EV_OS = 1,	/* 001 events at CPL 0, 1, 2 */
	P5_CC_EV_USR = 2,	/* 010 events at CPL 3 */
	P5_CC_EV_ANY = 3,	/* 011 events at any CPL */
	P5_CC_NONE2 = 4,	/* 100 count nothing */
	P5_CC_CLK_OS = 5,	/* 101 clocks at CPL 0, 1, 2 */
	P5_CC_CLK_USR = 6,	/* 110 clocks at CPL 3 */
	P5_CC_CLK_ANY = 7,	/* 111 clocks at any CPL */
};
#define P5_CC_CLOCKS 4u
#define P5_CC_CPL3 2u
#define P5_CC_CPL012 1u

struct p5_half {
	unsigned es;		/* event select, 6 bits */
	unsigned cc;		/* counter control, 3 bits */
	unsigned pc;		/* pin control, 1 bit */
};

/* Pure CESR field logic (host-tested). */
uint32_t cesr_set_half(uint32_t cesr, unsigned ctr, const struct p5_half *h);
struct p5_half cesr_get_half(uint32_t cesr, unsigned ctr);
/* Nonzero when v sets a bit the CESR reserves (the upper 32 included). */
int cesr_reserved(uint64_t v);
/* Does the counter count at this CPL under this control code? */
int p5_cc_counts_at(unsigned cc, unsigned cpl);

/* A counter's pmu_config for the P5: sel holds its CESR half as the
 * half's bits 9:0 (ES 5:0, CC 8:6, PC 9); aux is unused. */
struct pmu_config p5_config(const struct p5_half *h);
struct p5_half p5_half_of(const struct pmu_config *c);

/* Pentium with MMX technology: family 5 models 4 (P55C) and 8 (mobile). */
int p5_is_mmx_cpu(const struct cpu_sig *s);
/* RDPMC is unreliable on this stepping (Pentium erratum 74, as perfctr
 * handles it): on hardware the driver reads counters with RDMSR only. */
int p5_erratum74(const struct cpu_sig *s);

#endif
